"""The rewrite-pass machinery shared by the English normalization modules, and the context helpers they use.

A pass is a pattern and a handler: ``Rule.run(text)`` replaces each match by ``handler(match)``; the pattern is
compiled on first use. Lists of passes run through ``passes.PassList`` (one trigger scan for all of them).
Every pattern bounds its repetitions, so that no input makes a regular expression backtrack for long.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

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


class Rule:
    """One rewrite pass: each match of ``pattern`` becomes ``handler(match)``.

    ``needs``: substrings of which the text must contain one for the pass to run at all (a cheap pre-check
    that skips most passes on most sentences; empty = always run). With ``lower``, they are looked for in the
    lower-cased text (for case-insensitive patterns). The passes of a normalizer are run together by
    :class:`onestep.frontend.en.passes.PassList`, which looks for the triggers of all of them in one scan.

    The pattern is compiled on its first use (``pattern``, ``apply``), so that a process compiles only the
    patterns its texts need; :meth:`compile` compiles it now (``Frontend.preload`` does so for every pass).
    """

    __slots__ = ("source", "flags", "handler", "needs", "lower", "_pattern")

    def __init__(
        self,
        source: str,
        handler: Callable[[re.Match[str]], str],
        needs: tuple[str, ...] = (),
        *,
        flags: int = 0,
        lower: bool = False,
    ) -> None:
        self.source = source
        self.flags = flags
        self.handler = handler
        self.needs = needs
        self.lower = lower
        self._pattern: re.Pattern[str] | None = None

    def __repr__(self) -> str:
        return f"Rule({self.source[:60]!r}, needs={self.needs!r})"

    @property
    def compiled(self) -> bool:
        """Whether the pattern has been compiled."""
        return self._pattern is not None

    @property
    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern (compiled now if this is its first use)."""
        return self._pattern or self.compile()

    def compile(self) -> re.Pattern[str]:
        """Compile the pattern if not yet done (idempotent; two threads at once both get a correct pattern)."""
        if self._pattern is None:
            self._pattern = re.compile(self.source, self.flags)
        return self._pattern

    def triggered(self, text: str) -> bool:
        """Whether ``text`` holds one of :attr:`needs` (always True without them)."""
        if not self.needs:
            return True
        seen = text.lower() if self.lower else text
        return any(n in seen for n in self.needs)

    def run(self, text: str) -> str:
        """The pass without its pre-check: every match replaced."""
        return (self._pattern or self.compile()).sub(self.handler, text)

    def apply(self, text: str) -> str:
        """The pass on its own (pre-check, then :meth:`run`); a list of passes is run by ``PassList``."""
        return self.run(text) if self.triggered(text) else text


def rule(pattern: str, handler: Callable[[re.Match[str]], str], *needs: str, flags: int = 0) -> Rule:
    """A :class:`Rule`; with ``re.IGNORECASE`` in ``flags`` its ``needs`` are looked for lower-cased."""
    return Rule(pattern, handler, needs, flags=flags, lower=bool(flags & re.IGNORECASE) and bool(needs))


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
