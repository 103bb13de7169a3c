"""Semiotic classes of English text: classify a span, then verbalize it (the NeMo / Sparrowhawk split).

Each class here is a pattern that finds its spans in *every common written form* (month names in any casing
and abbreviation, day-month and month-day order, ``.``/``-``/``/`` separators, ...), a parser that turns a
match into a small typed value (:class:`Date`, :class:`Telephone`, ...) and a verbalizer that reads the value.
The shape of the text decides the class; a few context words settle what the shape alone cannot (a bare
1100-2099 number after "in/since/by/from", or standing alone, is a year). The rules run first among the
number passes of :mod:`onestep.frontend.en.normalize`, so a span classified here is read here and no later
surface rule sees it; what they do not claim is left to those passes.

Classes handled here: dates with a month name, years and decades, telephone-shaped digit groups (incl. SSN
3-2-4, dotted IPv4, extensions), money with one decimal or a rate, units written in capitals, and roman
numerals after heading words (case-insensitive). docs/FRONTEND.md lists where the readings differ from NeMo's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from onestep.frontend.en import tables
from onestep.frontend.en.numbers import cardinal, digits, ordinal, roman_value, year
from onestep.frontend.en.rules import Rule, alternation, rule

# ------------------------------------------------------------------------------------------ month names

_MONTH_KEYS: dict[str, int] = {}
for _i, _m in enumerate(tables.MONTHS, 1):
    _MONTH_KEYS[_m.lower()] = _i
    _MONTH_KEYS[_m[:3].lower()] = _i
_MONTH_KEYS["sept"] = 9
# any casing; an abbreviation may carry a period ("SEPT.", "jan.")
_MONTH_ANY = rf"(?i:{alternation(sorted(_MONTH_KEYS, key=len, reverse=True))})(?![A-Za-z])\.?"
_WEEKDAY_KEYS = {d.lower(): d for d in tables.WEEKDAYS} | {d[:3].lower(): d for d in tables.WEEKDAYS} | {
    "tues": "Tuesday", "thur": "Thursday", "thurs": "Thursday", "weds": "Wednesday"}
_WEEKDAY_ANY = rf"(?i:{alternation(sorted(_WEEKDAY_KEYS, key=len, reverse=True))})(?![A-Za-z])\.?"
_SUFFIX = r"(?i:st|nd|rd|th)"
# lowercase words that are also month names: a date only with a day and no verb-like word after it
_WORD_MONTHS = frozenset({"may", "march", "mar"})
_VERB_AFTER = re.compile(r" (?:be|have|not|also|still|never|only|well|need|take|get|make|go|come|help|cause|seem|"
                         r"vary|change|apply|include|require|on|through|past|into|across|towards?|down|up|off|"
                         r"forward|ahead|in|out|away|along|back|again)\b")


def month_number(written: str) -> int | None:
    """``"SEPT."`` -> 9, ``"january"`` -> 1; None for anything else."""
    return _MONTH_KEYS.get(written.rstrip(".").lower())


@dataclass(frozen=True)
class Date:
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
    rf"(?:(?P<day>\d{{1,2}}){_SUFFIX}?(?!\d|[:.,/]\d| ?[-–—]| ?%)(?:,? (?P<year>\d{{4}})(?![\w:/-]|[.,]\d))?"
    rf"|(?P<year2>\d{{4}})(?![\w:/-]|[.,]\d))"
)
_DATE_DAY_FIRST = (
    rf"(?<![\w.,/–—-])(?<![–—-] )(?:(?P<wd>{_WEEKDAY_ANY}),? )?(?P<day>\d{{1,2}}){_SUFFIX}?(?: of)? (?P<mon>{_MONTH_ANY})"
    rf"(?:,? (?P<year>\d{{4}})(?![\w:/-]|[.,]\d))?"
)


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
    if bare.islower() and bare in _WORD_MONTHS and not y and _VERB_AFTER.match(after):
        return m.group(0)  # "item 5 may be late", "the 3 march on": a verb or a noun, not a month
    if not bare.islower() and not bare.isupper() and not bare[0].isupper():
        return m.group(0)  # "mAy": no casing anyone writes a month in
    if day is None and not y:
        return m.group(0)
    wd = m.group("wd")
    weekday = _WEEKDAY_KEYS[wd.rstrip(".").lower()] if wd else None
    after_the = re.search(r"\b[Tt]he $", m.string[max(0, m.start() - 4) : m.start()]) is not None
    spoken = verbalize_date(Date(mon, day, int(y) if y else None, day_first, weekday), after_the)
    if m.group(0).endswith(".") and re.match(r"\s*$|\s+[A-Z]", m.string[m.end() :]):
        spoken += "."  # "on 12 Jan." at the end of a sentence keeps its full stop
    return spoken


# --------------------------------------------------------------------------------------- years, decades

_YEAR_CUES = "in|since|by|from|until|till|before|after|circa|around|during|of"
_YEAR_NOUN_AFTER = re.compile(r" (?:[a-z]+s|people|feet|foot|meters|miles|votes|points|times|units|items|"
                              r"copies|dollars|euros|pounds|yen|per|percent|of|x)\b")
_YEAR_NUMBER = r"(?:1[1-9]\d\d|20\d\d)"
_YEAR_END = r"(?![\w:/%°'’-]|[.,]\d)"


def _cued_year(m: re.Match[str]) -> str:
    """"in 1975", "since 2012", "by 1408": a year, unless a counted noun follows ("by 1500 votes"); a second
    year joined to it ("from 1861 to 1865", "in 1903 and 1911") is a year too."""
    if _YEAR_NOUN_AFTER.match(m.string, m.end()):
        return m.group(0)
    spoken = f"{m.group(1)} {year(int(m.group(2)))}"
    if m.group(4):
        joiner = m.group(3).strip()
        spoken += f" {'to' if joiner in '-–—' else joiner} {year(int(m.group(4)))}"
    return spoken


def _lone_year(m: re.Match[str]) -> str:
    return year(int(m.group(1))) + m.group(2)


def _spaced_decade(m: re.Match[str]) -> str:
    """"the 1980 s" -> "the nineteen eighties" (a decade with a stray space before its s)."""
    from onestep.frontend.en.numbers import plural

    return f"{m.group(1)} {plural(year(int(m.group(2))))}"


# ------------------------------------------------------------------------------------------- telephone


@dataclass(frozen=True)
class Telephone:
    """Digit groups read digit by digit, in order; ``extension`` if any; ``joiner`` between the groups
    (", " for a phone or an ID, " dot " for an IP address)."""

    groups: tuple[str, ...]
    extension: str | None = None
    joiner: str = ", "


def verbalize_telephone(t: Telephone) -> str:
    """``Telephone(("123", "45", "6789"))`` -> ``"one two three, four five, six seven eight nine"``."""
    spoken = t.joiner.join(digits(g) for g in t.groups)
    if t.extension:
        spoken += f", extension {digits(t.extension)}"
    return spoken


def _ssn(m: re.Match[str]) -> str:
    return verbalize_telephone(Telephone((m.group(1), m.group(2), m.group(3))))


_VERSION_BEFORE = re.compile(r"(?i:\b(?:build|version|release|ver|v|firmware|update|patch|rev)\.?) $")


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

_CURRENCY = {"$": ("dollar", "dollars", "cent", "cents"), "€": ("euro", "euros", "cent", "cents"),
             "£": ("pound", "pounds", "penny", "pence")}


@dataclass(frozen=True)
class Money:
    """An amount: whole units and hundredths of a currency, and what it is per, if anything."""

    symbol: str
    whole: int
    cents: int
    per: str | None = None


def verbalize_money(mo: Money) -> str:
    """``Money("$", 20, 50)`` -> ``"twenty dollars and fifty cents"``; ``Money("$", 0, 5)`` -> ``"five cents"``."""
    one, many, c_one, c_many = _CURRENCY[mo.symbol]
    parts = []
    if mo.whole or not mo.cents:
        parts.append(f"{cardinal(mo.whole)} {one if mo.whole == 1 else many}")
    if mo.cents:
        parts.append(f"{cardinal(mo.cents)} {c_one if mo.cents == 1 else c_many}")
    spoken = " and ".join(parts)
    return f"{spoken} per {mo.per}" if mo.per else spoken


_SCALE_AFTER = re.compile(r" ?(?:[KkMmBbTt]n?|thousand|million|billion|trillion|mn|bn)\b| ?[-–—] ?\d")


def _one_decimal(m: re.Match[str]) -> str:
    """"$20.5" -> "twenty dollars and fifty cents" (one decimal of an amount is tens of cents); not before a
    scale ("$1.5M", "$2.5 billion"), which the money passes read as "one point five million dollars"."""
    if _SCALE_AFTER.match(m.string, m.end()):
        return m.group(0)
    return verbalize_money(Money(m.group(1), int(m.group(2).replace(",", "")), int(m.group(3)) * 10))


_RATE_UNITS = {"kg": "kilogram", "lb": "pound", "g": "gram", "oz": "ounce", "l": "liter", "m": "meter",
               "km": "kilometer", "mi": "mile", "ft": "foot", "sqft": "square foot", "gb": "gigabyte",
               "unit": "unit", "item": "item", "person": "person", "pp": "person", "head": "head", "night": "night",
               "user": "user", "seat": "seat", "page": "page", "word": "word", "piece": "piece", "pc": "piece"}


def _rate(m: re.Match[str]) -> str:
    """"£98/kg" -> "ninety-eight pounds per kilogram" (a price per unit of a thing; per-time rates are read by
    the money passes)."""
    per = _RATE_UNITS.get(m.group(4).lower())
    if per is None:
        return m.group(0)
    cents = int((m.group(3) or "0").ljust(2, "0")) if m.group(3) else 0
    return verbalize_money(Money(m.group(1), int(m.group(2).replace(",", "")), cents, per))


# ---------------------------------------------------------------------------------------- units in caps

_UNIT_BY_LOWER: dict[str, str] = {}
for _u in tables.UNITS:
    _UNIT_BY_LOWER.setdefault(_u.lower(), _u)
_UNIT_BY_LOWER.update({"hrs": "hrs", "hr": "hr", "sec": "sec", "secs": "secs", "min": "min", "mins": "mins"})
# capitals that are units or common initialisms themselves: never re-cased
_KEEP_CAPS = frozenset({"MM", "M", "G", "T", "K", "C", "F", "B", "MB", "GB", "TB", "KB", "PB", "MPH", "KPH",
                        "AM", "PM", "BC", "AD", "CE", "BCE", "AC", "DC", "HP", "PS", "ST", "MI", "FT", "IN", "OZ",
                        "L", "V", "W", "A", "J", "N", "S", "H", "MS", "MIN", "NM", "PT", "MG", "CM", "GM", "CT",
                        "LB", "YD", "GAL", "QT", "HZ", "KM"})
_CAPS_SPELLED = {"KM": "km", "KG": "kg", "LBS": "lbs", "LB": "lb", "MG": "mg", "ML": "ml", "CM": "cm",
                 "KW": "kW", "KWH": "kWh", "HRS": "hrs", "HR": "hr", "SEC": "sec", "SECS": "secs",
                 "MIN": "min", "MINS": "mins", "OZ": "oz", "FT": "ft", "MPH": "mph", "KPH": "kph", "HZ": "Hz",
                 "KHZ": "kHz", "MHZ": "MHz", "GHZ": "GHz", "MBPS": "Mbps", "GBPS": "Gbps", "KBPS": "kbps",
                 "MM": "mm", "YDS": "yds", "GAL": "gal", "KJ": "kJ", "KCAL": "kcal", "MW": "MW"}


def _caps_unit(m: re.Match[str]) -> str:
    """"12KG" -> "12 kg", "833LBS" -> "833 lbs", "3 MBPS" -> "3 Mbps": a unit written in capitals after a
    number is the unit (when its capital form is not a unit of its own), for the measure passes to read."""
    written = m.group(2)
    unit = _CAPS_SPELLED.get(written.upper()) if written.isupper() or written.islower() else None
    if unit is None or unit not in tables.UNITS and unit not in ("hrs", "hr", "sec", "secs", "min", "mins"):
        return m.group(0)
    if written == unit:
        return m.group(0)
    return f"{m.group(1)} {unit}"


# ------------------------------------------------------------------------------------------------ roman

_HEADINGS = {"part": "Part", "chapter": "Chapter", "book": "Book", "act": "Act", "scene": "Scene",
             "section": "Section", "volume": "Volume", "vol": "Volume", "phase": "Phase", "level": "Level",
             "episode": "Episode", "season": "Season", "stage": "Stage", "tier": "Tier", "article": "Article",
             "appendix": "Appendix", "psalm": "Psalm", "canto": "Canto", "title": "Title", "round": "Round"}
_HEADING_ANY = rf"(?i:{alternation(sorted(_HEADINGS, key=len, reverse=True))})"


def _heading_roman(m: re.Match[str]) -> str:
    """"PART XL" -> "PART forty", "vol. VIII" -> "volume eight", "Chapter iv" -> "Chapter four"."""
    value = roman_value(m.group(3).upper())
    if value is None or (m.group(3).islower() and len(m.group(3)) == 1):  # "in part i think"
        return m.group(0)
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


# ------------------------------------------------------------------------------------------------ rules

RULES: list[Rule] = [
    # telephone shapes first: their digit groups must not be read as dates, ranges or numbers
    rule(r"(?<![\w.-])(\d{3})-(\d{2})-(\d{4})(?![\w-]|[.,]\d)", _ssn, "-"),
    rule(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?!\w|\.\d)", _ipv4, "."),
    rule(r"(\d{4}),? (?:x|X|ext\.?|Ext\.?|EXT\.?|extension) ?(\d{1,5})\b(?![.,]\d)", _extension,
         "x", "X", "ext", "Ext", "EXT", "extension"),
    # money with one decimal, a price per unit of a thing
    rule(r"([$€£])(\d{1,3}(?:,\d{3})+|\d{1,9})\.(\d)(?![\d.,]\d|\d)", _one_decimal, "$", "€", "£"),
    rule(r"([$€£])(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?/([A-Za-z]{1,6})\b(?!/)", _rate, "/"),
    # "26 - 55%", "5 - 10 kg": a spaced dash between two numbers before a unit is a range (not in an equation)
    rule(rf"(?<![\w.,-])(\d{{1,4}}(?:\.\d{{1,3}})?) [-–] (\d{{1,4}}(?:\.\d{{1,3}})?)(?= ?(?:%|(?:{alternation(tables.UNITS)})\b))",
         lambda m: m.group(0) if "=" in m.string else f"{m.group(1)} to {m.group(2)}", " - ", " – "),
    # dates with a month name, either order, any casing
    rule(_DATE_DAY_FIRST, lambda m: _date(m, True)),
    rule(_DATE_MONTH_FIRST, lambda m: _date(m, False)),
    # years and decades
    rule(r"(?<![\w.,'’])((?i:the)) (1[1-9]\d0|20\d0) s\b(?!['’])", _spaced_decade, " s"),
    rule(rf"\b({_YEAR_CUES}|{'|'.join(w.capitalize() for w in _YEAR_CUES.split('|'))}) ({_YEAR_NUMBER})"
         rf"{_YEAR_END}(?:( ?(?:[-–—]|to|and|or|through|until|till) ?)({_YEAR_NUMBER}){_YEAR_END})?", _cued_year),
    rule(rf"^({_YEAR_NUMBER})([.!?]?)$", _lone_year),
    # units written in capitals after a number
    rule(r"(?<![\w.])(\d{1,3}(?:,\d{3})+(?:\.\d{1,6})?|\d{1,9}(?:\.\d{1,6})?) ?([A-Za-z]{2,4})\b(?![/.]?\w)",
         _caps_unit),
]

# Passes that need no digit in the text (run among the early passes).
WORD_RULES: list[Rule] = [
    # roman numerals after a heading word, in any casing
    rule(rf"\b({_HEADING_ANY})(\.)? ([IVXLCivxlc]{{1,7}})\b(?![.'’]?\w)", _heading_roman),
    rule(rf"\b({_REGNAL}) ([VX])\b(?![.'’]?\w)", _regnal_single),  # not "I": "Mary I called you"
]
