"""Data types that flow out of the text frontend.

A :class:`Token` is one word (or punctuation mark) with its phonemes; a :class:`Segment` is a run of one
language; an :class:`Utterance` is what ``Frontend.phonemize`` returns for one input text.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Lang = str
"""A language code of the registry (:mod:`onestep.languages`): ``"zh"``, ``"en"``."""


@dataclass
class Token:
    """One word or punctuation mark.

    Attributes:
        text: the normalized written form (e.g. ``"银行"``, ``"twelve"``, ``"，"``).
        phonemes: its phonemes in the 114-symbol inventory (may be empty, e.g. for dropped symbols).
        pinyin: Mandarin only: one syllable per Chinese character, ``"yin2"`` style, tone 1-5 (5 = neutral),
            surface tones after sandhi. Empty for English and punctuation.
        whitespace: True if a space follows this token in the phoneme string.
    """

    text: str
    phonemes: str
    pinyin: list[str] = field(default_factory=list)
    whitespace: bool = False


@dataclass
class Segment:
    """A run of one language inside a sentence.

    Attributes:
        lang: a language code of the registry (:mod:`onestep.languages`).
        text: normalized text of the segment.
        tokens: the words of the segment in order.
    """

    lang: Lang
    text: str
    tokens: list[Token] = field(default_factory=list)

    @property
    def phonemes(self) -> str:
        """Phoneme string: token phonemes joined, a space where ``whitespace`` is set."""
        return "".join(t.phonemes + (" " if t.whitespace else "") for t in self.tokens).strip()

    @property
    def pinyin(self) -> list[str]:
        """All pinyin syllables of the segment (zh only), one per Chinese character."""
        return [p for t in self.tokens for p in t.pinyin]


@dataclass
class Utterance:
    """Frontend output for one input text.

    Attributes:
        text: the original input.
        normalized: the whole normalized text.
        segments: language runs in order.
    """

    text: str
    normalized: str
    segments: list[Segment] = field(default_factory=list)

    @property
    def phonemes(self) -> str:
        """All segments' phonemes joined with single spaces."""
        return " ".join(s.phonemes for s in self.segments if s.phonemes)
