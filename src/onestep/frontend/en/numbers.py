"""Numbers as American English words (num2words underneath, memoized: one num2words call costs ~0.3 ms).

American style throughout: no "and" inside numbers, no commas ("one thousand two hundred thirty-four").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from num2words import num2words

DIGIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
MAX_WORDED_DIGITS = 15  # longer digit strings (ids, card numbers) are read digit by digit, in groups of four
MAX_SPOKEN_DIGITS = 32  # past this many digits only the first 16 are read, then how many more there are
_GROUP = 4

_CACHE = 8192
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_ROMAN_STEPS = ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
_IRREGULAR_PLURALS = {"six": "sixes"}


def _american(words: str) -> str:
    """num2words' British-style output without "and" and commas."""
    return words.replace(",", "").replace(" and ", " ").replace("oh-", "oh ")


@functools.lru_cache(maxsize=_CACHE)
def cardinal(n: int) -> str:
    """``1234`` -> ``"one thousand two hundred thirty-four"``; ``-5`` -> ``"minus five"``."""
    if len(str(abs(n))) > MAX_WORDED_DIGITS:
        return ("minus " if n < 0 else "") + digit_string(str(abs(n)))
    return _american(num2words(n))


@functools.lru_cache(maxsize=_CACHE)
def ordinal(n: int) -> str:
    """``22`` -> ``"twenty-second"``."""
    return _american(num2words(n, to="ordinal"))


@functools.lru_cache(maxsize=_CACHE)
def year(n: int) -> str:
    """A year: ``1998`` -> ``"nineteen ninety-eight"``, ``2005`` -> ``"two thousand five"``,
    ``2024`` -> ``"twenty twenty-four"``, ``1905`` -> ``"nineteen oh five"``, ``1900`` -> ``"nineteen hundred"``,
    ``776`` -> ``"seven seventy-six"`` (three-digit years, as in "776 BC"); below 100 a plain cardinal."""
    if not 100 <= n <= 9999:
        return cardinal(n)
    return _american(num2words(n, to="year"))


def model_number(text: str) -> str:
    """A model or route number read in pairs, as people say them: ``"737"`` -> ``"seven thirty-seven"``,
    ``"4090"`` -> ``"forty ninety"``, ``"360"`` -> ``"three sixty"``, ``"16"`` -> ``"sixteen"``; a leading
    zero or more than four digits -> digit by digit."""
    if text[:1] == "0" and len(text) > 1 or len(text) > 4:
        return digit_string(text)
    n = int(text)
    if n < 100:
        return cardinal(n)
    return year(n)


def digits(text: str) -> str:
    """Each digit as a word: ``"0199"`` -> ``"zero one nine nine"`` (non-digits are skipped)."""
    return " ".join(DIGIT_WORDS[int(c)] for c in text if c.isdigit())


def digit_string(text: str) -> str:
    """A long run of digits as people read it: digit by digit in groups of four, bounded in length.

    ``"4111111111111111"`` -> ``"four one one one, one one one one, ..."``; past ``MAX_SPOKEN_DIGITS`` digits
    only the first sixteen are read, then ``"and <n> more digits"`` (so a few kilobytes of digits never become
    minutes of audio). Up to ``MAX_WORDED_DIGITS`` digits the groups are not marked.
    """
    text = "".join(c for c in text if c.isdigit())
    if len(text) <= MAX_WORDED_DIGITS:
        return digits(text)
    more = len(text) - 4 * _GROUP if len(text) > MAX_SPOKEN_DIGITS else 0
    shown = text[: 4 * _GROUP] if more else text
    spoken = ", ".join(digits(shown[i : i + _GROUP]) for i in range(0, len(shown), _GROUP))
    if more:
        spoken += f", and {cardinal(more)} more digits"
    return spoken


