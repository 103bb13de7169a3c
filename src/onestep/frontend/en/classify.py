"""Semiotic classes of English text: classify a span, then verbalize it (the NeMo / Sparrowhawk split).

Each class here is a pattern that finds its spans in *every common written form* (month names in any casing
and abbreviation, day-month and month-day order, ``.``/``-``/``/`` separators, ...), a parser that turns a
match into a small typed value (:class:`Date`, :class:`Telephone`, ...) and a verbalizer that reads the value.
The shape of the text decides the class; a few context words settle what the shape alone cannot (a bare
1100-2099 number after "in/since/by/from", or standing alone, is a year). The rules run first among the
number passes of :mod:`onestep.frontend.en.normalize`, so a span classified here is read here and no later
surface rule sees it; what they do not claim is left to those passes.

Classes handled here: dates with a month name, years and decades (``year_at`` is the one owner of the decision
whether a four-digit number is a year), telephone-shaped digit groups (incl. SSN 3-2-4, dotted IPv4,
extensions), ISBNs, street addresses, slash look-alikes (scores, two years, c/o, letters), money with one
decimal or a rate, units written in capitals, ranges with a tilde or a unit on both ends, and roman numerals
after heading words (case-insensitive). docs/FRONTEND.md lists where the readings differ from NeMo's.
"""

from __future__ import annotations

import functools
import re
import sys
from typing import NamedTuple

from onestep.frontend.en import tables
from onestep.frontend.en.numbers import (
    cardinal, digits, duration, model_number, ordinal, roman_value, year,
)
from onestep.frontend.en.rules import Rule, alternation, at_sentence_start, ends_sentence, next_word, previous_word, rule

