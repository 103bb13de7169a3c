"""Number-bearing spans of languages that write Western digits before their units: Spanish, French, Italian,
Brazilian Portuguese and Hindi.

One :class:`NumericLang` record per language holds its words (months, currencies, units, abbreviations, how it
reads a time or a date) and its number readers; :func:`build_rules` turns a record into the ordered
:class:`~onestep.frontend.norm_common.SpanRule` list every one of these languages shares:

    abbreviations, dates with a month name, numeric dates (d/m/y, ISO y-m-d), times, phone-like digit groups,
    money (symbol or code before or after the amount), percentages, measures (number + unit symbol),
    ordinals (1º, 2ª, 1er, 2e), ranges (10-20), plain numbers (negative, decimal, grouped thousands).

Who reads what: cardinals and ordinals of es, fr, it and pt_BR come from ``num2words`` (with the fixes each
language module applies, e.g. Spanish "veintiún mil"); Hindi has its own reader (``onestep.frontend.hi.numbers``:
num2words 0.5.14 has no Hindi). Everything around the numbers (which span is a date, which words a unit takes,
gender and plural agreement) is this module and the language records.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import regex

from onestep.frontend.norm_common import SpanRule, apply_rules, clean

_MAX_DIGITS = 15  # longer digit strings are read digit by digit


@dataclass(frozen=True)
class Currency:
    """How one currency is read: unit singular/plural, cent singular/plural, grammatical gender."""

    one: str
    many: str
    cent_one: str
    cent_many: str
    feminine: bool = False


@dataclass(frozen=True)
class Unit:
    """A unit symbol's words: singular, plural, feminine (for the agreement of "un/una", "um/uma")."""

    one: str
    many: str
    feminine: bool = False


@dataclass(frozen=True)
class NumericLang:
    """Everything :func:`build_rules` needs to know about one language.

    Attributes:
        code: language code (``"es"``).
        cardinal: int >= 0 -> words (the default, masculine or neutral, form).
        agree: (number words, n, feminine, before_noun) -> words agreeing with what follows (``"uno"`` ->
            ``"un"``/``"una"``); identity where the language needs none.
        ordinal: (n >= 1, feminine) -> words.
        feminine_noun: a following word -> is it (probably) feminine; used for agreement.
        plural: the number as written (e.g. ``"1,5"``) -> does the noun after it take the plural.
        months: the twelve month names as read.
        month_aliases: lower-case written forms (abbreviations, spelling variants) -> month number 1..12.
        day: day of month -> words (``1`` -> ``"primero"`` in Spanish).
        year: year -> words.
        date: (day words, month name, year words or "") -> the date as read.
        time: (hours, minutes) -> words.
        h_times: "9h30", "14h" are clock times (French, Portuguese) rather than durations.
        decimal_comma, decimal_point: words read for "," and "." as decimal separators.
        thousands: characters that group thousands besides "." (e.g. space for French).
        indian_grouping: "," groups digits (1,00,000) and "." is the decimal point (Hindi).
        minus, plus, percent, range_word, and_word: those words.
        function_words: words after a number that are no noun to agree with ("al", "de").
        fraction: (numerator, denominator) -> words for a simple fraction (3/4), or None to leave it.
        half: feminine -> the word for 1/2 before a noun ("medio kilo", "media hora").
        agree_grouped: ``agree`` also applies to numbers written with thousands separators (Hindi: 1,200 is
            एक हज़ार दो सौ while a bare 1200 is बारह सौ).
        times_word: the word read for "x"/"×" between numbers (4x100, 3 × 4); "" = none.
        digits_by_pairs: phone numbers read in pairs (French "zéro six, douze") rather than digit by digit.
        currencies: symbol or code as written -> :class:`Currency`.
        money_join: word between units and cents (``"con"``); "" for none.
        million_of: the word after a round million before a noun (``"de"``), or a callable of the noun.
        units: unit symbol as written -> :class:`Unit`.
        ordinal_suffixes: written suffix -> (feminine, short form) for ordinals like ``1º``, ``2ª``, ``1er``.
        short_ordinal: n -> short masculine ordinal (Spanish "primer", "tercer"); None = full form.
        abbreviations: written form -> words, anywhere as a word.
        titles: written form -> words, only before a capitalized word ("M. Dupont").
        fix_digits: a 1:1 character translation applied first (Devanagari digits -> ASCII).
        frac_by_digits: decimals' fractional part read digit by digit (Hindi) rather than as a number.
        time_tail: a pattern after a clock time that its reading already says (Hindi "बजे").
    """

    code: str
    cardinal: Callable[[int], str]
    ordinal: Callable[[int, bool], str]
    months: tuple[str, ...]
    date: Callable[[str, str, str], str]
    time: Callable[[int, int], str]
    decimal_comma: str
    decimal_point: str
    minus: str
    plus: str
    percent: str
    range_word: str
    and_word: str
    currencies: Mapping[str, Currency]
    money_join: str
    units: Mapping[str, Unit]
    agree: Callable[[str, int, bool, bool], str] = lambda w, n, fem, noun: w
    feminine_noun: Callable[[str], bool] = lambda w: False
    plural: Callable[[str], bool] = lambda s: s != "1"
    month_aliases: Mapping[str, int] = field(default_factory=dict)
    day: Callable[[int], str] | None = None
    year: Callable[[int], str] | None = None
    h_times: bool = False
    thousands: str = ""
    indian_grouping: bool = False
    digits_by_pairs: bool = False
    million_of: str | Callable[[str], str] = ""
    ordinal_suffixes: Mapping[str, tuple[bool, bool]] = field(default_factory=dict)
    short_ordinal: Callable[[int], str] | None = None
    abbreviations: Mapping[str, str] = field(default_factory=dict)
    titles: Mapping[str, str] = field(default_factory=dict)
    fix_digits: Mapping[int, int] = field(default_factory=dict)
    frac_by_digits: bool = False
    time_tail: str = ""
    function_words: frozenset[str] = frozenset()
    fraction: Callable[[int, int], str | None] | None = None
    half: Callable[[bool], str] | None = None
    times_word: str = ""
    agree_grouped: bool = True