def number(text: str) -> str:
    """A written number: commas as thousands separators, optional sign and decimals.

    ``"1,234"`` -> ``"one thousand two hundred thirty-four"``, ``"3.14"`` -> ``"three point one four"``,
    ``".5"`` -> ``"point five"``, ``"-2"`` -> ``"minus two"``, ``"007"`` -> ``"zero zero seven"``.
    """
    sign = ""
    if text[:1] in "-−":
        sign, text = "minus ", text[1:]
    elif text[:1] == "+":
        sign, text = "plus ", text[1:]
    whole, _, frac = text.replace(",", "").partition(".")
    if not whole:
        spoken = "point " + digit_string(frac)
    else:
        if len(whole) > 1 and whole[0] == "0" or len(whole) > MAX_WORDED_DIGITS:
            spoken = digit_string(whole)
        else:
            spoken = cardinal(int(whole))
        if frac:
            spoken += " point " + digit_string(frac)
    return sign + spoken


def plural(words: str) -> str:
    """Plural of a number's last word: ``"nineteen ninety"`` -> ``"nineteen nineties"``, ``"six"`` -> ``"sixes"``."""
    head, _, last = words.rpartition(" ")
    if last in _IRREGULAR_PLURALS:
        last = _IRREGULAR_PLURALS[last]
    elif last.endswith("y"):
        last = last[:-1] + "ies"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def whole_number(text: str) -> str:
    """Digits read as one whole number, leading zeros dropped: ``"05"`` -> ``"five"`` (:func:`number` says
    ``"zero five"``)."""
    return cardinal(int(text))


def duration(parts: Sequence[tuple[str | None, str]]) -> str:
    """``[("2", "hour"), ("05", "minute"), (None, "second")]`` -> ``"two hours five minutes"``: each given count
    (digits, read by :func:`whole_number`) with its unit, singular for ``"1"``."""
    return " ".join(f"{whole_number(n)} {unit if int(n) == 1 else unit + 's'}" for n, unit in parts if n)


def fraction(numerator: int, denominator: int, before_noun: bool = False) -> str:
    """``1/2`` -> ``"one half"``, ``3/4`` -> ``"three quarters"``, ``5/8`` -> ``"five eighths"``, ``1/1000`` ->
    ``"one thousandth"``; other denominators over 100 -> ``"seven over three hundred"``. ``before_noun``:
    the fraction qualifies a noun ("3/4-length", "4 3/4 hours"): "three quarter"."""
    if denominator in (1000, 10_000, 100_000, 1_000_000):
        name = ordinal(denominator).removeprefix("one ")
        return f"{cardinal(numerator)} {name if numerator == 1 else plural(name)}"
    if denominator == 0 or denominator > 100:
        return f"{cardinal(numerator)} over {cardinal(denominator)}"
    if denominator == 1:
        return f"{cardinal(numerator)} over one"  # "142/1": said as written (NeMo's reading too)
    if denominator == 2:
        name = "half" if numerator == 1 else "halves"
    elif denominator == 4:
        name = "quarter" if numerator == 1 or before_noun else "quarters"
    else:
        name = ordinal(denominator).removeprefix("one ")  # 1/100: "one hundredth", not "one one hundredth"
        if numerator != 1:
            name = plural(name)
    return f"{cardinal(numerator)} {name}"


def mixed_number(whole: int, numerator: int, denominator: int, before_noun: bool = False) -> str:
    """``2 1/2`` -> ``"two and a half"``, ``1 1/8`` -> ``"one and an eighth"``, ``3 3/4`` -> ``"three and three
    quarters"`` (``"three and three quarter"`` before a noun: "4 3/4 hours")."""
    spoken = fraction(numerator, denominator, before_noun)
    if numerator == 1 and 1 < denominator <= 100:
        name = spoken.removeprefix("one ")
        spoken = ("an " if name[0] in "aeio" else "a ") + name
    return f"{cardinal(whole)} and {spoken}"


def roman_value(text: str) -> int | None:
    """Value of a roman numeral made of I, V, X, L, C (``"XIV"`` -> 14), None if it is not a canonical one."""
    if not text or any(c not in _ROMAN_VALUES for c in text):
        return None
    total = 0
    for i, c in enumerate(text):
        v = _ROMAN_VALUES[c]
        total += -v if i + 1 < len(text) and _ROMAN_VALUES[text[i + 1]] > v else v
    return total if 0 < total < 400 and to_roman(total) == text else None


def to_roman(n: int) -> str:
    """``14`` -> ``"XIV"`` (1 <= n < 400)."""
    out = []
    for value, symbol in _ROMAN_STEPS:
        count, n = divmod(n, value)
        out.append(symbol * count)
    return "".join(out)
