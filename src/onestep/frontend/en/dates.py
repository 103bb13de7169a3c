"""Dates and years in English text, read the way a US-English speaker says them.

``"Tue., Apr. 9, 2024"`` -> ``"Tuesday, April ninth, twenty twenty-four"``; ``"2024-01-05"`` and ``"1/5/2024"``
-> ``"January fifth, twenty twenty-four"``; ``"5 January 2024"`` -> ``"the fifth of January, twenty
twenty-four"``; ``"the 1990s"`` -> ``"the nineteen nineties"``; ``"'99"`` -> ``"ninety-nine"``; ``"776 BC"`` ->
``"seven seventy-six B C"``. Numeric dates are read month first unless the first number cannot be a month
(``"31/12/2020"``); dotted dates (``"15.03.2021"``) are read day first, as they are written in Europe.
"""

from __future__ import annotations

import re

from onestep.frontend.en import numbers, tables
from onestep.frontend.en.numbers import cardinal, ordinal, year
from onestep.frontend.en.classify import Date, _Lazy, verbalize_date
from onestep.frontend.en.rules import MONTH, Rule, alternation, previous_word, rule

_WEEKDAY_ABBREVIATIONS = {k: v for k, v in tables.ABBREVIATIONS.items() if v in tables.WEEKDAYS}
_WEEKDAY = rf"(?:{alternation(_WEEKDAY_ABBREVIATIONS)})"
_ANY_DAY_OR_MONTH = rf"(?:{alternation(tables.WEEKDAYS)}|{_WEEKDAY}|{MONTH})"
_MONTH_CUES = tuple(m[:3] for m in tables.MONTHS)
_ERA = {"BC": "B C", "BCE": "B C E", "AD": "A D", "CE": "C E", "B.C.": "B C", "A.D.": "A D", "B.C.E.": "B C E"}


def month_name(written: str) -> str:
    """``"Sept."`` -> ``"September"``; a full name is returned as it is."""
    written = written.rstrip(".")
    return written if written in tables.MONTHS else tables.MONTH_BY_ABBREVIATION[written]


def _day_or_month_name(written: str) -> str:
    written = written.rstrip(".")
    if written in tables.WEEKDAYS or written in tables.MONTHS:
        return written
    return _WEEKDAY_ABBREVIATIONS.get(written) or tables.MONTH_BY_ABBREVIATION[written]


def date_words(y: int | None, mo: int, d: int, two_digit_year: bool = False) -> str | None:
    """``(2024, 1, 5)`` -> ``"January fifth, twenty twenty-four"`` (the date class's verbalizer); None if month
    or day is out of range. ``two_digit_year``: "2/3/24" -> "twenty twenty-four", "1/5/99" -> "nineteen
    ninety-nine"."""
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    if y is not None and two_digit_year:
        y += 2000 if y < 50 else 1900
    return verbalize_date(Date(mo, d, y))


def _numeric_date(m: re.Match[str]) -> str:
    """A date written in numbers, as the date class reads it (``classify.Date``, month first: "January fifth,
    twenty twenty-four"). The order: ISO when the year leads; with "/" or "-" month first ("12/25/2023"), day
    first when the first number cannot be a month ("31/12/2020"); with "." day first ("15.03.2021"), month first
    when the second cannot be a month. A two-digit year takes its century (pivot 50); "5-10-15" (dashes and a
    two-digit year) is more likely a list of numbers than a date."""
    if m.group("y"):
        y, mo, d = int(m.group("y")), int(m.group("a")), int(m.group("b"))
    elif m.group("y2"):
        a, b, written = int(m.group("c")), int(m.group("d")), m.group("y2")
        if m.group("sep2") == "-" and len(written) == 2:
            return m.group(0)
        mo, d = (a, b) if a <= 12 else (b, a)
        y = int(written) + (0 if len(written) == 4 else 2000 if int(written) < 50 else 1900)
    else:
        a, b, y = int(m.group("e")), int(m.group("f")), int(m.group("y3"))
        d, mo = (a, b) if b <= 12 else (b, a)
    return date_words(y, mo, d) or m.group(0)