class _Lazy:
    """A regular expression compiled on its first use, so that importing this module compiles nothing
    (:func:`preload` compiles them all)."""

    __slots__ = ("source", "_pattern")
    made: list[_Lazy] = []

    def __init__(self, source: str) -> None:
        self.source = source
        self._pattern: re.Pattern[str] | None = None
        _Lazy.made.append(self)

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._pattern is None:
            self._pattern = re.compile(self.source)
        return self._pattern

    def match(self, text: str, pos: int = 0) -> re.Match[str] | None:
        return self.pattern.match(text, pos)

    def search(self, text: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.pattern.search(text, pos, endpos)


def preload() -> None:
    """Compile this module's helper patterns now (its rules are compiled with the normalizer's pass lists)."""
    for lazy in _Lazy.made:
        _ = lazy.pattern
    _unit_after()


# ------------------------------------------------------------------------------------------ month names

_MONTH_KEYS: dict[str, int] = {}
for _i, _m in enumerate(tables.MONTHS, 1):
    _MONTH_KEYS[_m.lower()] = _i
    _MONTH_KEYS[_m[:3].lower()] = _i
_MONTH_KEYS["sept"] = 9
# any casing; an abbreviation may carry a period ("SEPT.", "jan.")
_MONTH_WORD = rf"(?i:{alternation(sorted(_MONTH_KEYS, key=len, reverse=True))})(?![A-Za-z])"
_MONTH_ANY = rf"{_MONTH_WORD}\.?"
_WEEKDAY_KEYS = {d.lower(): d for d in tables.WEEKDAYS} | {d[:3].lower(): d for d in tables.WEEKDAYS} | {
    "tues": "Tuesday", "thur": "Thursday", "thurs": "Thursday", "weds": "Wednesday"}
_WEEKDAY_ANY = rf"(?i:{alternation(sorted(_WEEKDAY_KEYS, key=len, reverse=True))})(?![A-Za-z])\.?"
_SUFFIX = r"(?i:st|nd|rd|th)"
# the first three letters of every month name: a text without one has no month date
_MONTH_TRIGGERS = tuple(m[:3].lower() for m in tables.MONTHS)
# lowercase words that are also month names: a date only with a day and no verb-like word after it
_WORD_MONTHS = frozenset({"may", "march", "mar"})
_VERB_AFTER = _Lazy(r" (?:be|have|not|also|still|never|only|well|need|take|get|make|go|come|help|cause|seem|"
                         r"vary|change|apply|include|require|on|through|past|into|across|towards?|down|up|off|"
                         r"forward|ahead|in|out|away|along|back|again)\b")


@functools.lru_cache(maxsize=1)
def _unit_after() -> re.Pattern[str]:
    """A unit or a percent sign right after a number (compiled on first use, not at import)."""
    return re.compile(rf" ?(?:%|(?:{alternation(tables.UNITS)})\b)")


def month_number(written: str) -> int | None:
    """``"SEPT."`` -> 9, ``"january"`` -> 1; None for anything else."""
    return _MONTH_KEYS.get(written.rstrip(".").lower())


class Date(NamedTuple):
    """A calendar date as written: month 1-12, day 1-31 or None, year or None; ``day_first`` when the day was
    written before the month ("25 July"), which is read "the twenty-fifth of July"."""

    month: int
    day: int | None = None
    year: int | None = None
    day_first: bool = False
    weekday: str | None = None


def verbalize_date(d: Date, after_the: bool = False) -> str:
    """``Date(7, 25, 2012, day_first=True)`` -> ``"the twenty-fifth of July, twenty twelve"``;
    ``Date(1, 5, 2024)`` -> ``"January fifth, twenty twenty-four"``; ``Date(5, None, 2024)`` -> ``"May twenty
    twenty-four"``."""
    month = tables.MONTHS[d.month - 1]
    if d.day is None:
        spoken = month
    elif d.day_first:
        spoken = f"{'' if after_the else 'the '}{ordinal(d.day)} of {month}"
    else:
        spoken = f"{month} {ordinal(d.day)}"
    if d.year is not None:
        spoken += f"{',' if d.day is not None else ''} {year(d.year)}"
    if d.weekday:
        spoken = f"{d.weekday}, {spoken}"
    return spoken


_DATE_MONTH_FIRST = (
    rf"(?<![\w.–—-])(?<![–—-] )(?:(?P<wd>{_WEEKDAY_ANY}),? )?(?P<mon>{_MONTH_ANY}) ?"
    rf"(?:(?P<day>\d{{1,2}}){_SUFFIX}?(?:[-–](?P<day2>\d{{1,2}}){_SUFFIX}?(?![-–]))?(?!\d|[:.,/]\d| ?[-–—]| ?%)"
    rf"(?:,? (?P<year>\d{{4}})(?![\w:/-]|[.,]\d))?"
    rf"|,? ?(?P<year2>\d{{4}})(?![\w:/-]|[.,]\d))"
)
_DATE_DAY_FIRST = (
    rf"(?<![\w.,/–—-])(?<![–—-] )(?:(?P<wd>{_WEEKDAY_ANY}),? )?(?P<day>\d{{1,2}}){_SUFFIX}?(?: of)? (?P<mon>{_MONTH_ANY})"
    rf"(?:,? (?P<year>\d{{4}})(?![\w:/-]|[.,]\d))?"
)


def _dashed_date(m: re.Match[str], day_first: bool) -> str:
    """"13-Apr-2016", "JUN-07-1983", "05-jan-20": a month name between dashes (forms, tickets, logs)."""
    mon = month_number(m.group("mon"))
    day, y = int(m.group("day")), m.group("year")
    if mon is None or not 1 <= day <= 31:
        return m.group(0)
    full = int(y) if len(y) == 4 else int(y) + (2000 if int(y) < 50 else 1900)
    return verbalize_date(Date(mon, day, full, day_first=day_first))


def _date(m: re.Match[str], day_first: bool) -> str:
    written = m.group("mon")
    mon = month_number(written)
    day_text = m.group("day")
    day = int(day_text) if day_text else None
    y = m.group("year") or (m.groupdict().get("year2"))
    if mon is None or (day is not None and not 1 <= day <= 31):
        return m.group(0)
    bare = written.rstrip(".")
    after = m.string[m.end() : m.end() + 16]
    if bare.islower() and bare in _WORD_MONTHS and not y and (_VERB_AFTER.match(after)
                                                               or counted_noun_at(m.string, m.end())
                                                               or _unit_after().match(after)):
        return m.group(0)  # "item 5 may be late", "we march 5 miles": a verb, not a month
    if not bare.islower() and not bare.isupper() and not bare[0].isupper():
        return m.group(0)  # "mAy": no casing anyone writes a month in
    if day is None and not y:
        return m.group(0)
    wd = m.group("wd")
    weekday = _WEEKDAY_KEYS[wd.rstrip(".").lower()] if wd else None
    day2 = m.groupdict().get("day2")
    if day2:  # "JUNE 8-29": days of one month
        if day is None or not day < int(day2) <= 31:
            return m.group(0)
        spoken = f"{tables.MONTHS[mon - 1]} {ordinal(day)} to {ordinal(int(day2))}"
        return spoken + (f", {year(int(y))}" if y else "")
    after_the = re.search(r"\b[Tt]he $", m.string[max(0, m.start() - 4) : m.start()]) is not None
    spoken = verbalize_date(Date(mon, day, int(y) if y else None, day_first, weekday), after_the)
    if m.group(0).endswith(".") and re.match(r"\s*$|\s+[A-Z]", m.string[m.end() :]):
        spoken += "."  # "on 12 Jan." at the end of a sentence keeps its full stop
    return spoken


# --------------------------------------------------------------------------------------- years, decades

_YEAR_NOUN_AFTER = _Lazy(r" (?!(?:was|has|is|does|this|his|hers|its|as|us|thus|yes|plus|less|unless|across|"
                              r"always|perhaps|whereas|besides|afterwards|towards|sometimes)\b)"
                              r"(?:[a-z]{2,20}s|people|men|women|children|feet|foot|sheep|fish|staff|personnel|yen|"
                              r"per|percent|of|x)\b")


def counted_noun_at(text: str, end: int) -> bool:
    """Whether a counted noun follows ``text[:end]`` (" votes", " people"; not " was", " this"): a number there
    is a count, not a year."""
    return _YEAR_NOUN_AFTER.match(text, end) is not None
_YEAR_NUMBER = r"(?:1[1-9]\d\d|20\d\d)"
_YEAR_END = r"(?![\w:/%°'’-]|[.,]\d)"


def is_year(n: int) -> bool:
    """The values a four-digit number may take to be read as a year where its context says so (1000-2199:
    "in 1066", "by 2150"); without context only 1100-2099 (``_YEAR_NUMBER``: a line of its own, a span)."""
    return 1000 <= n <= 2199


def year_at(text: str, start: int, end: int) -> bool:
    """Whether the four-digit number ``text[start:end]`` is a year where it stands: the one owner of that
    decision (the number pass asks it for every plain four-digit number). A year after a cue word ("in 1975",
    "since 2012", "by 1408", "from 1990"; ``tables.YEAR_CUES``), standing alone as a line ("1975", 1100-2099),
    before an era ("1500 BC"), in a citation, after "the year was", as a model year or an event's year, or the
    second of two years joined by and/or; not before a counted noun after a quantity word ("about 1085 items",
    "by 1537 votes") nor as the last digits after "ending in"."""
    n = int(text[start:end])
    if not is_year(n):
        return False
    if not text[:start].strip() and not text[end:].strip(" .!?"):
        return 1100 <= n <= 2099  # a line of its own
    return _year_context(text, start, end)


def _year_span(m: re.Match[str]) -> str:
    """"1220 to 1272": two numbers of 1100-2099, the second later, joined by "to" are a span of years (not
    before a counted noun: "1200 to 1500 people")."""
    first, second = int(m.group(1)), int(m.group(3))
    if second <= first or second - first > 300 or _YEAR_NOUN_AFTER.match(m.string, m.end()):
        return m.group(0)
    return f"{year(first)} {m.group(2)} {year(second)}"


# "a 1967 Mustang", "his 2019 Toyota": a four-digit number between these and a capitalized name is a model year.
_YEAR_BEFORE_NAME = frozenset("a an his her my your our their its".split())


# "a 2023 poll", "its 2019 report": nouns that a year before them dates (not "a 2000 word essay").
_YEAR_NOUNS = frozenset(
    """poll polls survey surveys study studies report reports census election elections law ruling decision
    budget campaign season film movie album book paper article edition estimate estimates review audit
    interview tournament championship match final final's merger deal agreement treaty act plan strategy
    model models version update""".split()
)


def _event_year_at(text: str, num_start: int, num_end: int, before: str) -> bool:
    """"Paris 2024", "Wimbledon 2025": a 19xx/20xx number right after a capitalized name inside a sentence, or
    opening one before a verb of events ("Wimbledon 2025 starts on ..."; not "Boeing 747": model names are read
    by the code passes before this one)."""
    if not (1900 <= int(text[num_start:num_end]) <= 2099 and before[:1].isupper() and before.isalpha()):
        return False
    start = num_start - len(before) - 1
    if text[start:num_start] != before + " ":
        return False
    return not at_sentence_start(text, start) or _EVENT_VERB_AFTER.match(text, num_end) is not None


_EVENT_VERB_AFTER = re.compile(r" (?:starts|started|begins|began|ends|ended|opens|opened|kicked off|"
                               r"takes place|took place|kicks off)\b")


# "(Smith et al., 2019)", "(Jones & Lee, 2021, p. 14)": the year of an author-date citation
_CITATION_BEFORE = re.compile(r"\([A-Z][^()]{0,60}, $")
_CITATION_AFTER = re.compile(r" ?[a-z]?(?:[),;]|, p)")
# "it's already 2025!!", "welcome to 2030.": the current year named at the end of a clause
_YEAR_NOW = re.compile(r"\b(?:already|[Ii]t[’']s|[Ii]t is|[Ii]t was|[Ww]elcome to|[Hh]ello|[Gg]oodbye|[Bb]ye) $")
CLAUSE_END = re.compile(r"\s*(?:[.!?,;:)]|$)")
# "The year was 1847": a year named as such
_YEAR_WAS = re.compile(r"\b[Yy]ear (?:was|is|had been|will be) $")
# "in 1903 and 1911": the second of two years joined by "and" or "or"
_YEAR_BEFORE_AND = re.compile(r"(?<![\w.,])(\d{4}) (?:and|or) $")


# cue words after which a number before a counted noun is a count ("about 1985 items"), not a year; after
# "by"/"from"/"of" only outside 1900-2099 ("by 1537 votes", but "by 2030 emissions must fall"); "in", "the",
# "since" keep their year ("In 2024 runners crossed ...", "the 2020 elections")
_QUANTITY_CUES = frozenset("about around over under nearly almost some approximately roughly".split())
_COUNT_CUES = frozenset("by from of".split())
_SECOND_NUMBER = re.compile(r" ?(?:to|and|or|[-–]) ?\d{1,3}(?:,\d{3})*\d*")


def _year_context(text: str, start: int, end: int, depth: int = 0) -> bool:
    """Whether the four-digit number ``text[start:end]`` (1000-2199) is read as a year where it stands (the
    rules of :func:`year_at`)."""
    before = previous_word(text, start).lower()
    after = text[end : end + 4].strip().rstrip(".,;:")
    second = _SECOND_NUMBER.match(text, end)
    if (before in _QUANTITY_CUES or (before in _COUNT_CUES and not 1900 <= int(text[start:end]) <= 2099)) \
            and counted_noun_at(text, second.end() if second else end):
        return False  # "about 1085 items", "by 1537 votes", "from 1234 to 1567 people": a count
    return bool(
        before in tables.YEAR_CUES
        or after.upper() in tables.YEAR_SUFFIXES
        or (before == "the" and int(text[start:end]) >= 1100)
        or (before in _YEAR_BEFORE_NAME and re.match(r" [A-Z][a-z]", text[end : end + 3]))
        or ((before in _YEAR_BEFORE_NAME or text[start - 1 : start] == "(")
            and next_word(text, end).lower() in _YEAR_NOUNS)  # "its 2019 report", "(2020 census)"
        or next_word(text, end) in tables.CAR_MAKES  # "For sale: 2015 Honda Civic"
        or (not text[:start].strip() and after.startswith(","))
        or (text[start - 1 : start] == "(" and text[end : end + 1] == ")")
        or _event_year_at(text, start, end, previous_word(text, start))
        or _YEAR_WAS.search(text, max(0, start - 20), start)
        or (_YEAR_NOW.search(text, max(0, start - 16), start) and CLAUSE_END.match(text, end)
            and 1900 <= int(text[start:end]) <= 2099)
        or (_CITATION_BEFORE.search(text, max(0, start - 64), start) and _CITATION_AFTER.match(text, end))
        or (depth == 0 and _after_a_year(text, start, end))
    )


# Words after the second of two years ("in 1903 and 1911 she ..."); a noun there counts ("In 1800 and 1500 soldiers").
_AFTER_YEAR_LIST = frozenset("respectively in at on when while before after she he they it we i the".split())


def _after_a_year(text: str, start: int, end: int) -> bool:
    """"in 1903 and 1911": the second of two numbers joined by "and" or "or", the first read as a year, and no
    noun after the second."""
    prior = _YEAR_BEFORE_AND.search(text, max(0, start - 12), start)
    if prior is None or not is_year(int(prior.group(1))):
        return False
    after = next_word(text, end)
    if after and not after[0].isupper() and after.lower() not in _AFTER_YEAR_LIST:
        return False
    return _year_context(text, prior.start(1), prior.end(1), 1)


# ------------------------------------------------------------------------------------------- telephone


class Telephone(NamedTuple):
    """Digit groups read digit by digit, in order; ``extension`` if any; ``joiner`` between the groups
    (", " for a phone or an ID, " dot " for an IP address); ``plus`` before an international number;
    ``toll_free``: a toll-free area code (800, 900) is said as a number ("eight hundred")."""

    groups: tuple[str, ...]
    extension: str | None = None
    joiner: str = ", "
    plus: bool = False
    toll_free: bool = False


_TOLL_FREE = {"800": "eight hundred", "900": "nine hundred"}


def verbalize_telephone(t: Telephone) -> str:
    """``Telephone(("123", "45", "6789"))`` -> ``"one two three, four five, six seven eight nine"``;
    ``Telephone(("1", "800", "555", "0199"), toll_free=True)`` -> ``"one, eight hundred, five five five, zero
    one nine nine"``."""
    area = 1 if t.groups[0] == "1" and len(t.groups) > 2 else 0
    spoken = t.joiner.join(_TOLL_FREE[g] if t.toll_free and i == area and g in _TOLL_FREE else digits(g)
                           for i, g in enumerate(t.groups))
    if t.extension:
        spoken += f", extension {digits(t.extension)}"
    return ("plus " if t.plus else "") + spoken


# One grammar for the digit groups of a telephone number: an optional "+" and country code, an optional
# trunk "1", an area code in parentheses or a first group, then groups separated by " ", "." or "-".
# Which shapes are a telephone number is decided by ``_telephone`` (the grammar alone also matches amounts).
_PHONE = (r"(?=[\d(+])(?<![\w.,+/#$€£¥(-])(?<!\d )(?:(?P<plus>\+)(?P<cc>\d{1,3})[ .-]?)?(?:(?P<one>1)[ .-]?(?=\(\d|\d{3}[ .-]\d))?"
          r"(?:\((?P<area>\d{1,5})\)[ .-]?|(?P<first>\d{1,5})(?P<sep>[ .-]))(?P<rest>\d{2,8}(?:[ .-]\d{1,8}){0,4})"
          r"(?![\w-]|[.,:/]\d)")


_PHONE_SEP = _Lazy(r"[ .-]")
_SPACE_DIGIT = _Lazy(r" \d")


def _telephone(m: re.Match[str]) -> str:
    """"+1 (123)-123-5678", "(555) 123-4567", "1-800-555-0199", "555.123.4567", "123-123-5678-1111", "020 7946
    0958", "(02) 9876 5432", "0044 59 872 0184": the groups digit by digit, a pause between groups, "plus" before
    an international number. Shapes: with "+", 7-15 digits; a three-digit area code in parentheses and seven
    digits after it (a dashed extension may follow); a zero-led area code in parentheses and six to eight digits;
    three groups 3-3-4 joined by the same "-" or "." (an optional "1" before, a dashed extension after), or by
    spaces when area and exchange start 2-9; zero-led groups of 9-15 digits joined by spaces or dashes."""
    plus, cc, one, area, first, sep = (m.group(k) for k in ("plus", "cc", "one", "area", "first", "sep"))
    rest = _PHONE_SEP.pattern.split(m.group("rest"))
    rest_seps = set(_PHONE_SEP.pattern.findall(m.group("rest")))
    head = [g for g in (cc, one, area if area is not None else first) if g]
    groups = tuple(head + rest)
    total = sum(len(g) for g in groups)
    if plus:
        ok = 7 <= total <= 15 and len(groups) >= 2
    elif area is not None:
        tail = "".join(rest)
        ok = (len(area) == 3 and (len(tail) == 7 and len(rest) <= 2 and all(len(g) >= 3 for g in rest)
                                  or len(rest) == 3 and len(rest[0]) == 3 and len(rest[1]) == 4 and "-" in rest_seps)
              or area[0] == "0" and len(area) >= 2 and 6 <= len(tail) <= 8 and len(rest) <= 2 and len(rest_seps) <= 1)
    elif first.startswith("0") and not one:
        ok = sep != "." and "." not in rest_seps and (
            10 <= total <= 11 and len(first) >= 3 and len(rest) <= 2 and all(len(g) >= 3 for g in rest)
            or sep == " " and rest_seps <= {" "} and 9 <= total <= 15 and len(rest) >= 2 and all(len(g) <= 4 for g in rest))
    else:
        shape = [len(first)] + [len(g) for g in rest]
        same = rest_seps <= {sep}
        nanp = shape[:3] == [3, 3, 4] and len(shape) <= 4
        if sep == " ":
            ok = same and shape == [3, 3, 4] and first[0] in "23456789" and rest[0][0] in "23456789"
        else:
            ok = same and nanp and (len(shape) == 3 or sep == "-")
    if not ok or (" " in rest_seps or sep == " ") and _SPACE_DIGIT.match(m.string, m.end()):
        return m.group(0)  # spaced groups that go on with more digits: not a number of these shapes
    return verbalize_telephone(Telephone(groups, plus=bool(plus), toll_free=True))


def _ssn(m: re.Match[str]) -> str:
    return verbalize_telephone(Telephone((m.group(1), m.group(2), m.group(3))))


_VERSION_BEFORE = _Lazy(r"(?i:\b(?:build|version|release|ver|v|firmware|update|patch|rev)\.?) $")


def _ipv4(m: re.Match[str]) -> str:
    """"192.168.1.10" -> "one nine two dot one six eight dot one dot one zero": every group digit by digit
    (not "1.2.3.4" after "version"/"build", nor four one-digit groups, which are version numbers)."""
    groups = m.group(0).split(".")
    if (any(int(g) > 255 or (len(g) > 1 and g[0] == "0") for g in groups) or all(len(g) == 1 for g in groups)
            or _VERSION_BEFORE.search(m.string, max(0, m.start() - 12), m.start())):
        return m.group(0)
    return verbalize_telephone(Telephone(tuple(groups), joiner=" dot "))


def _extension(m: re.Match[str]) -> str:
    return f"{m.group(1)}, extension {digits(m.group(2))}"


# ------------------------------------------------------------------------------------------------ money

_SCALES = {"k": "thousand", "m": "million", "mn": "million", "mm": "million", "b": "billion", "bn": "billion",
           "t": "trillion", "tn": "trillion", "thousand": "thousand", "million": "million", "billion": "billion",
           "trillion": "trillion"}
_PER = {**tables.PER_WORDS, "h": "hour", "d": "day", "wk": "week", "w": "week", "yr": "year", "y": "year",
        "kg": "kilogram", "g": "gram", "l": "liter", "m": "meter", "km": "kilometer", "mi": "mile", "ft": "foot",
        "sqft": "square foot", "gb": "gigabyte", "tb": "terabyte", "mb": "megabyte", "kwh": "kilowatt hour",
        "pp": "person", "pc": "piece", "pcs": "piece", "ea": "each", "mile": "mile", "kilo": "kilo"}


class Money(NamedTuple):
    """An amount of a currency (``symbol`` a key of ``tables.CURRENCIES``): ``whole`` units, ``minor``
    hundredths (None: not written), ``digits`` the decimals when there are more than two (read "point ...");
    ``scale`` ("million") and ``per`` ("hour") if written."""

    symbol: str
    whole: int | None
    minor: int | None = None
    digits: str | None = None
    scale: str | None = None
    per: str | None = None
    negative: bool = False


def verbalize_money(mo: Money, attributive: bool = False) -> str:
    """``Money("$", 20, 50)`` -> ``"twenty dollars and fifty cents"``; ``Money("$", 0, 5)`` -> ``"five cents"``;
    ``Money("¥", 30, scale="billion")`` -> ``"thirty billion yen"``; ``Money("$", 0, 50, per="hour")`` ->
    ``"fifty cents per hour"``; ``Money("$", None, digits="506")`` -> ``"point five zero six dollars"``.
    ``attributive``: the amount qualifies a noun ("a twenty dollar bill", "a five million dollar deal"): the
    unit stays singular (not with cents: "a nine dollars and ninety-nine cents fee")."""
    one, many, minor_one, minor_many = tables.CURRENCIES[mo.symbol]
    if attributive and not mo.minor:
        many = one
    whole = mo.whole or 0
    if mo.digits is not None or mo.scale or (mo.minor and minor_one is None):
        number = cardinal(whole) if mo.whole is not None else ""
        decimals = mo.digits if mo.digits is not None else (f"{mo.minor:02d}".rstrip("0") if mo.minor else "")
        if decimals:
            number = f"{number} point {digits(decimals)}".strip()
        spoken = f"{number} {mo.scale + ' ' if mo.scale else ''}{many}"
    else:
        parts = []
        if whole or not mo.minor:
            parts.append(f"{cardinal(whole)} {one if whole == 1 else many}")
        if mo.minor:
            parts.append(f"{cardinal(mo.minor)} {minor_one if mo.minor == 1 else minor_many}")
        spoken = " and ".join(parts)
    spoken = f"{spoken} per {mo.per}" if mo.per else spoken
    return f"minus {spoken}" if mo.negative else spoken


_CURRENCY = alternation(tables.CURRENCIES)
_SCALE_WORDS = r"thousand|million|billion|trillion|lakh crore|lakh|crore"
# The money class, one grammar: a sign, a currency ("$", "US$", "Rs."), an amount ("12", "1,500", "12.50", ".99",
# "20.5", ".506"), then a scale word or letter ("million", "5M", "¥30 b"), or a rate per unit ("/hr").
_MONEY = (rf"(?=[-−]?(?:[$€£¥₹₩₽]|[A-Z]{{1,3}}\$|Rs))(?:(?<![\w.-])(?P<neg>[-−]))?(?<![A-Za-z$€£¥])(?P<cur>{_CURRENCY}) ?"
          r"(?P<whole>\d{1,3}(?:,\d{3})+|\d{1,9})?(?:\.(?P<dec>\d{1,6}))?"
          rf"(?:(?P<word> ?(?:{_SCALE_WORDS})\b| ?cr(?=\.?(?:\s|$)))|(?P<glued>[KkMmBbTt]n?|bn)(?![A-Za-z])"
          r"|(?P<spaced> (?i:k|mn|m|bn|b|tn|t))\b(?!['’]?\w)|/(?P<per>[A-Za-z]{1,6})\b(?:\.(?=[,;:]))?)?(?![\d/]|[.,]\d)")


_RANGE_BEFORE = _Lazy(r"[\d.KkMmBbn] ?[-–—] ?$")  # "$18-$22": the second end of a range
_RANGE_AFTER = _Lazy(r" ?[-–—] ?[$€£¥]?\d")  # "$5-$10", "$1.5–2 million": the first end


def _money(m: re.Match[str]) -> str:
    """An amount of money, every written form (the money class; ranges "$5-$10" are the range pass's, which runs
    later): "$12.50" -> "twelve dollars and fifty cents", "$.99" -> "ninety-nine cents", "$20.5" (tens of cents),
    "$.506" ("point five zero six dollars"), "$1.5M" / "¥30 b" / "$2.3 billion" (scaled), "$0.5/hr" (a rate),
    "-$15.20" ("minus ..."), "a $20 bill" (singular before the noun it qualifies)."""
    from onestep.frontend.en import money

    cur, whole, decimals = m.group("cur"), m.group("whole"), m.group("dec")
    written_scale = (m.group("word") or m.group("glued") or m.group("spaced") or "").strip().lower()
    per = m.group("per")
    if whole is None and decimals is None:
        return m.group(0)
    if not m.group("neg") and _RANGE_BEFORE.search(m.string, max(0, m.start() - 4), m.start()):
        return m.group(0)  # "$18-$22/hr": the second end of a range, read with the first by the range pass
    if not per and _RANGE_AFTER.match(m.string, m.end()):
        return m.group(0)  # "$5-$10", "$1.5–2 million": the first end of a range
    tail = ""
    per_word = (tables.PER_WORDS.get(per) or _PER.get(per.lower())) if per else None
    if per and per_word is None:
        tail = m.group(0)[m.group(0).rindex("/"):]  # "$5/xyz": not a unit; the amount alone
    scale = tables.SCALES.get(written_scale) or _SCALES.get(written_scale) if written_scale else None
    if written_scale == "cr":
        scale = "crore"
    value = int(whole.replace(",", "")) if whole else None
    names = tables.CURRENCIES[cur]
    attributive = not per_word and money.attributive_at(m.string, m.start(), m.end(), scaled=bool(scale))
    if scale or (decimals is not None and (len(decimals) > 2 or names[2] is None)):
        mo = Money(cur, value, digits=decimals, scale=scale, per=per_word, negative=bool(m.group("neg")))
    else:
        minor = int(decimals.ljust(2, "0")) if decimals else None
        mo = Money(cur, value, minor, per=per_word, negative=bool(m.group("neg")))
    return verbalize_money(mo, attributive) + tail


#: The money class's rule. ``normalize`` runs it after the passes that rewrite European and Swiss number formats
#: ("€2.150,75", "CHF 1'250.00"), so that it sees those amounts too.
MONEY_RULE = rule(_MONEY, _money, *tables.CURRENCY_SIGNS)


# ---------------------------------------------------------------------------------------- units in caps

_CAPS_SPELLED = {"KM/H": "km/h", "M/S": "m/s", "KMH": "km/h", "KM": "km", "KG": "kg", "LBS": "lbs", "LB": "lb", "MG": "mg", "ML": "ml", "CM": "cm",
                 "KW": "kW", "KWH": "kWh", "HRS": "hrs", "HR": "hr", "SEC": "sec", "SECS": "secs",
                 "MIN": "min", "MINS": "mins", "OZ": "oz", "FT": "ft", "MPH": "mph", "KPH": "kph", "HZ": "Hz",
                 "KHZ": "kHz", "MHZ": "MHz", "GHZ": "GHz", "MBPS": "Mbps", "GBPS": "Gbps", "KBPS": "kbps",
                 "MM": "mm", "YDS": "yds", "GAL": "gal", "KJ": "kJ", "KCAL": "kcal", "MW": "MW"}


# units typed with a capital first letter ("40.5 Kg", "12 Km"); not "Mm", "Gb" (other units, or ambiguous)
_TITLE_UNITS = frozenset({"Kg", "Km", "Kms", "Lbs", "Lb", "Ml", "Mph", "Kph", "Kwh", "Kw", "Kcal", "Kmh", "Cm"})
_BYTES_LOWER = {"kb": "KB", "gb": "GB", "tb": "TB", "pb": "PB"}


def _caps_unit(m: re.Match[str]) -> str:
    """"12KG" -> "12 kg", "833LBS" -> "833 lbs", "3 MBPS" -> "3 Mbps": a unit written in capitals after a
    number is the unit (when its capital form is not a unit of its own), for the measure passes to read."""
    written = m.group(2)
    if "/" in written and written.isupper() and written not in _CAPS_SPELLED:
        # "508 GB/S", "5 KG/M": a rate in capitals, each side as its unit ("GB/s", "kg/m")
        base, per = written.split("/")
        base = _CAPS_SPELLED.get(base, base if base in ("GB", "MB", "KB", "TB") else "")
        per = per.lower()
        if base and (base in tables.UNITS) and per in ("s", "h", "m"):
            return f"{m.group(1)} {base}/{per}"
        return m.group(0)
    unit = _CAPS_SPELLED.get(written.upper()) if written.isupper() or written.islower() or written in _TITLE_UNITS \
        else None
    if unit is None and written.islower():
        unit = _BYTES_LOWER.get(written)  # "354gb": storage written in lower case
    known = all(part in tables.UNITS for part in unit.split("/")) if unit else False
    if unit is None or not known and unit not in ("hrs", "hr", "sec", "secs", "min", "mins"):
        return m.group(0)
    if written == unit:
        return m.group(0)
    return f"{m.group(1)} {unit}"


_PER_UNIT = {**{k: v[0] for k, v in tables.UNITS.items() if k.isalpha()}, **tables.PER_WORDS}


def _per_unit(m: re.Match[str]) -> str:
    """"12/kg" -> "twelve per kilogram" (a price or a count per unit, the currency unsaid)."""
    return f"{m.group(1)} per {_PER_UNIT[m.group(2)]}"


_ZONES = frozenset("EST EDT CST CDT MST MDT PST PDT GMT UTC BST CET IST JST AST HST AKST".split())


def _dotted_zone(m: re.Match[str]) -> str:
    """"3 p.m. e.s.t" -> "... E S T": a time zone written with dots, in either casing."""
    letters = "".join(m.group(0).split(".")).upper()
    if letters not in _ZONES:
        return m.group(0)
    end = "." if m.group(0).endswith(".") and re.match(r"\s*$|\s+[A-Z]", m.string[m.end() :]) else ""
    return " ".join(letters) + end


def _meridiem_zone(m: re.Match[str]) -> str:
    """"p.m.est" -> "p.m. E S T": the zone's letters, the meridiem left for the clock passes (no final period:
    a period after the zone ends the sentence, and stays)."""
    return f"{m.group(1)}{m.group(2)}.{m.group(3)}{m.group(4)}. {' '.join(m.group(5).upper())}"


# ------------------------------------------------------------------------------------------------ serial

_SERIAL_GROUPS = _Lazy(r"\d+|[A-Za-z]+")
# shapes that mix letters and digits but have a reading of their own: sizes and relays ("4x100m", "1920x1080"),
# e-notation ("3E5"), clock times ("21h00"), a letter-2-letter pair ("B2B"), hexadecimal ("0x1F"), plurals ("K8s")
_NOT_SERIAL = _Lazy(r"\d+[xX×]\d|\d+[eE]\d+$|\d{1,2}h\d{2}$|[A-Z]2[A-Z]$|0x|.*\d[a-z]?s$|.*[A-Za-z]{3}")


_ELEMENT_COUNT = _Lazy(r"([A-Z][a-z]?)(\d*)")


def _is_formula(written: str) -> bool:
    """"H2SO4", "C6H12O6": element symbols with counts (read by the formula pass)."""
    parts = _ELEMENT_COUNT.pattern.findall(written)
    return "".join(e + n for e, n in parts) == written and all(e in tables.ELEMENTS for e, _ in parts)


def _serial(m: re.Match[str]) -> str:
    """"25d08A" -> "two five d zero eight A", "t-0t25d12-f" -> "t, zero t two five d one two, f": a code of four
    or more letter and digit groups (letters at most two in a row; hyphens between parts are pauses, and then
    one part has three groups or more and no digit run is longer than three) is read character by character
    (NeMo's serial class). Three groups are often names said with numbers ("a16z", "24H2", "Y2K"); chemical
    formulas, sizes, times and plurals are left to their readers."""
    written = m.group(0)
    parts = written.split("-")
    groups = _SERIAL_GROUPS.pattern.findall(written)
    if len(groups) < 4 or any(_NOT_SERIAL.match(p) or _is_formula(p) for p in parts if p):
        return written
    if len(parts) > 1 and (all(len(_SERIAL_GROUPS.pattern.findall(p)) < 3 for p in parts)
                           or any(len(g) > 3 for g in groups if g.isdigit())):
        return written  # "COVID-19", "9am-5pm", "Q1-Q3", "i9-14900K": no part is a code of its own
    return ", ".join(" ".join(digits(g) if g.isdigit() else " ".join(g) for g in _SERIAL_GROUPS.pattern.findall(p))
                     for p in parts)


# ------------------------------------------------------------------------------------------------ roman

_HEADINGS = {"part": "Part", "chapter": "Chapter", "book": "Book", "act": "Act", "scene": "Scene",
             "section": "Section", "volume": "Volume", "vol": "Volume", "phase": "Phase", "level": "Level",
             "episode": "Episode", "season": "Season", "stage": "Stage", "tier": "Tier", "article": "Article",
             "appendix": "Appendix", "psalm": "Psalm", "canto": "Canto", "title": "Title", "round": "Round"}
_HEADING_ANY = rf"(?i:{alternation(sorted(_HEADINGS, key=len, reverse=True))})"


_LETTER_HEADINGS = frozenset({"appendix", "section", "article", "title", "tier", "level", "stage", "round"})
# a lower-case word after a one-letter numeral shows it is a pronoun or a letter ("Chapter I have ..."); "of",
# "and", "to" do not ("Part I of the series", "Books I and II")
_WORD_AFTER = _Lazy(r"\s+(?!(?:of|and|to|or)\b)[a-z]")


def _heading_roman(m: re.Match[str]) -> str:
    """"PART XL" -> "PART forty", "vol. VIII" -> "volume eight", "Chapter iv" -> "Chapter four"."""
    numeral, word = m.group(3), m.group(1)
    value = roman_value(numeral.upper())
    if value is None:
        return m.group(0)
    if len(numeral) == 1 and (numeral not in "IVX" or word.islower() or word.lower() in _LETTER_HEADINGS
                              or _WORD_AFTER.match(m.string, m.end())):
        return m.group(0)  # "in part i think", "the chapter I have", "Appendix C", "Section C": a letter or a word
    word = m.group(1)
    if m.group(2):  # "Vol." -> "Volume": an abbreviated heading is said in full
        word = _HEADINGS[word.lower()] if not word.isupper() else _HEADINGS[word.lower()].upper()
    elif word.lower() == "vol":
        word = "Volume"
    return f"{word} {cardinal(value)}"


_REGNAL = rf"(?:{alternation(tables.REGNAL_NAMES)})"


def _regnal_single(m: re.Match[str]) -> str:
    """"Henry X", "Louis V": a regnal name and a one-letter numeral (longer ones are read by ``_roman``)."""
    value = roman_value(m.group(2))
    return f"{m.group(1)} the {ordinal(value)}" if value else m.group(0)


# ---------------------------------------------------------------------------------------- street address

_COMPASS_WORDS = {"N": "North", "S": "South", "E": "East", "W": "West", "NE": "Northeast", "NW": "Northwest",
                  "SE": "Southeast", "SW": "Southwest"}
_UNIT_WORDS = {"apt": "apartment", "apartment": "apartment", "suite": "suite", "ste": "suite", "unit": "unit",
               "#": "number", "bldg": "building", "fl": "floor", "rm": "room"}
_COMPASS_ANY = r"(?:N|S|E|W|NE|NW|SE|SW|North|South|East|West)"
# house number (with a letter: "221B"), a compass point, one to three name words or an ordinal, a street
# type, a compass point after it, a unit, and a city with a state and a ZIP code; all but the first, the name
# and the type optional.
_ADDRESS = (
    rf"(?=\d)(?<![\w.,$€£¥#/:+-])(?<![Nn]o\. )(?P<num>\d{{1,6}})(?P<letter>[A-Z])? (?:(?P<dir>{_COMPASS_ANY})\.? )?"
    r"(?P<name>(?:[A-Z][a-z]{1,20}|[A-Z]{2,12}(?= [A-Z][a-z])|\d{1,3}(?:st|nd|rd|th)|[A-Z][a-z]{0,3}\.? [A-Z][a-z]{2,20})"
    r"(?: [A-Z][a-z]{1,20}){0,2}) "
    rf"(?P<type>{alternation(sorted(tables.STREET_TYPES, key=len, reverse=True))})\b(?P<dot>\.)?"
    rf"(?: (?P<post>{_COMPASS_ANY})\b\.?)?"
    r"(?:,? (?P<unit>(?i:apt|apartment|suite|ste|unit|bldg|fl|rm)\.?|#) ?(?P<unitno>\d{1,5}[A-Z]?|[A-Z]\d{0,4})\b)?"
    r"(?:, (?P<city>[A-Z][a-z]{1,20}(?: [A-Z][a-z]{1,20}){0,2}),? (?P<state>[A-Z]{2})\b"
    r"(?: (?P<zip>\d{5})(?:-(?P<zip4>\d{4}))?)?)?"
    r"(?![\w-]|[.,]\d)"
)
# a ZIP code after "City, ST" with no street before it ("Springfield, IL 62701")
_CITY_STATE_ZIP = r"(?<=[a-z], )(?P<state>[A-Z]{2}) (?P<zip>\d{5})(?:-(?P<zip4>\d{4}))?(?![\w-]|[.,]\d)"


def house_number(written: str) -> str:
    """A house number as said: up to four digits in pairs ("twelve eleven", "four eighty-one", "forty-one oh
    three", "twelve hundred"), more digit by digit ("one three six five five")."""
    if len(written) > 4 or written[0] == "0":
        return digits(written)
    n = int(written)
    hi, lo = divmod(n, 100)
    if n < 100 or lo == 0 and hi % 10 == 0:
        return cardinal(n)  # "ten", "three hundred", "six thousand"
    if lo == 0:
        return f"{cardinal(hi)} hundred"  # "twelve hundred"
    return f"{cardinal(hi)} {'oh ' + cardinal(lo) if lo < 10 else cardinal(lo)}"


def _state_zip(state: str, zip_code: str | None, zip4: str | None) -> str:
    spoken = tables.US_STATE_NAMES.get(state, state)
    if zip_code:
        spoken += " " + digits(zip_code) + (f", {digits(zip4)}" if zip4 else "")
    return spoken


def _address(m: re.Match[str]) -> str:
    """"2788 San Tomas Expy, Santa Clara, CA 95051" -> "twenty-seven eighty-eight San Tomas Expressway, Santa
    Clara, California nine five zero five one"; "13655 N. 78th St., Apt 4B" -> "one three six five five North
    seventy-eighth Street, apartment four B"."""
    if m.group("state") and m.group("state") not in tables.US_STATE_NAMES:
        return m.group(0)
    name = m.group("name")
    if name in tables.MONTHS or name[:3] in tables.MONTH_BY_ABBREVIATION and name.rstrip(".") in (
            *tables.MONTH_BY_ABBREVIATION, "Sept") or name in tables.WEEKDAYS:
        return m.group(0)  # "12 May St" is more likely a date before a saint's name than a street
    name = re.sub(r"\b(\d{1,3})(?:st|nd|rd|th)\b", lambda o: ordinal(int(o.group(1))), name)
    out = house_number(m.group("num")) + (f" {m.group('letter')}" if m.group("letter") else "")
    if m.group("dir"):
        out += " " + _COMPASS_WORDS.get(m.group("dir"), m.group("dir"))
    out += f" {name} {tables.STREET_TYPES[m.group('type')]}"
    if m.group("post"):
        out += " " + _COMPASS_WORDS.get(m.group("post"), m.group("post"))
    if m.group("unit"):
        unit_no = m.group("unitno")
        spoken_no = re.sub(r"\d+", lambda o: house_number(o.group(0)) + " ", unit_no).strip()
        unit = _UNIT_WORDS[m.group("unit").rstrip(".").lower()]
        out += f", {unit.capitalize() if m.group('unit')[0].isupper() else unit} {spoken_no}"
    if m.group("city"):
        out += f", {m.group('city')}, {_state_zip(m.group('state'), m.group('zip'), m.group('zip4'))}"
    if m.group(0).endswith(".") and ends_sentence(m.string, m.end()):
        out += "."
    return out


def _city_state_zip(m: re.Match[str]) -> str:
    if m.group("state") not in tables.US_STATE_NAMES:
        return m.group(0)
    return _state_zip(m.group("state"), m.group("zip"), m.group("zip4"))


# ------------------------------------------------------------------------------------ slash look-alikes
# A slash between numbers is a fraction, a date, a rate, a score or two years; these are the ones its shape
# and a word before it settle here (the rest are the fraction, date and rating passes').

_RANGE_UNITS = alternation(u for u in tables.UNITS if u != "s")
_SCORE_CUES = r"(?i:scored|scores?|scoring|rated|rating|earned|got|gets|get|marks?|graded)"


def _score(m: re.Match[str]) -> str:
    """"She scored 5/20" -> "five out of twenty": marks out of a total after a scoring word (not "got 3/4 of")."""
    num, den = int(m.group(2)), int(m.group(3))
    if num > den:
        return m.group(0)
    return f"{m.group(1)} {cardinal(num)} out of {cardinal(den)}"


def _years_slash(m: re.Match[str]) -> str:
    """"the 1850/51 season", "born 1536 / 1537": two years; the next year written close "to" (a season, a school
    or fiscal year), another one or a spaced slash "or" (a date known to one of two years)."""
    first, second_written = int(m.group(1)), m.group(2)
    second = int(second_written)
    if len(second_written) == 2:
        if second != (first + 1) % 100:
            return m.group(0)
        return f"{year(first)} to {'oh ' + cardinal(second) if second < 10 else cardinal(second)}"
    if not 0 < abs(second - first) <= 100:
        return m.group(0)
    spaced = " " in m.group(0)  # "1536 / 1537": alternatives; a season is written "2023/2024"
    return f"{year(first)} {'to' if second == first + 1 and not spaced else 'or'} {year(second)}"


# ------------------------------------------------------------------------------------- models, plural

def plural_words(spoken: str) -> str:
    """The plural of a number said in words: "sixteen" -> "sixteens", "twenty" -> "twenties", "six" -> "sixes"."""
    if spoken.endswith("y"):
        return spoken[:-1] + "ies"
    return spoken + ("es" if spoken.endswith(("x", "s")) else "s")


def _model_plural(m: re.Match[str]) -> str:
    """"F-16s" -> "F sixteens", "B-52s" -> "B fifty-twos", "MiG-29s" -> "MiG twenty-nines": the plural of a model
    written with a letter prefix (not "sixteen seconds")."""
    letters = m.group(1)
    said = " ".join(letters) if letters.isupper() else letters
    return f"{said} {plural_words(model_number(m.group(2)))}"


# Words before a number that make "<number>s" the plural of the number used as a name ("the 747s", "their 45s").
_NAME_PLURAL_CUES = frozenset("""
    the these those their its his her our my your some many few several both all old new older newer early late
    two three four five six seven eight nine ten twelve twenty dozen
""".split())
#: Nouns that make "30s" before them a length of time ("a 30s timeout", "the 15s countdown").
SECONDS_NOUNS = ("timeouts?|delays?|pauses?|intervals?|breaks?|rests?|countdowns?|cooldowns?|windows?|warm-ups?"
                 "|holds?|planks?|sprints?|exposures?|timers?|TTL|wait")  # not "ads", "videos": "the 80s ads"


_SECONDS_NOUN_AFTER = re.compile(rf" (?:{SECONDS_NOUNS})\b")


def _compound_duration(m: re.Match[str]) -> str:
    """``"2m 30s"`` -> ``"two minutes thirty seconds"``; ``"1h 30m"``, ``"1 hr 30 mins"`` -> ``"one hour thirty
    minutes"``."""
    hours, minutes, seconds = (m.group(1), m.group(2), m.group(3)) if m.group(2) else (m.group(4), m.group(5), None)
    return duration([(hours, "hour"), (minutes, "minute"), (seconds, "second")])


# Words before "<number>s" that make it seconds even when capitalized ("Wait 15s", "Time: 58s").
_DURATION_CUES = frozenset("""
    wait hold rest took take takes taking lasted lasts last for in after every within under over about around only
    just nearly almost approx time lap split record pace best total duration timer countdown delay interval timeout
""".split())


def _name_plural(m: re.Match[str]) -> str:
    """"the 747s" -> "the seven forty-sevens", "Boeing 737s and 747s", "three 45s": the plural of a number used as
    a name, read as the name is read (in pairs), after a determiner, a count or a capitalized name inside a
    sentence, or after another such plural and "and"/"or". A round number keeps its decade or age reading
    ("the 1990s", "the 20s", "in his 40s"), and seconds keep theirs after a duration word ("hold for 45s")."""
    n = m.group(1)
    if n.endswith("0") or _SECONDS_NOUN_AFTER.match(m.string, m.end()):  # "the 79s countdown": seconds
        return m.group(0)
    text, start = m.string, m.start()
    before = previous_word(text, start)
    chained = re.search(r"(?<![\w.,$-])\d{2,3}s,? (?:and|or|&) $", text[max(0, start - 12) : start])
    if chained and not chained.group(0).split("s")[0].endswith("0"):
        cue = True
    elif before.lower() in _NAME_PLURAL_CUES:
        cue = text[start - len(before) - 1 : start - 1] == before  # one space between them
    else:  # a name before it ("Boeing 737s", "Porsche 911s"), not a word that measures time ("Wait 15s", "Time 58s")
        cue = before[:1].isupper() and not before.isupper() and before.lower() not in _DURATION_CUES \
            and (not at_sentence_start(text, start - len(before) - 1)  # "Sprint 45s, rest 15s": an imperative
                 or before in tables.MODEL_NAMES or before in tables.CAR_MAKES)
    return plural_words(model_number(n)) if cue else m.group(0)


# ------------------------------------------------------------------------------------------------ rules

RULES: list[Rule] = [
    # telephone shapes first: their digit groups must not be read as dates, ranges or numbers
    rule(r"(?<![\w.-])(\d{3})-(\d{2})-(\d{4})(?![\w-]|[.,]\d)", _ssn, "-"),
    rule(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?!\w|\.\d)", _ipv4, "."),
    rule(r"(\d{4}),? (?:x|X|ext\.?|Ext\.?|EXT\.?|extension) ?(\d{1,5})\b(?![.,]\d)", _extension,
         "x", "X", "ext", "Ext", "EXT", "extension"),
    rule(_PHONE, _telephone, " ", ".", "-", "("),
    # an ISBN-13 or its EAN prefix ("978-0-306-40615-7", "978-0"): digit groups, with or without "ISBN" before
    rule(r"(?<![\w.-])97[89](?:(?:-\d{1,7}){2,3}(?:-[\dX])?|-\d{1,2})(?![\w-]|[.,]\d)",
         lambda m: ", ".join(digits(g) if g != "X" else "X" for g in m.group(0).split("-")), "978-", "979-"),
    # street addresses: before dates ("12 May St") and before the number passes read the house number
    rule(_ADDRESS, _address, *sorted({t[:2] for t in tables.STREET_TYPES})),
    rule(_CITY_STATE_ZIP, _city_state_zip, ", "),
    # money the money passes misread: one or 3+ decimals, a scale after a space, a rate per unit
    # "26 - 55%", "5 - 10 kg": a spaced dash between two numbers before a unit is a range (not in an equation)
    rule(rf"(?<![\w.,-])(\d{{1,4}}(?:\.\d{{1,3}})?) [-–] (\d{{1,4}}(?:\.\d{{1,3}})?)(?= ?(?:%|(?:{alternation(tables.UNITS)})\b))",
         lambda m: m.group(0) if "=" in m.string else f"{m.group(1)} to {m.group(2)}", " - ", " – "),
    # "2m 30s", "1h 30m", "10h30m": a duration in units of time, not meters nor an identifier
    # "2 hrs 05 mins", "10 min 05 s": the same with spaces and longer unit names
    rule(r"(?<![\w.,])(?:(\d{1,3}) ?(?:h|hrs?)\.? ?)?(\d{1,3}) ?(?:m|mins?)\.? ?(\d{1,2}) ?(?:s|secs?)\b"
         r"|(?<![\w.,])(\d{1,3}) ?(?:h|hrs?)\.? ?(\d{1,2}) ?(?:m|mins?)\b(?! ?\d)",
         _compound_duration, "m"),
    # "F-16s", "B-52s", "MiG-29s": a model's plural, not seconds
    rule(r"(?<![\w./-])([A-Z][A-Za-z]{0,3})-(\d{1,4})s(?![\w'’-])", _model_plural, "s"),
    # "the 747s", "Boeing 737s and 747s": a number used as a name, in the plural (not seconds)
    rule(r"(?<![\w./$€£¥#:,-])(\d{2,3})s(?![\w'’-])", _name_plural, "s"),
    # slash look-alikes: a score after a scoring word, two years
    rule(rf"\b({_SCORE_CUES}) (\d{{1,4}})/(\d{{1,4}})(?![\w/]|[.,]\d| of\b|-\w)", _score, "/"),
    rule(rf"(?<![\w./$€£¥-])({_YEAR_NUMBER}) ?/ ?(\d{{4}}|\d{{2}})(?![\w/]|[.,]\d)", _years_slash, "/"),
    # ranges: "36~53 days" (a tilde between two numbers: "to", not "about"), "34kg-61kg" (the unit on both ends;
    # not "s": "1960s–70s" is two decades)
    rule(r"(?<![\w.,~-])(\d{1,9}(?:\.\d{1,6})?)( ?%| ?[A-Za-z°µ]{1,4}(?:/[A-Za-z]{1,3})?)? ?[~～] ?(?=[$€£¥]?\d)",
         lambda m: f"{m.group(1)}{m.group(2) or ''} to ", "~", "～"),
    rule(rf"(?<![\w.,-])(\d{{1,9}}(?:\.\d{{1,6}})?) ?({_RANGE_UNITS}|%) ?[-–] ?(\d{{1,9}}(?:\.\d{{1,6}})?) ?\2(?![\w/])",
         lambda m: f"{m.group(1)} {m.group(2)} to {m.group(3)} {m.group(2)}", "-", "–"),
    # dates with a month name, either order, any casing
    Rule(rf"(?<![\w.-])(?P<day>\d{{1,2}})-(?P<mon>{_MONTH_WORD})-(?P<year>\d{{4}}|\d{{2}})(?![\w-]|[.,]\d)",
         lambda m: _dashed_date(m, True), _MONTH_TRIGGERS, lower=True),
    Rule(rf"(?<![\w.-])(?P<mon>{_MONTH_WORD})-(?P<day>\d{{1,2}})-(?P<year>\d{{4}}|\d{{2}})(?![\w-]|[.,]\d)",
         lambda m: _dashed_date(m, False), _MONTH_TRIGGERS, lower=True),
    Rule(_DATE_DAY_FIRST, lambda m: _date(m, True), _MONTH_TRIGGERS, lower=True),
    Rule(_DATE_MONTH_FIRST, lambda m: _date(m, False), _MONTH_TRIGGERS, lower=True),
    # years and decades
    rule(rf"(?<![\w.,$€£¥-])({_YEAR_NUMBER}) (to|through|until|till) ({_YEAR_NUMBER}){_YEAR_END}", _year_span, " to ",
         " through ", " until ", " till "),
    rule(rf"(?<![\w./$€£¥])(\d{{1,6}}(?:\.\d{{1,3}})?)/({alternation(_PER_UNIT)})\b(?![/.]?\w)", _per_unit, "/"),
    rule(r"(?<=[MmTt.] )[A-Za-z]\.[A-Za-z]\.[A-Za-z](?:\.[A-Za-z])?\.?(?!\w)", _dotted_zone, "."),
    # "1:59 p.m. est", "1:59 p.m.est", "9 am pst": a time zone after a meridiem, in any casing, said as letters
    rule(rf"(?<=\d)( ?)([AaPp])\.?( ?)([Mm])\.? ?({alternation(sorted(_ZONES, key=len, reverse=True))})\b(?![.'’]?\w)",
         _meridiem_zone, "m", "M", flags=re.IGNORECASE),
    # units written in capitals after a number
    rule(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d{1,6})?|\d{1,9}(?:\.\d{1,6})?) ?([A-Za-z]{2,4}|[A-Za-z]{1,3}/[A-Za-z])\b"
         r"(?![/.]?\w)", _caps_unit),
    # alphanumeric serials ("25d08A", "C24D7"): character by character
    rule(r"(?<![\w.'’-])(?=[A-Za-z]{0,2}\d|[A-Za-z]{1,2}-\d)(?=[\d-]*[A-Za-z])[A-Za-z0-9]{1,24}(?:-[A-Za-z0-9]{1,24}){0,4}"
         r"(?![\w'’]|-\w)", _serial),
    rule(r"(?<=\d)( ?)°([cf])\b", lambda m: f"{m.group(1)}°{m.group(2).upper()}", "°c", "°f", "° c", "° f"),
]

# Passes that need no digit in the text (run among the early passes).
WORD_RULES: list[Rule] = [
    # roman numerals after a heading word, in any casing
    Rule(rf"\b({_HEADING_ANY})(\.)? ([IVXLCivxlc]{{1,7}})\b(?![.'’]?\w)", _heading_roman, tuple(_HEADINGS),
         lower=True),
    rule(rf"\b({_REGNAL}) ([VX])\b(?![.'’]?\w)", _regnal_single, " V", " X"),  # not "I": "Mary I called you"
    # "A/C", "I/O", "N/A", "A/B testing": two single capitals joined by a slash are said as letters
    rule(r"(?<![\w/])([A-Z])/([A-Z])(?![\w/])", lambda m: f"{m.group(1)} {m.group(2)}", "/"),
    # "c/o Jane Doe": care of (a slash look-alike of the address line)
    rule(r"(?<![\w/])([Cc])/[Oo](?= )", lambda m: "care of" if m.group(1) == "c" else "Care of", "c/o", "C/O", "c/O", "C/o"),
]
