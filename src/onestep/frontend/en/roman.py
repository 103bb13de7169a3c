"""Roman numerals in English text, read as a reader says them where the context shows they are numerals:
after a ruler's or a given name ("Henry VIII" -> "Henry the eighth"), after a capitalized name ("Super Bowl
LVII"), lower-case after a word that numbers a part ("Scene ii"), list labels ("(ii)"), centuries ("the XIX
century"). Numerals after heading words in any casing ("PART XL") are classified in ``classify``; the rules
that find these are in ``normalize``'s late passes.
"""

from __future__ import annotations

import re

from onestep.frontend.en import numbers, tables
from onestep.frontend.en.numbers import cardinal, ordinal
from onestep.frontend.en.rules import alternation, at_sentence_start, previous_word


# Words that follow a regnal name and a single-letter numeral but never the pronoun "I" ("Charles I was
# executed", "George I of Great Britain"), or hardly ever ("I was", "I had" need a name before them here).
_REGNAL_FOLLOWERS = "was|were|had|of|and|died|became|ruled|reigned|married|succeeded|is|who|whose|in"


_REGNAL_BEFORE_AND = re.compile(rf"\b(?:{alternation(tables.REGNAL_NAMES)}) [IVXLC]{{1,7}},? (?:and|or) $")


def lower_roman(m: re.Match[str]) -> str:
    """"Scene ii" -> "Scene two" (lower-case numerals only after a word that numbers a part)."""
    value = numbers.roman_value(m.group(2).upper())
    return f"{m.group(1)} {cardinal(value)}" if value else m.group(0)


# Lower-case cue words before a lower-case numeral ("step iv"); a lone "i" after them stays ("in part i think").
LOWER_ROMAN_CUES = tuple(w.lower() for w in (
    "Chapter Part Volume Act Book Phase Type Class Level Section Article Appendix Stage Step Scene Grade Tier "
    "Division Category Schedule Canto Psalm Plate Figure Table Item Note Clause Paragraph Question Exercise").split())
_LETTER_LABELS = re.compile(r"\((?:[a-hj-uwyz])\)")


_TWO_LETTER_NUMERAL = re.compile(r"\b[A-Za-z]+ (?:i{2,3}|iv|vi{1,3}|ix|xi{1,3})\b")


def lower_cue_roman(m: re.Match[str]) -> str:
    """"step iv" -> "step four"; a lone "v" or "x" ("step v") only beside a numeral of two letters or more."""
    if len(m.group(2)) == 1 and not _TWO_LETTER_NUMERAL.search(m.string):
        return m.group(0)
    return lower_roman(m)


def roman_label(m: re.Match[str]) -> str:
    """"(ii)" -> "(two)": a lower-case roman list label, unless the text labels a list with letters ("(h) (i)"),
    or has a lone "(v)" or "(x)" without another roman label (a variable or a letter)."""
    if _LETTER_LABELS.search(m.string):
        return m.group(0)
    label = m.group(1)
    if label in ("v", "x") and not re.search(r"\((?:i{1,3}|iv|vi{1,3}|ix)\)", m.string):
        return m.group(0)
    return f"({cardinal(numbers.roman_value(label.upper()) or 0)})"


_TITLE_WORDS = frozenset(tables.TITLES) | frozenset(tables.TITLES.values())


def roman_century(m: re.Match[str]) -> str:
    """"the XIX century" -> "the nineteenth century"."""
    value = numbers.roman_value(m.group(1))
    return ordinal(value) if value else m.group(0)


def _after_given_name(text: str, start: int) -> bool:
    """True if one of the two capitalized words before the surname at ``text[start]`` is a given name."""
    words = re.findall(r"[A-Za-z]+", text[max(0, start - 40) : start])[-2:]
    return any(w in tables.GIVEN_NAMES or w in tables.REGNAL_NAMES for w in words if w[:1].isupper())


def name_numeral(m: re.Match[str]) -> str:
    """A capitalized name and a capital numeral: "Henry VIII" -> "Henry the eighth" (rulers, titles, given
    names with II-IV), "Super Bowl LVII" -> "Super Bowl fifty-seven", "Grand Theft Auto V" -> "... five"; a
    one-letter numeral elsewhere stays a letter ("Mary I called you")."""
    name, numeral = m.group(1), m.group(2)
    value = numbers.roman_value(numeral)
    if value is None:
        return m.group(0)
    before = previous_word(m.string, m.start())
    if name in tables.ROMAN_CARDINAL_CUES:
        return f"{name} {cardinal(value)}"
    rest = m.string[m.end() : m.end() + 20]
    at_phrase_end = re.match(r"\s*(?:[,.;:!?)]|$)", rest) is not None
    regnal_verb = re.match(rf"(?:['’]s\b| (?:{_REGNAL_FOLLOWERS})\b)", rest) is not None or (
        at_sentence_start(m.string, m.start()) and re.match(r" (?:[a-z]{2,20}ed|never)\b", rest) is not None
        and re.search(r"\b(?:you|your|me|my)\b", m.string[m.end() : m.end() + 40], re.IGNORECASE) is None
    )  # "Peter I founded ...": a name and "I" opening a sentence without a comma (not "Mary I called you")
    # "Charles I and James I both ...": a second ruler joined to a first one named with a numeral
    coordinated = _REGNAL_BEFORE_AND.search(m.string, max(0, m.start() - 40), m.start()) is not None
    single_ok = len(numeral) > 1 or before in tables.ROMAN_TITLES or at_phrase_end or regnal_verb or coordinated
    if (name in tables.REGNAL_NAMES or before in tables.ROMAN_TITLES) and single_ok:
        return f"{name} the {ordinal(value)}"
    if numeral in ("II", "III", "IV") and _after_given_name(m.string, m.start()):
        return f"{name} the {ordinal(value)}"  # "Tom Smith III", "Martin Luther King III"
    if numeral == "V" and (at_phrase_end or rest.startswith(":")) and name not in _TITLE_WORDS:
        return f"{name} five"  # "Grand Theft Auto V" (a one-letter V after a name that no ruler bears; not "Mr. V.")
    if len(numeral) == 1:
        return m.group(0)
    return f"{name} {cardinal(value)}"