def _timestamp(m: re.Match[str]) -> str:
    """"2024-02-29T10:00:00Z" -> "2024-02-29 at 10:00:00 U T C" (date and time are read by their own passes)."""
    zone = m.group(3)
    spoken_zone = "" if not zone else " U T C" if zone == "Z" else f" U T C {zone}"
    return f"{m.group(1)} at {m.group(2)}{spoken_zone}"


def _cued_month_day(m: re.Match[str]) -> str:
    """"on 4/1" -> "on April first" (a month/day pair only after a word that introduces a date); after "from" or
    "by" not a proper fraction of a small denominator ("from 1/2 to 1 cup", "divide by 3/4") nor one before a unit."""
    if m.group(1) in ("from", "by") and _fraction_after_from(m):
        return m.group(0)
    if m.group(1) == "On" and _UNIT_OR_OF_AFTER.match(m.string, m.end()):
        return m.group(0)  # "On 3/4 the team flies" is a date; "On 3/4 of the days" a fraction
    return f"{m.group(1)} {date_words(None, int(m.group(2)), int(m.group(3))) or m.group(0)[len(m.group(1)) + 1:]}"


def _fraction_after_from(m: re.Match[str]) -> bool:
    num, den = int(m.group(2)), int(m.group(3))
    after = m.string[m.end() : m.end() + 12]
    return (num < den and den in (2, 3, 4, 8, 16)) or _UNIT_OR_OF_AFTER.match(after) is not None


_UNIT_OR_OF_AFTER = re.compile(r"(?:-| ?(?:of|to \d|inch|inches|in|cup|cups|mile|miles|lb|oz|tsp|tbsp)\b)")


def _day_month_range(m: re.Match[str]) -> str:
    """"24-27 May" -> "the twenty-fourth to the twenty-seventh of May" (day-first writing)."""
    first, last = int(m.group("d1")), int(m.group("d2"))
    if not (1 <= first < last <= 31):
        return m.group(0)
    the = "" if previous_word(m.string, m.start()).lower() == "the" else "the "
    out = f"{the}{ordinal(first)} to the {ordinal(last)} of {month_name(m.group('month'))}"
    return out + (f", {year(int(m.group('year')))}" if m.group("year") else "")


def _numeric_month_year(m: re.Match[str]) -> str:
    """"08/2026" -> "August twenty twenty-six" (an expiry or a billing month: a zero-padded month and a year, or
    a one-digit month after a word that dates)."""
    month = int(m.group(1))
    if not 1 <= month <= 12 or (len(m.group(1)) == 1 and previous_word(m.string, m.start()).lower() not in _MONTH_YEAR_CUES):
        return m.group(0)
    return f"{tables.MONTHS[month - 1]} {year(int(m.group(2)))}"


_MONTH_YEAR_CUES = frozenset("exp expires expiry expiration valid through thru until since date dated from to by".split())


def _era_range(m: re.Match[str]) -> str:
    """"470-399 BC" -> "four seventy to three ninety-nine B C": both ends of a span of years before an era."""
    return f"{year(int(m.group(1)))} to {year(int(m.group(2)))} {_ERA[m.group(3)]}"


def _weekday(m: re.Match[str]) -> str:
    return _WEEKDAY_ABBREVIATIONS[m.group(1)]


def _name_range(m: re.Match[str]) -> str:
    """"Mon-Fri" -> "Monday to Friday", "Jan-Mar" -> "January to March"."""
    return f"{_day_or_month_name(m.group(1))} to {_day_or_month_name(m.group(2))}"


def _era_year(m: re.Match[str]) -> str:
    if m.group("pre"):
        return f"{_ERA[m.group('pre')]} {year(int(m.group('y2')))}"
    return f"{year(int(m.group('y1')))} {_ERA[m.group('post')]}"


def _decade_words(written: str) -> str:
    """``"1980"`` -> ``"nineteen eighties"``, ``"70"`` -> ``"seventies"``, ``"2000"`` -> ``"two thousands"``."""
    n = int(written)
    return numbers.plural(year(n) if len(written) == 4 else cardinal(n))


