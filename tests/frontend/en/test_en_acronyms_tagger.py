"""All-caps words (letters vs words), number words, and the rule-based tagger, table-driven."""

from __future__ import annotations

import pytest

from onestep.frontend.en import numbers
from onestep.frontend.en.acronyms import is_pronounceable, speak_caps
from onestep.frontend.en.tagger import UNKNOWN_TAG, tag

CAPS = [
    # curated initialisms
    ("FBI", "F B I"), ("API", "A P I"), ("USB", "U S B"), ("HTTP", "H T T P"), ("CPU", "C P U"), ("AI", "A I"),
    ("CEO", "C E O"), ("UK", "U K"), ("US", "U S"),
    # curated word acronyms
    ("NASA", "Nasa"), ("NATO", "Nato"), ("UNESCO", "Unesco"), ("SCUBA", "Scuba"), ("RAM", "Ram"), ("JPEG", "Jpeg"),
    # unknown: heuristic
    ("FEMA", "Fema"), ("NAFTA", "Nafta"), ("STOP", "Stop"), ("BBC", "B B C"), ("NYC", "N Y C"), ("XKCD", "X K C D"),
    ("ACLU", "A C L U"), ("IBM", "I B M"),
    # plurals, possessives, ampersands, specials, short words
    ("APIs", "A P Is"), ("CPUs", "C P Us"), ("NASA's", "Nasa's"), ("FBI's", "F B I's"), ("AT&T", "A T and T"),
    ("X&Y", "X and Y"), ("OK", "okay"), ("NO", "No"), ("IT", "I T"),
]


@pytest.mark.parametrize(("word", "spoken"), CAPS)
def test_speak_caps(word: str, spoken: str) -> None:
    assert speak_caps(word) == spoken


@pytest.mark.parametrize(
    ("word", "expected"),
    [("NASA", True), ("UNESCO", True), ("GIF", True), ("FBI", False), ("ETA", False), ("NBC", False), ("A", False)],
)
def test_is_pronounceable(word: str, expected: bool) -> None:
    assert is_pronounceable(word) is expected


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ((numbers.cardinal, 1234), "one thousand two hundred thirty-four"),
        ((numbers.cardinal, -7), "minus seven"),
        ((numbers.ordinal, 22), "twenty-second"),
        ((numbers.year, 1905), "nineteen oh five"),
        ((numbers.year, 2000), "two thousand"),
        ((numbers.number, "1,000.05"), "one thousand point zero five"),
        ((numbers.fraction, 5, 8), "five eighths"),
        ((numbers.fraction, 7, 1000), "seven thousandths"),
        ((numbers.fraction, 1, 1000), "one thousandth"),
        ((numbers.fraction, 7, 300), "seven over three hundred"),
        ((numbers.fraction, 3, 4, True), "three quarter"),
        ((numbers.mixed_number, 4, 3, 4, True), "four and three quarter"),
        ((numbers.plural, "twenty"), "twenties"),
        ((numbers.roman_value, "XLII"), 42),
        ((numbers.roman_value, "IIII"), None),
    ],
)
def test_number_words(call: tuple, expected: object) -> None:
    fn, *args = call
    assert fn(*args) == expected


TAGS = [
    ("A man saw a cat .", {"A": "DT", "a": "DT", "man": "NN", "cat": "NN", ".": "."}),
    ("A and B", {"A": "NNP", "B": "NNP"}),
    ("I want to record it", {"I": "PRP", "to": "TO", "record": "VB", "it": "PRP"}),
    ("the record", {"the": "DT", "record": "NN"}),
    ("C I A", {"I": "NNP", "C": "NNP"}),
    ("Come in .", {"Come": UNKNOWN_TAG, "in": "RP"}),
    ('He said " yes "', {"said": UNKNOWN_TAG}),
    ("well - known", {"-": ":"}),
    ("$ 5 %", {"$": "$", "5": "CD", "%": "NN"}),
    ("visit example.com", {"example.com": "ADD"}),
    ("It was used", {"used": "VBN", "was": "VBD"}),
    ("We used to go", {"used": "VBD"}),
    ("meet John", {"John": "NNP"}),
    ("( yes ) ...", {"(": "-LRB-", ")": "-RRB-", "...": ":"}),
]


@pytest.mark.parametrize(("sentence", "expected"), TAGS)
def test_tagger(sentence: str, expected: dict[str, str]) -> None:
    words = sentence.split(" ")
    tags = dict(zip(words, tag(words, [True] * len(words)), strict=True))
    assert {w: tags[w] for w in expected} == expected


def test_tagger_quotes_and_hyphens_from_spacing() -> None:
    words = ['"', "Hi", '"', "well", "-", "known", "cats", "'"]
    spaces = [False, False, True, False, False, True, False, False]
    assert tag(words, spaces) == ["``", "UH", "''", UNKNOWN_TAG, "HYPH", UNKNOWN_TAG, UNKNOWN_TAG, "POS"]
