"""``Word``: one segmented Mandarin word of a phrase with its syllables, the unit the G2P, tone sandhi
(:mod:`onestep.frontend.zh.sandhi`) and the context rules (:mod:`onestep.frontend.zh.neutral_context`) share."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Word:
    """One segmented word of a phrase.

    Attributes:
        text: the Chinese characters.
        syllables: one tone-numbered pinyin syllable per character; rewritten in place by :func:`apply_sandhi`.
        frozen: a user lexicon entry, whose syllables are final as given.
        in_dictionary: the reading came for the whole word from a phrase dictionary (pypinyin's or the
            curated one), so suffix heuristics for unknown words do not apply.
        covered: per character, whether a dictionary phrase of 2+ characters settles its reading.
        learned: indices of the characters whose reading the polyphone model chose; rules that guess a
            function word's reading from its neighbours leave them alone.
        citation: the syllables as chosen, before sandhi (set by the G2P for evaluation).
        lexical: lexical tones of characters whose phrase reading is a neutral tone that stays spoken (姥姥:
            ``{1: "lao3"}``); the citation shows them.
    """

    text: str
    syllables: list[str]
    frozen: bool = False
    in_dictionary: bool = False
    covered: tuple[bool, ...] = ()
    learned: set[int] = field(default_factory=set)
    citation: tuple[str, ...] = ()
    lexical: dict[int, str] = field(default_factory=dict)
