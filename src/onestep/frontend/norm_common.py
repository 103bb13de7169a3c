"""The span engine shared by the per-language text normalizers (es, fr, it, pt, hi, ja).

A normalizer is an ordered list of :class:`SpanRule` classes (NeMo's classify-then-verbalize design): each
rule's pattern finds the spans it owns in the ORIGINAL text (a date, a sum of money, a plain number) and its
verbalizer turns a match into words. Rules earlier in the list win: a span overlapping one already claimed is
skipped, so "15/08/2024" is a date before its digits can be plain numbers. Unclaimed text is kept verbatim.
Every pattern bounds its repetitions (no catastrophic backtracking), and every rule runs once over the text, so
the work is linear in the text's length times the number of rules.

:func:`apply_rules` also returns the spans (original start, end, replacement) so that a caller can map word
offsets of the normalized text back into the original text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import regex

Verbalize = Callable[["regex.Match[str]"], "str | None"]


@dataclass(frozen=True)
class SpanRule:
    """One class of span: a name (for docs and debugging), a compiled pattern and its verbalizer.

    The verbalizer returns the words for a match, or ``None`` to decline it (the span stays free for the rules
    after this one, e.g. a "date" 45/13/2024 that is no date).
    """

    name: str
    pattern: regex.Pattern[str]
    verbalize: Verbalize


@dataclass(frozen=True)
class Span:
    """A replaced span of the original text: ``text[start:end]`` -> ``words``."""

    start: int
    end: int
    words: str
    rule: str


def rule(name: str, pattern: str, flags: int = 0) -> Callable[[Verbalize], SpanRule]:
    """Decorator: ``@rule("percent", r"...")`` over a verbalizer makes a :class:`SpanRule`."""

    compiled = regex.compile(pattern, flags | regex.VERSION1)

    def wrap(fn: Verbalize) -> SpanRule:
        return SpanRule(name, compiled, fn)

    return wrap


def find_spans(text: str, rules: Sequence[SpanRule]) -> list[Span]:
    """Spans claimed by ``rules`` in priority order, sorted by start; spans never overlap."""
    claimed: list[Span] = []
    taken = bytearray(len(text) + 1)
    for r in rules:
        for m in r.pattern.finditer(text):
            s, e = m.span()
            if s == e or any(taken[s:e]):
                continue
            words = r.verbalize(m)
            if words is None:
                continue
            claimed.append(Span(s, e, words, r.name))
            taken[s:e] = b"\x01" * (e - s)
    claimed.sort(key=lambda sp: sp.start)
    return claimed


def apply_rules(text: str, rules: Sequence[SpanRule], spaced: bool = True) -> tuple[str, list[Span]]:
    """Rewrite ``text`` with the words of every span ``rules`` claim.

    Args:
        spaced: the language separates words by spaces: a replacement that touches a letter or digit gets a
            space on that side ("MP3" -> "MP tres"); whitespace runs collapse to one space.
    Returns:
        (normalized text, the spans replaced, in order of their start in ``text``).
    """
    spans = find_spans(text, rules)
    out: list[str] = []
    pos = 0
    for sp in spans:
        out.append(text[pos:sp.start])
        words = sp.words
        if spaced:
            if sp.start > 0 and _wordish(text[sp.start - 1]):
                words = " " + words
            if sp.end < len(text) and _wordish(text[sp.end]):
                words = words + " "
        out.append(words)
        pos = sp.end
    out.append(text[pos:])
    result = "".join(out)
    if spaced:
        result = " ".join(result.split())
    return result, spans


def _wordish(ch: str) -> bool:
    return ch.isalnum()


def clean(text: str) -> str:
    """NFC, control characters and zero-width marks dropped, odd spaces made plain (non-breaking spaces that
    group digits are kept: the number rules read them)."""
    text = unicodedata.normalize("NFC", text)
    return _CONTROL.sub(" ", text)


_CONTROL = regex.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200d\u2060\ufeff]")
