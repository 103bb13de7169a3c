"""Odd and hostile input: nothing raises, everything stays in the inventory, no regex backtracks for long."""

from __future__ import annotations

import re
import re._constants as sre_constants  # type: ignore[import-not-found]
import re._parser as sre_parse  # type: ignore[import-not-found]

import pytest

from onestep.frontend.en import normalize as normalize_module
from onestep.frontend.en import tagger as tagger_module
from onestep.frontend.en.g2p import EnglishG2P
from onestep.frontend.en.normalize import normalize_en
from onestep.frontend.symbols import unknown_symbols
from onestep.frontend.tokens import Segment


@pytest.fixture(scope="module")
def g2p() -> EnglishG2P:
    return EnglishG2P()


def _phonemes(g2p: EnglishG2P, text: str) -> str:
    return Segment(lang="en", text="", tokens=g2p(text)).phonemes


# (raw input, normalized output)
ODD_INPUT = [
    ("", ""),
    ("   \n\t ", ""),
    ("?!...", "?!..."),
    ("\U0001f600\U0001f44d\U0001f3fb\u2764\ufe0f", ""),
    ("\x00\x07\x1b[31m", "[thirty-one meters"),
    ("Hi\u200b there\u00a0you", "Hi there you"),
    ("\u2122\u00a9\u00ae", ""),
    ("\uff28\uff45\uff4c\uff4c\uff4f", "Hello"),
    ("caf\u00e9 na\u00efve", "caf\u00e9 na\u00efve"),
]


@pytest.mark.parametrize(("text", "expected"), ODD_INPUT)
def test_odd_input(g2p: EnglishG2P, text: str, expected: str) -> None:
    assert normalize_en(text) == expected
    assert not unknown_symbols(_phonemes(g2p, normalize_en(text)))


@pytest.mark.parametrize("text", ["?!...", "—", "(", '"', "...", "- - -", ".,;:"])
def test_punctuation_only_has_no_word_phonemes(g2p: EnglishG2P, text: str) -> None:
    phonemes = _phonemes(g2p, text)
    assert not unknown_symbols(phonemes)
    assert not any(c.isalpha() for c in phonemes)


def test_100_kb_text(g2p: EnglishG2P) -> None:
    block = "Dr. Smith paid $12.50 at 3:30 pm on Jan. 5, 2024 for 2 km of API docs (see www.example.com)! "
    text = block * (100_000 // len(block) + 1)
    out = normalize_en(text)
    assert not any(c.isdigit() for c in out)
    assert out.count("Doctor Smith paid twelve dollars and fifty cents") == text.count("Dr. Smith")
    tokens = g2p(out)
    assert len(tokens) > 20_000
    assert not unknown_symbols(Segment(lang="en", text="", tokens=tokens).phonemes)


# Strings built to make careless regular expressions backtrack (runs of separators and near-misses).
HOSTILE = {
    "dotted_letters": "a." * 10_000,
    "comma_digits": "1," * 10_000,
    "digits": "9" * 20_000,
    "at_signs": "a@" * 10_000,
    "mail_near_miss": "a" * 20_000 + "@",
    "url_near_miss": "www." + "a" * 20_000,
    "domain_chain": "ab." * 7_000,
    "caps": "ABC" * 7_000,
    "caps_amp": "A&" * 10_000,
    "hyphen_digits": "1-" * 10_000,
    "slashes": "1/" * 10_000,
    "colons": "1:" * 10_000,
    "letters_digits": "a1" * 10_000,
    "plus_spaces": "+1 " * 7_000,
    "dotted_chain": "1.1." * 5_000,
    "feet_marks": "9'" * 10_000,
    "money_dashes": "$1-" * 7_000,
    "code_cues": "order #1 " * 3_000,
    "letter_digit_code": "AB12CD34" * 2_500,
    "trunk_zero_groups": "0123 " * 5_000,
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_strings(g2p: EnglishG2P, name: str) -> None:
    out = normalize_en(HOSTILE[name])
    assert isinstance(out, str) and out == out.strip()
    assert not any(c.isdigit() for c in out) or name in ("url_near_miss",)
    assert not unknown_symbols(_phonemes(g2p, out[:5_000]))
    assert not unknown_symbols(_phonemes(g2p, HOSTILE[name][:5_000]))


def _children(op: object, av: object) -> list:
    """Sub-patterns of one parsed regex node."""
    if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
        return [av[2]]
    if op == sre_constants.SUBPATTERN:
        return [av[-1]]
    if op == sre_constants.BRANCH:
        return list(av[1])
    if op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
        return [av[1]]
    return []


def _nested_unbounded(parsed: sre_parse.SubPattern, inside_unbounded: bool = False) -> bool:
    """True if an unbounded repeat (``+``, ``*``, ``{n,}``) sits inside another one: ``(a+)+``."""
    for op, av in parsed:
        unbounded = op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT) and av[1] == sre_constants.MAXREPEAT
        if unbounded and inside_unbounded:
            return True
        if any(_nested_unbounded(child, inside_unbounded or unbounded) for child in _children(op, av)):
            return True
    return False


def _module_patterns() -> list[re.Pattern[str]]:
    rules = normalize_module._EARLY_RULES + normalize_module._NUMBER_RULES + normalize_module._LATE_RULES
    patterns = [r.pattern for r in rules]
    for module in (normalize_module, tagger_module):
        patterns += [v for v in vars(module).values() if isinstance(v, re.Pattern)]
    return patterns


def test_no_nested_unbounded_repeats() -> None:
    """The classic catastrophic-backtracking shape never appears in the frontend's patterns."""
    patterns = _module_patterns()
    assert len(patterns) > 40
    offenders = [p.pattern for p in patterns if _nested_unbounded(sre_parse.parse(p.pattern, p.flags))]
    assert offenders == []
