"""User lexicon: pronunciations that override the built-in G2P rules (format in docs/LEXICON.md).

A lexicon is a JSON object mapping a written form to its pronunciation::

    {"车库": "che1 ku4", "PLC": "P L C", "OneStep": "w ʌ n s t ɛ p", "GitHub": "git hub"}

* Chinese key (Han characters only): the value is space-separated pinyin with a tone digit 1-5 (5 = neutral),
  one syllable per character; ``ü`` may be written ``ü``, ``v`` or ``u:``. Syllables are checked against
  pypinyin's syllable table.
* Latin key (letters, digits, ``' ’ . - + & # _ /``, words separated by single spaces; at least one letter):
  the value is, in this order of detection,

  1. phonemes written ``/.../``: every character inside the slashes is an inventory symbol, spaces separate
     words (``"/wʌn stˈɛp/"``);
  2. phonemes written as space-separated symbols: every space-separated item is exactly one inventory symbol
     and the value contains at least one non-ASCII character (``"w ʌ n s t ɛ p"``; an all-ASCII value such
     as ``"P L C"`` is always a respelling);
  3. a respelling: words of ASCII or accented Latin letters, digits, ``' ’ . -`` (``"P L C"``, ``"git hub"``),
     read by the English normalizer and G2P in place of the key.

Latin keys match whole words (not preceded or followed by a letter or digit); an exact-case match wins over a
case-insensitive one, and among several case-insensitive candidates the first in file order wins. Chinese
entries are handed to the Mandarin G2P as user words.
"""

from __future__ import annotations

import json
import os
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import regex

from onestep.errors import UserError
from onestep.frontend.symbols import vocab

ENV_VAR = "ONESTEP_LEXICON"

EntryKind = Literal["pinyin", "respelling", "phonemes"]

_HAN_KEY = regex.compile(r"\p{Han}+")
_LATIN_WORD = r"[\p{Latin}0-9'’.\-+&#_/]+"
_LATIN_KEY = regex.compile(rf"{_LATIN_WORD}(?: {_LATIN_WORD})*")
_RESPELL_WORD = r"[A-Za-z0-9À-ÖØ-öø-ÿĀ-ž'’.\-]+"
_RESPELLING = regex.compile(rf"{_RESPELL_WORD}(?: {_RESPELL_WORD})*")
_PINYIN = regex.compile(r"([a-z]+)([1-5])")
_TONE_MARKS = {
    "a": "āáǎà", "e": "ēéěèê", "i": "īíǐì", "o": "ōóǒò", "u": "ūúǔù", "v": "üǖǘǚǜ", "m": "ḿ", "n": "ńňǹ",
}
_STRIP_TONE = str.maketrans({c: base for base, marks in _TONE_MARKS.items() for c in marks})


class LexiconError(UserError, ValueError):
    """A lexicon file or entry is invalid; the message names the file and the entry."""


@dataclass(frozen=True)
class LexiconEntry:
    """One validated lexicon entry.

    Attributes:
        key: the written form as in the file (whitespace collapsed).
        kind: ``"pinyin"`` (Chinese key), ``"respelling"`` or ``"phonemes"`` (Latin key).
        pinyin: for ``"pinyin"``: one ``"che1"``-style syllable per character (``ü`` written ``v``).
        text: for ``"respelling"``: the replacement text; for ``"phonemes"``: the phoneme string.
    """

    key: str
    kind: EntryKind
    pinyin: tuple[str, ...] = ()
    text: str = ""


@lru_cache(maxsize=1)
def mandarin_syllables() -> frozenset[str]:
    """All toneless Mandarin syllables pypinyin knows (``"lv"`` style for ü), e.g. ``"zhuang"``."""
    from pypinyin.pinyin_dict import pinyin_dict

    out: set[str] = set()
    for readings in pinyin_dict.values():
        for reading in readings.split(","):
            base = "".join(c for c in unicodedata.normalize("NFD", reading.translate(_STRIP_TONE)) if c.isascii())
            out.add(base)
    return frozenset(out)


def _parse_pinyin(key: str, value: str) -> tuple[str, ...]:
    syllables = value.lower().replace("u:", "v").replace("ü", "v").split()
    for syl in syllables:
        m = _PINYIN.fullmatch(syl)
        if m is None:
            if syl.isalpha():
                raise LexiconError(f"syllable {syl!r} lacks a tone digit 1-5")
            raise LexiconError(f"{syl!r} is not pinyin (letters followed by one tone digit 1-5, e.g. 'che1')")
        if m.group(1) not in mandarin_syllables():
            raise LexiconError(f"{syl!r} is not a Mandarin syllable")
    if len(syllables) != len(key):
        raise LexiconError(
            f"needs one syllable per character: {len(key)} characters but {len(syllables)} syllables"
        )
    return tuple(syllables)


def _parse_latin_value(value: str) -> tuple[EntryKind, str]:
    table = vocab()
    if len(value) >= 2 and value.startswith("/") and value.endswith("/"):
        phonemes = " ".join(value[1:-1].split())
        if not phonemes:
            raise LexiconError("/.../ phonemes are empty")
        bad = sorted({c for c in phonemes if c not in table})
        if bad:
            raise LexiconError(f"/.../ phonemes must be inventory symbols only; not in the inventory: {bad}")
        return "phonemes", phonemes
    items = value.split()
    if not value.isascii() and all(len(item) == 1 and item in table for item in items):
        return "phonemes", "".join(items)
    if _RESPELLING.fullmatch(" ".join(items)):
        return "respelling", " ".join(items)
    odd = sorted({c for c in value if not c.isspace() and not _RESPELLING.fullmatch(c)})
    raise LexiconError(
        "value is neither a respelling (Latin letters, digits, ' - .) nor phonemes (space-separated single "
        f"inventory symbols, or /.../); offending characters: {odd}"
    )