def _decade(m: re.Match[str]) -> str:
    """A decade, one grammar: "1980s", "the '90s", "80's", "1980 s" (a stray space; not after a/an/for/after/
    every/within, where "1500 s" is seconds), and a span of decades "1960s–70s", "1990s-2000s"."""
    first, second = m.group("a"), m.group("b") or m.group("b4")
    if m.group("sp") and (len(first) != 4 or _SECONDS_BEFORE.search(m.string, max(0, m.start() - 8), m.start())
                          or _WORD_AFTER.match(m.string, m.end())):
        return m.group(0)
    spoken = _decade_words(first)
    return f"{spoken} to {_decade_words(second)}" if second else spoken


_SECONDS_BEFORE = _Lazy(r"(?:\b(?:a|an|for|after|every|within)|\d) $")
_WORD_AFTER = _Lazy(r"\.?\w")


def _short_year(m: re.Match[str]) -> str:
    """"'99" -> "ninety-nine", "'05" -> "oh five"."""
    n = int(m.group(1))
    return f"oh {cardinal(n)}" if n < 10 else cardinal(n)


def _common_fraction(num: int, den: int) -> bool:
    """Fractions written as often as dates: sixteenths and thirty-seconds in lowest terms ("7/16", "3/32"),
    one twentieth, twenty-fourth, twenty-fifth."""
    return (den in (16, 32) and num % 2 == 1) or (num == 1 and den in (20, 24, 25))


def _bare_month_day(m: re.Match[str]) -> str:
    """"Valentine's Day is 2/14" -> "February fourteenth": a month and a day of 13-31 (few fractions are
    written so, see ``_common_fraction``), not before a unit or "of" and not part of a mixed number."""
    mo, d = int(m.group(1)), int(m.group(2))
    after = m.string[m.end() : m.end() + 12]
    if _common_fraction(mo, d) or re.match(r"(?:-| ?(?:of|inch|inches|in|cup|cups|mile|miles|lb|oz|tsp|tbsp)\b)", after) \
            or re.search(r"\d $", m.string[max(0, m.start() - 2) : m.start()]):
        return m.group(0)
    return date_words(None, mo, d) or m.group(0)


def _period_year(m: re.Match[str]) -> str:
    """"Q3 2024" -> "Q three twenty twenty-four", "FY2023" -> "F Y twenty twenty-three"."""
    label = m.group(1)
    spoken = "F Y" if label.upper() == "FY" else f"{label[0]} {cardinal(int(label[1]))}"
    y = m.group(2)
    return f"{spoken} {year(int(y)) if len(y) == 4 else cardinal(int(y))}"


_MONTH_BEFORE = re.compile(rf"\b(?:{MONTH})(?![a-z])")


def _day_then_year(m: re.Match[str]) -> str:
    """"from March 3rd to the 5th, 2025" -> "... the 5th, twenty twenty-five": a year after a day of the month
    written alone, when a month is named shortly before (else "finished 5th, 1500 meters back" is no date)."""
    if not _MONTH_BEFORE.search(m.string, max(0, m.start() - 48), m.start()):
        return m.group(0)
    return f"{m.group(1)}, {year(int(m.group(2)))}"


_ERA_AFTER = alternation(k for k in _ERA if k not in ("AD",))
#: "Oct. 3–Jan. 12": a range from one month's day to another's, the dash read "to" (each date is then read by the
#: date class, which runs after this rule).
MONTH_RANGE_RULE = rule(rf"\b({MONTH}) (\d{{1,2}}(?:st|nd|rd|th)?) ?[-–—] ?(?=(?:{MONTH}) \d{{1,2}}(?!\d))",
                        lambda m: f"{m.group(1)} {m.group(2)} to ", "-", "–", "—")

# Passes that need no digit in the text.
WORD_RULES: list[Rule] = [
    rule(rf"\b({_ANY_DAY_OR_MONTH})\.? ?[-–] ?({_ANY_DAY_OR_MONTH})(?![\w-])(\.(?= [a-z]|[,;:)]))?",
         _name_range, "-", "–"),
]

