"""The rewrite-pass machinery shared by the English normalization modules, and the context helpers they use.

A pass is a compiled pattern and a handler: ``Rule.apply(text)`` replaces each match by ``handler(match)``.
Every pattern bounds its repetitions, so that no input makes a regular expression backtrack for long.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from onestep.frontend.en import tables

# A written number: thousands with commas, or plain digits; optional decimals.
NUM = r"(?:\d{1,3}(?:,\d{3})+|\d{1,30})(?:\.\d{1,30})?"
SIGNED = r"[-−]?" + NUM
MONTH_NAMES = "|".join(tables.MONTHS)
MONTH_ABBREVIATIONS = "|".join(tables.MONTH_BY_ABBREVIATION)
# A month as written: full name, or an abbreviation with an optional period ("Sept.", "Jan").
MONTH = rf"(?:{MONTH_NAMES}|(?:{MONTH_ABBREVIATIONS})\.?)"

_SENTENCE_AHEAD = re.compile(r"\s+[\"“'‘(\[]?([A-Z][a-z]*)")
_PREVIOUS_WORD = re.compile(r"([A-Za-z]+)\W{0,3}$")


@dataclass(frozen=True)
class Rule:
    """One rewrite pass: each match of ``pattern`` becomes ``handler(match)``.

    ``needs``: substrings of which the text must contain one for the pass to run at all (a cheap pre-check
    that skips most passes on most sentences; empty = always run). With ``lower``, they are looked for in the
    lower-cased text (for case-insensitive patterns).
    """

    pattern: re.Pattern[str]
    handler: Callable[[re.Match[str]], str]
    needs: tuple[str, ...] = ()
    lower: bool = False
    _needs: re.Pattern[str] | None = field(init=False, repr=False, compare=False, default=None)

    def __post_init__(self) -> None:  # the pre-check as one scan in C, not a Python loop over ``needs``
        if self.needs:
            object.__setattr__(self, "_needs", re.compile(alternation(self.needs)))

    def apply(self, text: str) -> str:
        if self._needs is not None and self._needs.search(text.lower() if self.lower else text) is None:
            return text
        return self.pattern.sub(self.handler, text)


def rule(pattern: str, handler: Callable[[re.Match[str]], str], *needs: str, flags: int = 0) -> Rule:
    return Rule(re.compile(pattern, flags), handler, needs, lower=bool(flags & re.IGNORECASE) and bool(needs))


def alternation(words: Iterable[str]) -> str:
    """A regex alternation of literal words, longest first (so "km/h" wins over "km")."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def ends_sentence(text: str, end: int) -> bool:
    """True if a period at ``text[end - 1]`` likely also ends the sentence (end of text, or a new one)."""
    rest = text[end : end + 40]
    if not rest.strip():
        return True
    m = _SENTENCE_AHEAD.match(rest)
    return bool(m and m.group(1) in tables.SENTENCE_STARTERS)


def keep_period(m: re.Match[str], spoken: str) -> str:
    """``spoken`` plus the match's final period when that period also ends the sentence."""
    return spoken + "." if m.group(0).endswith(".") and ends_sentence(m.string, m.end()) else spoken


def previous_word(text: str, start: int) -> str:
    """The word just before ``text[start]`` (skipping up to three non-word characters), or ""."""
    m = _PREVIOUS_WORD.search(text[max(0, start - 24) : start])
    return m.group(1) if m else ""


def next_word(text: str, end: int) -> str:
    """The word right after ``text[end]`` (one space between), or ""."""
    m = re.match(r" ([A-Za-z]+)", text[end : end + 30])
    return m.group(1) if m else ""


def at_sentence_start(text: str, start: int) -> bool:
    """True if only spaces, quotes or brackets stand between ``start`` and the start of the text or sentence."""
    before = text[max(0, start - 40) : start].rstrip(" \"“'‘([")
    return not before or before[-1] in ".!?:;"