@dataclass(frozen=True)
class Number:
    """A parsed written number: sign, integer digits, fractional digits, which decimal separator."""

    negative: bool
    integer: str
    fraction: str = ""
    point: bool = False  # "." rather than "," separated the fraction
    code: bool = False  # 10+ digits written without grouping: an ID or phone number, read digit by digit
    grouped: bool = False  # written with thousands separators (1,200)

    @property
    def value(self) -> float:
        v = float(f"{self.integer}.{self.fraction or '0'}")
        return -v if self.negative else v


_NEXT_SENTENCE = regex.compile(r"\s*(?:$|\n|\s\p{Lu})")


def _ends_sentence(m: regex.Match[str]) -> bool:
    """The abbreviation's dot also ends the sentence: end of text, a line break, or a capital after a space."""
    return bool(_NEXT_SENTENCE.match(m.string, m.end()))


def _alt(keys: object) -> str:
    return "|".join(regex.escape(k) for k in sorted(keys, key=len, reverse=True))  # type: ignore[arg-type]


class Normalizer:
    """A language's normalizer: ``Normalizer(spec)(text) -> text``; also ``spans(text)`` for offsets."""

    def __init__(self, spec: NumericLang):
        self.spec = spec
        s = spec
        if s.indian_grouping:
            num = r"\d{1,3}(?:,\d{2,3})+(?:\.\d+)?|\d+(?:\.\d+)?"
        else:
            sep = "[." + regex.escape(s.thousands) + "\u00a0\u202f]"
            num = rf"\d{{1,3}}(?:{sep}\d{{3}})+(?:,\d+)?(?!\d)|\d+,\d+|\d+(?:\.\d+)?"
        self._num = num
        self.rules: list[SpanRule] = self._build()

    # ---- number readers -------------------------------------------------------------------------------
    def parse(self, text: str) -> Number:
        neg = text[:1] in "-−"
        t = text.lstrip("-−").strip()
        if t.isdigit() and len(t) >= 10:
            return Number(neg, t, code=True)
        if self.spec.indian_grouping:
            i, _, f = t.replace(",", "").partition(".")
            return Number(neg, i, f, True, grouped="," in t)
        if "," in t:
            i, _, f = t.partition(",")
            return Number(neg, regex.sub(r"\D", "", i), f, False)
        if regex.fullmatch(r"\d{1,3}(?:\.\d{3})+", t):
            return Number(neg, t.replace(".", ""))
        i, _, f = t.partition(".")
        return Number(neg, regex.sub(r"\D", "", i), f, True)

    def digits(self, ds: str) -> str:
        return " ".join(self.spec.cardinal(int(d)) for d in ds)

    def integer(self, ds: str) -> str:
        if len(ds) > _MAX_DIGITS or (len(ds) > 1 and ds.startswith("0")):
            return self.digits(ds)
        return self.spec.cardinal(int(ds))

    def fraction(self, ds: str) -> str:
        if self.spec.frac_by_digits or len(ds) > 3:
            return self.digits(ds)
        zeros = len(ds) - len(ds.lstrip("0"))
        rest = ds[zeros:]
        return " ".join([self.spec.cardinal(0)] * zeros + ([self.spec.cardinal(int(rest))] if rest else []))

    def number(self, n: Number, feminine: bool = False, before_noun: bool = False) -> str:
        s = self.spec
        if n.fraction:
            words = (f"{self.integer(n.integer)} {s.decimal_point if n.point else s.decimal_comma} "
                     f"{self.fraction(n.fraction)}")
        else:
            words = self.digits(n.integer) if n.code else self.integer(n.integer)
            plain = not n.code and len(n.integer) <= _MAX_DIGITS and not (len(n.integer) > 1 and n.integer[0] == "0")
            if plain and (s.agree_grouped or not n.grouped):
                words = s.agree(words, int(n.integer), feminine, before_noun)
        return f"{s.minus} {words}" if n.negative else words

    def _plural(self, written: str) -> bool:
        return self.spec.plural(written.lstrip("-−"))

    # ---- the rules ----------------------------------------------------------------------------------------
    def _build(self) -> list[SpanRule]:
        s, num = self.spec, self._num
        rules: list[SpanRule] = []
        L = r"\p{L}\p{M}"

        def add(name: str, pattern: str, fn: Callable[[regex.Match[str]], str | None], flags: int = 0) -> None:
            rules.append(SpanRule(name, regex.compile(pattern, flags | regex.VERSION1), fn))

        if s.titles:
            add("title", rf"(?<![{L}\d.])(?:{_alt(s.titles)})(?=\s+\p{{Lu}})", lambda m: s.titles[m[0]])
        if s.abbreviations:
            add("abbreviation", rf"(?<![{L}\d])(?:{_alt(s.abbreviations)})(?![{L}\d])",
                lambda m: s.abbreviations[m[0]] + ("." if m[0].endswith(".") and _ends_sentence(m) else ""))

        month_forms = {name.lower(): i + 1 for i, name in enumerate(s.months)} | dict(s.month_aliases)
        ord_suffix = _alt(s.ordinal_suffixes) if s.ordinal_suffixes else "(?!)"

        def day_words(d: int) -> str:
            return s.day(d) if s.day else s.cardinal(d)

        def year_words(y: int) -> str:
            return s.year(y) if s.year else s.cardinal(y)

        def named_date(m: regex.Match[str]) -> str | None:
            d = int(m["d"])
            month = month_forms.get(m["m"].lower().rstrip("."))
            if month is None or not 1 <= d <= 31:
                return None
            said = s.date(day_words(d), s.months[month - 1], year_words(int(m["y"])) if m["y"] else "")
            # "ene." is an abbreviation's dot; after a full month name with no year the dot ends the sentence
            full = m["m"].lower() in {name.lower() for name in s.months}
            return said + "." if m["dot"] and full and not m["y"] else said

        add("date", rf"(?<![\d.,])(?P<d>\d{{1,2}})(?:{ord_suffix})?\s+(?:de\s+)?(?P<m>{_alt(month_forms)})(?P<dot>\.)?"
            rf"(?![{L}])(?:\s+(?:de\s+|del\s+)?(?P<y>\d{{4}})(?!\d))?", named_date, regex.IGNORECASE)

        def numeric_date(m: regex.Match[str]) -> str | None:
            d, mo, y = int(m["d"]), int(m["m"]), m["y"]
            if not (1 <= d <= 31 and 1 <= mo <= 12):
                return None
            year = int(y) if len(y) == 4 else (2000 + int(y) if int(y) < 50 else 1900 + int(y))
            return s.date(day_words(d), s.months[mo - 1], year_words(year))

        add("date", r"(?<![\d.,/-])(?P<d>\d{1,2})(?P<sep>[/.-])(?P<m>\d{1,2})(?P=sep)(?P<y>\d{4}|\d{2})(?![\d/.,-]\d)",
            numeric_date)
        add("date", r"(?<![\d.,/-])(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})(?![\d-])", numeric_date)

        def clock(m: regex.Match[str]) -> str | None:
            return s.time(int(m["h"]), int(m["min"] or 0))

        add("time", rf"(?<![\d:.,])(?P<h>[01]?\d|2[0-3]):(?P<min>[0-5]\d)(?::[0-5]\d)?(?![\d:])"
            rf"(?:{s.time_tail})?", clock)
        if s.h_times:
            add("time", rf"(?<![\d{L}.,])(?P<h>[01]?\d|2[0-3])\s?h\s?(?:(?P<min>[0-5]\d)(?:\s?min)?)?(?![{L}\d])",
                clock)

        thousands_only = regex.compile(r"\d{1,3}(?:[." + regex.escape(s.thousands) + r"\u00a0\u202f]\d{3})+")

        def phone(m: regex.Match[str]) -> str | None:
            body = m["body"]
            groups = regex.findall(r"\d+", body)
            if not m["plus"] and regex.fullmatch(thousands_only, body):
                return None  # grouped thousands, not a phone number
            if not m["plus"] and (sum(map(len, groups)) < (8 if len(groups) > 2 else 10)):
                return None
            read: list[str] = []
            if m["plus"]:
                read.append(f"{s.plus} {s.cardinal(int(m['cc']))}")
            for g in groups:
                if s.digits_by_pairs and len(g) % 2 == 0:
                    read.append(" ".join(self.digits(g[i:i + 2]) if g[i] == "0" and g[i + 1] == "0"
                                         else (f"{s.cardinal(0)} {s.cardinal(int(g[i + 1]))}" if g[i] == "0"
                                               else s.cardinal(int(g[i:i + 2]))) for i in range(0, len(g), 2)))
                else:
                    read.append(self.digits(g))
            return ", ".join(read)

        add("phone", r"(?<![\d\w.,+])(?:(?P<plus>\+)(?P<cc>\d{1,3})[\s.-]?)?(?P<body>(?:\(\d{1,4}\)\s?)?"
            r"\d{1,5}(?:[\s.-]\d{2,5}){1,5})(?![\d\w]|[.,]\d)", phone)

        cur_alt = _alt(s.currencies)

        def money(m: regex.Match[str]) -> str | None:
            cur = s.currencies[m["c"]]
            n = self.parse(m["n"])
            cents = 0
            if n.fraction:
                if len(n.fraction) > 2:
                    return None
                cents = int(n.fraction.ljust(2, "0"))
            whole = int(n.integer) if len(n.integer) <= _MAX_DIGITS else None
            if whole is None:
                return None
            parts = []
            if whole or not cents:
                unit = cur.one if whole == 1 else cur.many
                words = s.cardinal(whole) if n.grouped and not s.agree_grouped else \
                    s.agree(s.cardinal(whole), whole, cur.feminine, True)
                of = ""
                if whole and whole % 1_000_000 == 0 and s.million_of:
                    of = s.million_of(unit) if callable(s.million_of) else s.million_of
                joined = f"{words} {of} {unit}" if of and not of.endswith("'") else f"{words} {of}{unit}"
                parts.append(joined)
            if cents:
                cw = s.agree(s.cardinal(cents), cents, False, True)
                cent = f"{cw} {cur.cent_one if cents == 1 else cur.cent_many}"
                parts.append(f"{s.money_join} {cent}" if parts and s.money_join else cent)
            out = " ".join(parts)
            return f"{s.minus} {out}" if n.negative else out

        if s.currencies:
            add("money", rf"(?<![\w])(?P<c>{cur_alt})\s?(?P<n>-?(?:{num}))(?!\d)", money)
            add("money", rf"(?<![\d.,])(?P<n>-?(?:{num}))\s?(?P<c>{cur_alt})(?![{L}])", money)

        def lead(m: regex.Match[str]) -> str:
            return f"{self.number(self.parse(m['a']))} {s.range_word} " if m["a"] else ""

        def percent(m: regex.Match[str]) -> str:
            return f"{lead(m)}{self.number(self.parse(m['n']))} {s.percent}"

        rng_lead = rf"(?:(?P<a>{num})\s?[-–]\s?)?"
        add("percent", rf"(?<![\d.,])(?<![{L}]-){rng_lead}(?P<n>[-−]?(?:{num}))\s?%", percent)

        def times(m: regex.Match[str]) -> str:
            return f"{self.number(self.parse(m['a']))} {s.times_word} {self.number(self.parse(m['b']))}"

        if s.times_word:
            add("times", rf"(?<![{L}\d.,])(?P<a>{num})\s?[x×]\s?(?P<b>{num})(?![\d{L}])", times)
        # '59, ’80: a year without its century
        add("year", r"(?<![\p{L}\d'’])['’](?P<y>\d{2})(?![\d'’\p{L}])", lambda m: s.cardinal(int(m["y"])))

        unit_alt = _alt(s.units)

        def measure(m: regex.Match[str]) -> str:
            u = s.units[m["u"]]
            n = self.parse(m["n"])
            return f"{lead(m)}{self.number(n, u.feminine, True)} {u.many if self._plural(m['n']) else u.one}"

        if s.units:
            add("measure", rf"(?<![\d.,])(?<![{L}]-){rng_lead}(?P<n>[-−]?(?:{num}))\s?(?P<u>{unit_alt})"
                rf"(?![{L}\d'’])", measure)

        def ordinal(m: regex.Match[str]) -> str:
            fem, short = s.ordinal_suffixes[m["s"]]
            n = int(m["n"])
            if short and s.short_ordinal:
                return s.short_ordinal(n)
            return s.ordinal(n, fem)

        if s.ordinal_suffixes:
            add("ordinal", rf"(?<![\d.,])(?P<n>\d{{1,4}})(?P<s>{ord_suffix})(?![{L}\d])", ordinal)

        def rng(m: regex.Match[str]) -> str | None:
            if any(len(x) > 1 and x[0] == "0" for x in (m["a"], m["b"])):
                return None  # a code (01310-100), not a range
            return f"{self.number(self.parse(m['a']))} {s.range_word} {self.number(self.parse(m['b']))}"

        add("range", rf"(?<![{L}\d.,-])(?P<a>{num})\s?[-–]\s?(?P<b>{num})(?![\d{L}-])", rng)

        def fraction(m: regex.Match[str]) -> str | None:
            nxt = m["next"] or ""
            if m["a"] == "1" and m["b"] == "2" and s.half and nxt and nxt.lower() not in s.function_words:
                return s.half(s.feminine_noun(nxt))  # "medio kilo", "meia xícara"
            return s.fraction(int(m["a"]), int(m["b"])) if s.fraction else None

        add("fraction", rf"(?<![{L}\d.,/])(?P<a>\d)/(?P<b>\d{{1,2}})(?![\d/])(?=\s+(?P<next>[{L}]+)|)", fraction)

        def plain(m: regex.Match[str]) -> str:
            n = self.parse(m[0])
            nxt = m["next"] or ""
            if nxt.lower() in s.function_words:
                nxt = ""
            return self.number(n, bool(nxt) and s.feminine_noun(nxt), bool(nxt))

        add("number", rf"(?:(?<=^|[\s(])[-−])?(?:{num})(?=\s+(?P<next>[{L}]+)|)", plain)
        if s.and_word:
            add("symbol", r"(?<=\s)&(?=\s)", lambda m: s.and_word)
        return rules

    def spans(self, text: str) -> tuple[str, list]:
        """(normalized text, the replaced spans); see :func:`onestep.frontend.norm_common.apply_rules`."""
        text = clean(text)
        if self.spec.fix_digits:
            text = text.translate(self.spec.fix_digits)
        return apply_rules(text, self.rules)

    def __call__(self, text: str) -> str:
        return self.spans(text)[0]