RULES: list[Rule] = [
    rule(r"(?<![\w.-])(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}(?::\d{2})?)(?:\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?(?![\w:])",
         _timestamp, "T"),
    rule(r"\b(Q[1-4]|H[12]) ?[-–] ?(Q[1-4]|H[12])\b", lambda m: f"{m.group(1)} to {m.group(2)}", "Q", "H"),  # Q1-Q3
    rule(r"\b(Q[1-4]|H[12]|FY) ?['’]?(\d{4}|\d{2})\b", _period_year, "Q", "H", "FY"),
    rule(r"(?<=\d[snrt][tdh]) (?:c|cent)\.(?= |$)", lambda m: " century", "c."),  # "the 1st c. BC"
    # numeric dates, one grammar: ISO year first ("2024-01-05", "2016/07/03", "2016.07.03"), month first with
    # "/" or "-" ("12/25/2023", "1/5/99"), day first with "." ("15.03.2021")
    rule(r"(?=\d)(?:(?<![\w.-])(?P<y>\d{4})(?P<sep>[-/.])(?P<a>\d{1,2})(?P=sep)(?P<b>\d{1,2})(?![\w-]|[./]\d)"
         r"|(?<![\w/.-])(?P<c>\d{1,2})(?P<sep2>[/-])(?P<d>\d{1,2})(?P=sep2)(?P<y2>\d{4}|\d{2})(?![\w/-]|\.\d)"
         r"|(?<![\w.])(?P<e>\d{1,2})\.(?P<f>\d{1,2})\.(?P<y3>\d{4})(?!\w|\.\d))", _numeric_date, "-", "/", "."),
    rule(r"(?=\d)(?<![\w/.,-])(0[1-9]|1[0-2]|[1-9])/((?:19|20)\d\d)(?![\w/]|[.,]\d)", _numeric_month_year, "/"),
    rule(rf"\b(on|On|until|till|since|before|after|through|due|dated|from|by|starting|ending|(?:[Mm]oved|[Pp]ostponed|[Pp]ushed|[Dd]elayed|"
         rf"[Rr]escheduled|brought forward) to|(?:[Rr]escheduled|[Ss]cheduled) for|{alternation(tables.WEEKDAYS)}|"
         rf"{_WEEKDAY}\.?),? (\d{{1,2}})/(\d{{1,2}})(?![\d/]|\.\d)",
         _cued_month_day, "/"),
    rule(r"(?=\d)(?<![\w/.,-])([1-9]|1[0-2])/(1[3-9]|2\d|3[01])(?![\w/]|[.,]\d)", _bare_month_day, "/"),
    rule(rf"\b({_WEEKDAY})\.?(?=,? (?:{MONTH}|\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{MONTH}|\d{{1,2}}/\d))",
         _weekday, "Mon", "Tu", "We", "Th", "Fr", "Sa", "Su"),
    rule(rf"(?<![\w.,/-])(?P<d1>\d{{1,2}})(?:st|nd|rd|th)? ?[-–] ?(?P<d2>\d{{1,2}})(?:st|nd|rd|th)? (?P<month>{MONTH})(?![a-z])"
         rf"(?:,? (?P<year>\d{{4}})\b)?", _day_month_range, *_MONTH_CUES),
    rule(r"(?<![\w.,])((?:[1-9]|[12]\d|3[01])(?:st|nd|rd|th)), (1\d{3}|20\d{2})\b(?![.,:]\d)", _day_then_year,
         "st, ", "nd, ", "rd, ", "th, "),
    rule(rf"(?<![\w.,-])(\d{{3,4}}) ?[-–] ?(\d{{2,4}}) ?({_ERA_AFTER})(?!\w|\.[A-Za-z])", _era_range, "BC", "CE"),
    rule(rf"(?<![\w.,])(?P<y1>\d{{1,4}}) ?(?P<post>{_ERA_AFTER}|AD)(?!\w|\.[A-Za-z])|"
         rf"\b(?P<pre>AD|A\.D\.) ?(?P<y2>\d{{1,4}})\b", _era_year, "BC", "AD", "CE", "B.C", "A.D"),
    # decades: "1980s", "'90s", "80's", "1980 s", "the 1960s–70s"
    rule(r"(?<![\w.,'’$€£¥])['’]?(?P<a>\d0|1\d{2}0|20\d0)(?:(?P<sp> )s\b(?!['’])|(?:s|'s|’s)\b"
         r"(?: ?[-–—] ?(?:['’]?(?P<b>[1-9]0)|(?P<b4>1\d{2}0|20\d0))s\b)?)", _decade, "0s", "0's", "0’s", "0 s"),
    rule(r"(?<![\w'’])['’](\d{2})(?![\w'’])", _short_year, "'", "’"),
]

