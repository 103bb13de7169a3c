"""English text normalization: everything a reader would say, spelled out in words.

``normalize_en("Call 911 at 3:30 pm: it's $12.50 (25% off)!")`` ->
``"Call nine one one at three thirty P M: it's twelve dollars and fifty cents (twenty-five percent off)!"``

The text goes through an ordered list of rewrite passes (URLs before dots are read, phone numbers and dates
before plain numbers, abbreviations before dotted initialisms, ...). Every pattern bounds its repetitions so
that no input makes a regular expression backtrack for long. Letters of initialisms come out as separate
capitals ("F B I"), which the G2P reads as letter names; acronyms read as words come out capitalized ("Nasa").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from onestep.frontend.en import acronyms, numbers, tables
from onestep.frontend.en.numbers import cardinal, digits, number, ordinal, year


@dataclass(frozen=True)
class _Rule:
    """One rewrite pass: each match of ``pattern`` becomes ``handler(match)``.

    ``needs``: substrings of which the text must contain one for the pass to run at all (a cheap pre-check
    that skips most passes on most sentences; empty = always run).
    """

    pattern: re.Pattern[str]
    handler: Callable[[re.Match[str]], str]
    needs: tuple[str, ...] = ()

    def apply(self, text: str) -> str:
        if self.needs and not any(n in text for n in self.needs):
            return text
        return self.pattern.sub(self.handler, text)


def _rule(pattern: str, handler: Callable[[re.Match[str]], str], *needs: str, flags: int = 0) -> _Rule:
    return _Rule(re.compile(pattern, flags), handler, needs)

# A written number: thousands with commas, or plain digits; optional decimals.
_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d{1,30})(?:\.\d{1,30})?"
_SIGNED = r"[-−]?" + _NUM
_MONTH_NAMES = "|".join(tables.MONTHS)
_MONTH_ABBREVIATIONS = "|".join(tables.MONTH_BY_ABBREVIATION)
_URL_CHARS = r"[^\s<>\"'()\[\]{}]"
_TLDS = "com|org|net|edu|gov|io|co|uk|de|ai|dev|app|info|biz|us|ca|fr|jp|cn|ly|me|tv"
_SPELLED_TLDS = frozenset({"io", "ai", "uk", "us", "de", "fr", "jp", "cn", "edu", "tv", "ly", "me"})
_VULGAR_FRACTIONS = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅖": "2/5",
                     "⅗": "3/5", "⅘": "4/5", "⅙": "1/6", "⅚": "5/6", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8", "⅞": "7/8"}
_CURRENCY_CODES = {"USD": "U S dollars", "EUR": "euros", "GBP": "pounds", "JPY": "yen", "CNY": "yuan",
                   "RMB": "yuan", "CAD": "Canadian dollars", "AUD": "Australian dollars", "INR": "rupees"}
_SPECIAL_NUMBERS = {"24/7": "twenty-four seven", "9/11": "nine eleven", "50/50": "fifty fifty"}
_INVISIBLE = frozenset("\ufe0e\ufe0f\u20e3\u200b\u200c\u200d\u2060")
_DIGIT = re.compile(r"\d")
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SPACES = re.compile(r"\s+")
_SENTENCE_AHEAD = re.compile(r"\s+[\"“'‘(\[]?([A-Z][a-z]*)")


def normalize_en(text: str) -> str:
    """Spell out numbers, symbols, abbreviations and initialisms of English text.

    Args:
        text: raw English text (any length; control characters and emoji are dropped).
    Returns:
        the text in words, single-spaced, punctuation kept.
    """
    text = _clean(text)
    for rule in _EARLY_RULES:
        text = rule.apply(text)
    if _DIGIT.search(text):
        for rule in _NUMBER_RULES:
            text = rule.apply(text)
    for rule in _LATE_RULES:
        text = rule.apply(text)
    return _tidy(text)


# --------------------------------------------------------------------------------------------- cleaning


def _clean(text: str) -> str:
    """Drop control characters, emoji and other pictographs; unify Unicode forms; single spaces."""
    text = re.sub(
        "(\\d?)([" + "".join(_VULGAR_FRACTIONS) + "])",
        lambda m: (m.group(1) + " " if m.group(1) else "") + _VULGAR_FRACTIONS[m.group(2)],
        text,
    )
    if text.isascii():
        return _SPACES.sub(" ", _ASCII_CONTROL.sub(" ", text)).strip()
    text = text.replace("²", " squared").replace("³", " cubed")
    kept = []
    for c in text:
        cat = unicodedata.category(c)
        if cat[0] == "C" or (cat == "So" and c != "°") or (cat == "Sk" and c not in "^`") or c in _INVISIBLE:
            kept.append(" ")
        else:
            kept.append(c)
    text = unicodedata.normalize("NFKC", "".join(kept))
    text = text.replace("\u2044", "/").replace("\u2010", "-").replace("\u2011", "-").replace("\u00a0", " ")
    return _SPACES.sub(" ", text).strip()


def _tidy(text: str) -> str:
    text = _SPACES.sub(" ", text).strip()
    text = re.sub(r" ([,.!?;:%)\]}])", r"\1", text)
    text = re.sub(r"([(\[{]) ", r"\1", text)
    return re.sub(r",(?=[A-Za-z])", ", ", text)


def _ends_sentence(text: str, end: int) -> bool:
    """True if a period at ``text[end - 1]`` likely also ends the sentence (end of text, or a new one)."""
    rest = text[end : end + 40]
    if not rest.strip():
        return True
    m = _SENTENCE_AHEAD.match(rest)
    return bool(m and m.group(1) in tables.SENTENCE_STARTERS)


def _previous_word(text: str, start: int) -> str:
    m = re.search(r"([A-Za-z]+)\W{0,3}$", text[max(0, start - 24) : start])
    return m.group(1) if m else ""


# ------------------------------------------------------------------------------------ web, phone, dates


def _url_word(part: str) -> str:
    """One URL or e-mail piece: digit runs as numbers, other separators as spaces."""
    out = []
    for tok in re.findall(r"[A-Za-z]+|\d+", part):
        out.append(number(tok) if tok.isdigit() and len(tok) <= 4 else digits(tok) if tok.isdigit() else tok)
    return " ".join(out)


def _speak_host(host: str) -> str:
    labels = []
    for label in host.split("."):
        low = label.lower()
        if low == "www":
            labels.append("W W W")
        elif low in _SPELLED_TLDS:
            labels.append(acronyms.letters(low.upper()))
        else:
            labels.append(_url_word(label))
    return " dot ".join(labels)


def _url(m: re.Match[str]) -> str:
    url = m.group(0)
    trail = re.search(r"[.,;:!?]+$", url)
    tail = trail.group(0) if trail else ""
    url = url[: len(url) - len(tail)]
    url = re.sub(r"^[A-Za-z]{2,10}://", "", url)
    host, _, path = url.partition("/")
    spoken = _speak_host(host)
    segments = [_url_word(s) for s in path.split("/") if _url_word(s)]
    if segments:
        spoken += " slash " + " slash ".join(segments)
    return f" {spoken}{tail} "


def _email(m: re.Match[str]) -> str:
    local, domain = m.group(1), m.group(2)
    names = {".": " dot ", "_": " underscore ", "-": " dash ", "+": " plus "}
    spoken_local = "".join(names.get(c, c) for c in re.sub(r"\d+", lambda d: " " + digits(d.group(0)) + " ", local))
    return f" {spoken_local} at {_speak_host(domain)} "


def _phone(m: re.Match[str]) -> str:
    prefix = m.groupdict().get("cue") or ""
    body = m.group("phone")
    groups = re.findall(r"\d+", body)
    spoken = ", ".join(digits(g) for g in groups)
    if body.lstrip().startswith("+"):
        spoken = "plus " + spoken
    return f"{prefix}{spoken}"


def _month(written: str) -> str:
    written = written.rstrip(".")
    return written if written in tables.MONTHS else tables.MONTH_BY_ABBREVIATION[written]


def _month_day(m: re.Match[str]) -> str:
    month = _month(m.group("month"))
    day = int(m.group("day"))
    if not 1 <= day <= 31:
        return m.group(0)
    out = f"{month} {ordinal(day)}"
    if m.group("year"):
        out += f", {year(int(m.group('year')))}"
    return out


def _day_month(m: re.Match[str]) -> str:
    day = int(m.group("day"))
    if not 1 <= day <= 31:
        return m.group(0)
    month = _month(m.group("month"))
    the = "" if _previous_word(m.string, m.start()).lower() == "the" else "the "
    out = f"{the}{ordinal(day)} of {month}"
    if m.group("year"):
        out += f", {year(int(m.group('year')))}"
    return out


def _date_words(y: int, mo: int, d: int, two_digit_year: bool = False) -> str | None:
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    spoken_year = (("oh " + cardinal(y)) if y < 10 else cardinal(y)) if two_digit_year else year(y)
    return f"{tables.MONTHS[mo - 1]} {ordinal(d)}, {spoken_year}"


def _iso_date(m: re.Match[str]) -> str:
    return _date_words(int(m.group(1)), int(m.group(2)), int(m.group(3))) or m.group(0)


def _numeric_date(m: re.Match[str]) -> str:
    a, b, y = int(m.group(1)), int(m.group(2)), m.group(3)
    mo, d = (a, b) if a <= 12 else (b, a)
    return _date_words(int(y), mo, d, two_digit_year=len(y) == 2) or m.group(0)


# ------------------------------------------------------------------------------------------ times, money


def _meridiem(text: str | None) -> str:
    return "" if not text else (" A M" if text.lower() == "a" else " P M")


def _clock(m: re.Match[str]) -> str:
    h, mi = int(m.group("h")), int(m.group("m"))
    if h > 24 or mi > 59:
        return m.group(0)
    meridiem = _meridiem(m.group("ap"))
    if mi == 0:
        spoken = cardinal(h) + (meridiem or (" hundred" if h > 12 or h == 0 else " o'clock"))
    else:
        minutes = f"oh {cardinal(mi)}" if mi < 10 else cardinal(mi)
        spoken = f"{cardinal(h)} {minutes}{meridiem}"
    if m.group("s"):
        sec = int(m.group("s"))
        spoken += f" and {cardinal(sec)} second{'s' if sec != 1 else ''}"
    if m.group("ap") and m.group(0).endswith(".") and _ends_sentence(m.string, m.end()):
        spoken += "."
    return spoken


def _hour_meridiem(m: re.Match[str]) -> str:
    h = int(m.group("h"))
    if not 0 < h <= 12:
        return m.group(0)
    spoken = cardinal(h) + _meridiem(m.group("ap"))
    if m.group(0).endswith(".") and _ends_sentence(m.string, m.end()):
        spoken += "."
    return spoken


def _money(m: re.Match[str]) -> str:
    sign = "minus " if m.group("sign") else ""
    major, majors, minor, minors = tables.CURRENCIES[m.group("cur")]
    amount = m.group("amount")
    scale = m.group("scale") or m.group("scale2")
    if scale:
        return f"{sign}{number(amount)} {tables.SCALES[scale]} {majors}"
    whole, _, frac = amount.replace(",", "").partition(".")
    if frac and (len(frac) != 2 or minor is None):
        return f"{sign}{number(amount)} {majors}"
    units, cents = int(whole or 0), int(frac or 0)
    parts = []
    if units or not cents:
        parts.append(f"{cardinal(units)} {major if units == 1 else majors}")
    if cents and minor is not None and minors is not None:
        parts.append(f"{cardinal(cents)} {minor if cents == 1 else minors}")
    return sign + " and ".join(parts)


def _cents(m: re.Match[str]) -> str:
    amount = m.group(1)
    return f"{number(amount)} {'cent' if amount == '1' else 'cents'}"


def _currency_code(m: re.Match[str]) -> str:
    return f"{number(m.group(1))} {_CURRENCY_CODES[m.group(2)]}"


def _quantity(first: str, second: str | None) -> str:
    spoken = number(first)
    if second:
        spoken += " to " + number(second)
    return spoken


def _percent(m: re.Match[str]) -> str:
    return _quantity(m.group(1), m.group(2)) + " percent"


def _unit(m: re.Match[str]) -> str:
    singular, plural = tables.UNITS[m.group(3)]
    one = m.group(2) is None and m.group(1).lstrip("-−") == "1"
    return f"{_quantity(m.group(1), m.group(2))} {singular if one else plural}"


# --------------------------------------------------------------------------------------- other numbers


def _version(m: re.Match[str]) -> str:
    return "version " + " point ".join(cardinal(int(p)) for p in m.group(1).split("."))


def _dotted_number(m: re.Match[str]) -> str:
    parts = m.group(0).split(".")
    if len(parts) == 4 and all(int(p) <= 255 for p in parts):
        return " dot ".join(cardinal(int(p)) for p in parts)
    return " point ".join(cardinal(int(p)) for p in parts)


def _ordinal(m: re.Match[str]) -> str:
    return ordinal(int(m.group(1).replace(",", "")))


def _decade(m: re.Match[str]) -> str:
    n = int(m.group(2))
    if len(m.group(2)) == 4:
        return numbers.plural(year(n))
    return numbers.plural(cardinal(n))


def _fraction(m: re.Match[str]) -> str:
    whole, num, den = m.group(1), int(m.group(2)), int(m.group(3))
    key = f"{num}/{den}"
    if whole is None and key in _SPECIAL_NUMBERS:
        return _SPECIAL_NUMBERS[key]
    spoken = numbers.fraction(num, den)
    return f"{cardinal(int(whole))} and {spoken}" if whole else spoken


def _is_year(n: int) -> bool:
    return 1000 <= n <= 2099


def _range(m: re.Match[str]) -> str:
    a, b = m.group(1), m.group(2)
    if a.isdigit() and b.isdigit() and len(a) == 4 and len(b) == 4 and _is_year(int(a)) and _is_year(int(b)):
        return f"{year(int(a))} to {year(int(b))}"
    if len(a) == 4 and len(b) == 2 and a.isdigit() and b.isdigit() and _is_year(int(a)):
        return f"{year(int(a))} to {cardinal(int(b))}"  # "2019-20"
    return f"{number(a)} to {number(b)}"


def _times(m: re.Match[str]) -> str:
    if m.group(3):
        return f"{number(m.group(3))} times"
    return f"{number(m.group(1))} by {number(m.group(2))}"


def _bare_number(m: re.Match[str]) -> str:
    sign, body = m.group(1) or "", m.group(2)
    if not sign and len(body) == 4 and body.isdigit() and _is_year(int(body)):
        before = _previous_word(m.string, m.start()).lower()
        after = m.string[m.end() : m.end() + 4].strip().rstrip(".,;:")
        if (
            before in tables.YEAR_CUES
            or after.upper() in tables.YEAR_SUFFIXES
            or (before == "the" and int(body) >= 1100)
            or (not m.string[: m.start()].strip() and after.startswith(","))
        ):
            return year(int(body))
    return number(sign + body)


def _roman(m: re.Match[str]) -> str:
    name, numeral = m.group(1), m.group(2)
    value = numbers.roman_value(numeral)
    if value is None:
        return m.group(0)
    before = _previous_word(m.string, m.start())
    if name in tables.ROMAN_CARDINAL_CUES:
        return f"{name} {cardinal(value)}"
    at_phrase_end = re.match(r"\s*(?:[,.;:!?)]|$)", m.string[m.end() :]) is not None
    single_ok = len(numeral) > 1 or before in tables.ROMAN_TITLES or at_phrase_end
    if (name in tables.REGNAL_NAMES or before in tables.ROMAN_TITLES) and single_ok:
        return f"{name} the {ordinal(value)}"
    if len(numeral) == 1:
        return m.group(0)
    return f"{name} {cardinal(value)}"


# ----------------------------------------------------------------------------- abbreviations and letters


def _keep_period(m: re.Match[str], spoken: str) -> str:
    return spoken + "." if m.group(0).endswith(".") and _ends_sentence(m.string, m.end()) else spoken


def _capital_follows(m: re.Match[str]) -> bool:
    return re.match(r" ?[A-Z]", m.string[m.end() : m.end() + 2]) is not None


def _title(m: re.Match[str]) -> str:
    word = m.group(1) or m.group(2)
    if word == "Dr" and not _capital_follows(m) and _previous_word(m.string, m.start())[:1].isupper():
        return _keep_period(m, "Drive")  # "Mulholland Dr."
    return tables.TITLES[word]


def _saint_or_street(m: re.Match[str]) -> str:
    """"St. Louis" -> Saint; "Main St." -> Street (a capitalized word before it, inside a sentence)."""
    before = m.string[max(0, m.start() - 40) : m.start()]
    street_name = re.search(r"[^.!?\s] [A-Z][a-z]+ $", before) is not None
    return "Saint" if _capital_follows(m) and not street_name else _keep_period(m, "Street")


def _abbreviation(m: re.Match[str]) -> str:
    return _keep_period(m, tables.ABBREVIATIONS[m.group(1)])


def _dotted_phrase(m: re.Match[str]) -> str:
    return tables.DOTTED_PHRASES[m.group(0).lower()]


def _dotted_letters(m: re.Match[str]) -> str:
    return _keep_period(m, acronyms.letters(m.group(0).replace(".", "").upper()))


def _caps(m: re.Match[str]) -> str:
    return acronyms.speak_caps(m.group(0))


def _symbol(m: re.Match[str]) -> str:
    return f" {tables.SYMBOLS[m.group(0)]} "


def _alternation(words: list[str] | tuple[str, ...] | set[str] | frozenset[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_MONTH_CUES = tuple(m[:3] for m in tables.MONTHS)
_CURRENCY_SYMBOLS = tuple("$£€¥₹₩₽")

_EARLY_RULES: list[_Rule] = [
    _rule(
        rf"(?<![\w@.])(?:[A-Za-z]{{2,10}}://|www\.){_URL_CHARS}{{1,2000}}",
        _url,
        "://", "www.", "WWW.",
        flags=re.IGNORECASE,
    ),
    _rule(
        r"(?<![\w.+-])([A-Za-z0-9._%+-]{1,64})@((?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24})(?![\w.-])", _email, "@"
    ),
    _rule(
        rf"(?<![\w@.-])(?:[A-Za-z0-9-]{{1,63}}\.){{1,8}}(?:{_TLDS})(?![\w.-]|\.\w)(?:/{_URL_CHARS}{{0,2000}})?",
        _url,
        ".",
        flags=re.IGNORECASE,
    ),
    _rule(r"(?<![\w#&])#([A-Za-z][A-Za-z0-9_]{0,100})", lambda m: f"hashtag {m.group(1)}", "#"),
    _rule(r"(?<![\w@])@([A-Za-z_][A-Za-z0-9_]{0,100})", lambda m: f"at {m.group(1)}", "@"),
    _rule(
        r"\b(PhD|PhDs|iOS|macOS|WiFi)\b|\bPh\.D\.?",
        lambda m: acronyms.SPECIAL.get(m.group(0), "P H D"),
        "PhD", "Ph.D", "iOS", "macOS", "WiFi",
    ),
    _rule(r"\b([A-G])#(?!\w)", lambda m: f"{m.group(1)} sharp", "#"),
    _rule(r"\band/or\b", lambda m: "and or", "/"),
    _rule(r" ?-{2,3} ?", lambda m: " — ", "--"),
    _rule(r"\bw/(?=\s)", lambda m: "with", "w/"),
    _rule(r"(?<![\w.])(?:e\.g\.|i\.e\.|a\.k\.a\.|et al\.|w/o\b)", _dotted_phrase, ".", "/", flags=re.IGNORECASE),
]

_NUMBER_RULES: list[_Rule] = [
    # phone numbers, emergency numbers
    _rule(r"(?<![\w+])(?P<phone>\+\d{1,3}(?:[ .-]\(?\d{1,4}\)?){2,5})(?![\d])", _phone, "+"),
    _rule(r"(?<![\w(])(?P<phone>(?:1[ .-])?\(\d{3}\) ?\d{3}[ .-]\d{4})(?!\d)", _phone, "("),
    _rule(r"(?<![\w.-])(?P<phone>(?:1[-.])?\d{3}[-.]\d{3}[-.]\d{4})(?![\w.-])", _phone, "-", "."),
    _rule(
        r"(?P<cue>\b(?:call|phone|tel|telephone|dial|fax|text|mobile|cell)\b\.?:? (?:(?:me|us|them|him|her|at|on) )?)"
        r"(?P<phone>\d{3}-\d{4}|999|112|000|111)(?![\w-])",
        _phone,
        "-", "999", "112", "000", "111",
        flags=re.IGNORECASE,
    ),
    _rule(r"(?<![\w.,-])911(?![\w.,-]\d|\d)", lambda m: "nine one one", "911"),
    # dates
    _rule(r"(?<![\w.-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\w-])", _iso_date, "-"),
    _rule(r"(?<![\w/.])(\d{1,2})/(\d{1,2})/(\d{4}|\d{2})(?![\w/])", _numeric_date, "/"),
    _rule(
        rf"\b(?P<month>{_MONTH_NAMES}|(?:{_MONTH_ABBREVIATIONS})\.?) (?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b"
        rf"(?:,? (?P<year>\d{{4}})\b)?",
        _month_day,
        *_MONTH_CUES,
    ),
    _rule(
        rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)? (?:of )?(?P<month>{_MONTH_NAMES}|(?:{_MONTH_ABBREVIATIONS})\.?)"
        rf"(?![a-z])(?:,? (?P<year>\d{{4}})\b)?",
        _day_month,
        *_MONTH_CUES,
    ),
    # times
    _rule(
        r"(?<![\w:.])(?P<h>\d{1,2}):(?P<m>\d{2})(?::(?P<s>\d{2}))?(?![\d:])"
        r"(?: ?(?P<ap>[AaPp])\.? ?[Mm]\.?(?![A-Za-z]))?",
        _clock,
        ":",
    ),
    _rule(r"(?<![\w:.])(?P<h>\d{1,2}) ?(?P<ap>[AaPp])\.? ?[Mm]\.?(?![A-Za-z])", _hour_meridiem, "m", "M"),
    _rule(
        r"(?<![\w:.])(\d{1,3}):(\d{1,3})(?![\d:])",
        lambda m: f"{cardinal(int(m.group(1)))} to {cardinal(int(m.group(2)))}",
        ":",
    ),
    _rule(r"(?<![\w.'’])(['’])?(\d0|1\d{2}0|20\d0)(?:s|'s|’s)\b", _decade, "0s", "0's", "0’s"),
    _rule(
        r"\b(between|from) (1\d{3}|20\d{2}) (and|to) (1\d{3}|20\d{2})\b",
        lambda m: f"{m.group(1)} {year(int(m.group(2)))} {m.group(3)} {year(int(m.group(4)))}",
        "between", "from",
    ),
    # money, percent, units
    _rule(
        rf"(?P<sign>[-−])?(?P<cur>US\$|[$£€¥₹₩₽]) ?(?P<amount>{_NUM})"
        rf"(?: ?(?P<scale>thousand|million|billion|trillion)\b|(?P<scale2>[KkMmBbTt]n?|bn)(?![A-Za-z]))?",
        _money,
        *_CURRENCY_SYMBOLS,
    ),
    _rule(rf"({_NUM}) ?¢", _cents, "¢"),
    _rule(rf"({_NUM}) ?({_alternation(_CURRENCY_CODES)})\b", _currency_code, *_CURRENCY_CODES),
    _rule(rf"(?<![\w.])({_SIGNED})(?:(?:-| ?– ?)({_SIGNED}))? ?%", _percent, "%"),
    _rule(rf"(?<![\w.])({_SIGNED})(?:(?:-| ?– ?)({_SIGNED}))? ?({_alternation(tables.UNITS)})(?![\w/²³])", _unit),
    # versions, addresses, ordinals, fractions
    _rule(r"\b[vV](\d{1,6}(?:\.\d{1,6}){0,4})\b", _version, "v", "V"),
    _rule(r"(?<![\w.])\d{1,6}(?:\.\d{1,6}){2,5}(?![\w.]|\.\d)", _dotted_number, "."),
    _rule(
        r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{1,15})(?:st|nd|rd|th|ST|ND|RD|TH)\b",
        _ordinal,
        "st", "nd", "rd", "th", "ST", "ND", "RD", "TH",
    ),
    _rule(r"(?<![\w/.])(?:(\d{1,6}) )?(\d{1,6})/(\d{1,6})(?![\w/]|\.\d)", _fraction, "/"),
    # number signs, ranges, multiplication
    _rule(r"(?:\b[Nn]o\.|#) ?(?=[A-Z]?\d)", lambda m: "number ", "o.", "#"),
    _rule(rf"(?<![\w.,-])({_NUM})(?:-| ?[–—] ?)({_NUM})(?![\w,-]|\.\d)", _range, "-", "–", "—"),
    _rule(rf"(?<![\w.])({_NUM}) ?[x×] ?({_NUM})\b|(?<![\w.])({_NUM})x\b", _times, "x", "×"),
    _rule(r"~ ?(?=\d)", lambda m: "about ", "~"),
    # letters glued to digits: B2B, MP3, 4K
    _rule(r"\b([BCP])2([BCP])\b", lambda m: f"{m.group(1)} to {m.group(2)}", "2"),
    _rule(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z])", lambda m: " "),
    # plain numbers and years
    _rule(r"(?<![\w.])(?:(?<![\w)\]%])([-−]))?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?!\w)", _bare_number),
]

_LATE_RULES: list[_Rule] = [
    _rule(r"\b([A-Z][a-z]+) ([IVXLC]{2,7}|[IVX](?![.]\s?[A-Z]))\b(?![a-z'’])", _roman, "I", "V", "X", "L", "C"),
    _rule(rf"\b({_alternation(tables.TITLES)})\.(?= )|\b(Mr|Mrs|Ms|Dr)\b(?= [A-Z])", _title),
    _rule(r"\bSt\.|\bSt\b(?= [A-Z])", _saint_or_street, "St"),
    _rule(rf"\b({_alternation(tables.ABBREVIATIONS)})\.", _abbreviation, "."),
    _rule(r"\bvs\b", lambda m: "versus", "vs"),
    _rule(r"(?<![\w.])(?:[A-Za-z]\.){2,12}(?![\w])", _dotted_letters, "."),
    _rule(
        r"(?<![A-Za-z0-9'’&])[A-Z](?:[A-Z]|&(?=[A-Z])){1,30}(?:s|'s|’s)?(?![A-Za-z0-9&]|['’][A-Za-z])", _caps
    ),
    _rule("[" + re.escape("".join(tables.SYMBOLS)) + "]", _symbol),
    _rule("[" + re.escape(tables.DROPPED_SYMBOLS) + "]", lambda m: " "),
]