def parse_entry(key: str, value: object) -> LexiconEntry:
    """Validate one ``key: value`` pair.

    Raises:
        LexiconError: the key or value is malformed; the message says why (without the entry name, which
            :class:`Lexicon` adds).
    """
    if not isinstance(key, str) or not isinstance(value, str):
        raise LexiconError(f"key and value must be strings, got {type(value).__name__} value")
    key = " ".join(unicodedata.normalize("NFC", key).split())
    value = unicodedata.normalize("NFC", value).strip()
    if not key:
        raise LexiconError("empty key")
    if not value:
        raise LexiconError("empty value")
    if _HAN_KEY.fullmatch(key):
        return LexiconEntry(key, "pinyin", pinyin=_parse_pinyin(key, value))
    if regex.search(r"\p{Han}", key):
        raise LexiconError("key mixes Chinese characters with other characters")
    if not _LATIN_KEY.fullmatch(key) or not regex.search(r"\p{Latin}", key):
        raise LexiconError("key must be Chinese characters only, or Latin words (letters, digits, ' . - + & # _ /)")
    kind, text = _parse_latin_value(value)
    return LexiconEntry(key, kind, text=text)


class Lexicon:
    """A validated user lexicon.

    Args:
        entries: written form -> pronunciation (the JSON object of a lexicon file).
        source: where the entries came from, used in error messages (a file name).
    Raises:
        LexiconError: on the first bad entry, naming it and the reason.
    """

    def __init__(self, entries: Mapping[str, str], source: str = "lexicon") -> None:
        self.source = source
        self.zh: dict[str, LexiconEntry] = {}
        self.latin: dict[str, LexiconEntry] = {}
        self._folded: dict[str, LexiconEntry] = {}
        for key, value in entries.items():
            try:
                entry = parse_entry(key, value)
            except LexiconError as e:
                raise LexiconError(f"{source}: entry {key!r}: {e}") from None
            if entry.kind == "pinyin":
                self.zh[entry.key] = entry
            else:
                self.latin[entry.key] = entry
                self._folded.setdefault(entry.key.casefold(), entry)
        self._pattern = self._compile() if self.latin else None

    def _compile(self) -> regex.Pattern[str]:
        keys = sorted(self.latin, key=len, reverse=True)
        alternation = "|".join(r"\s+".join(regex.escape(w) for w in k.split(" ")) for k in keys)
        return regex.compile(rf"(?<![\p{{Latin}}0-9])(?:{alternation})(?![\p{{Latin}}0-9])", regex.IGNORECASE)

    @classmethod
    def load(cls, path: str | Path) -> Lexicon:
        """Read and validate a lexicon JSON file (UTF-8). Duplicate keys are an error."""
        path = Path(path)
        try:
            raw = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise LexiconError(f"cannot read lexicon {path}: {e}") from None

        def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
            seen: dict[str, object] = {}
            for k, v in pairs:
                if k in seen:
                    raise LexiconError(f"{path}: entry {k!r}: duplicate key")
                seen[k] = v
            return seen

        try:
            data = json.loads(raw, object_pairs_hook=_pairs)
        except json.JSONDecodeError as e:
            raise LexiconError(f"lexicon {path} is not valid JSON: {e}") from None
        if not isinstance(data, dict):
            raise LexiconError(f"lexicon {path} must be a JSON object {{\"word\": \"pronunciation\"}}")
        return cls(data, source=str(path))  # type: ignore[arg-type]

    @classmethod
    def from_env(cls) -> Lexicon | None:
        """The lexicon named by ``$ONESTEP_LEXICON``, or None when the variable is unset or empty."""
        path = os.environ.get(ENV_VAR, "").strip()
        if not path:
            return None
        try:
            return cls.load(path)
        except LexiconError as e:
            raise LexiconError(f"{ENV_VAR}: {e}") from None

    def __len__(self) -> int:
        return len(self.zh) + len(self.latin)

    @property
    def zh_words(self) -> dict[str, list[str]]:
        """Chinese entries as the Mandarin G2P takes them: word -> pinyin syllables."""
        return {k: list(e.pinyin) for k, e in self.zh.items()}

    def lookup(self, word: str) -> LexiconEntry | None:
        """Entry for a Latin written form: exact case first, then case-insensitive (first in file order)."""
        word = " ".join(word.split())
        return self.latin.get(word) or self._folded.get(word.casefold())

    def find_latin(self, text: str) -> Iterator[tuple[int, int, LexiconEntry]]:
        """Yield ``(start, end, entry)`` for each whole-word Latin key in ``text``, left to right, longest first."""
        if self._pattern is None:
            return
        for m in self._pattern.finditer(text):
            entry = self.lookup(m.group())
            if entry is not None:
                yield m.start(), m.end(), entry


def resolve_lexicon(lexicon: Lexicon | str | Path | Mapping[str, str] | None) -> Lexicon | None:
    """Turn the ``lexicon`` argument of ``Frontend``/CLI into a :class:`Lexicon`.

    ``None`` falls back to ``$ONESTEP_LEXICON``; a string or path is a file; a mapping is the entries.
    """
    if lexicon is None:
        return Lexicon.from_env()
    if isinstance(lexicon, Lexicon):
        return lexicon
    if isinstance(lexicon, (str, Path)):
        return Lexicon.load(lexicon)
    return Lexicon(lexicon, source="lexicon")
