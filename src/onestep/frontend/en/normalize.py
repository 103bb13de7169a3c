"""English text normalization: everything a reader would say, spelled out in words.

``normalize_en("Call 911 at 3:30 pm: it's $12.50 (25% off)!")`` ->
``"Call nine one one at three thirty P M: it's twelve dollars and fifty cents (twenty-five percent off)!"``

The text goes through ordered lists of rewrite passes (URLs before dots are read, phone numbers and dates
before plain numbers, abbreviations before dotted initialisms, ...), each list run by ``passes.PassList``: one
scan for the passes' trigger substrings, then only the passes triggered. Every pattern bounds its repetitions so
that no input makes a regular expression backtrack for long. Letters of initialisms come out as separate
capitals ("F B I"), which the G2P reads as letter names; acronyms read as words come out capitalized ("Nasa").

The semiotic classes live in their own modules: ``classify`` (dates with month names, years, telephone shapes,
money, units and roman numerals in every written form: classify, then verbalize; it runs first), ``dates``,
``times``, ``money``, ``measures``, ``codes`` (phones and codes), ``electronic`` (URLs, e-mail, handles),
``roman``, ``reference``; this module holds the pass lists, their order, and the passes not yet given a class module.
"""

from __future__ import annotations

import re
import unicodedata

from onestep.frontend.en import (
    acronyms,
    classify,
    codes,
    dates,
    electronic,
    measures,
    money,
    numbers,
    reference,
    roman,
    tables,
    times,
)
from onestep.frontend.en.numbers import cardinal, digits, number, ordinal, year
from onestep.frontend.en.passes import PassList
from onestep.frontend.en.rules import (
    NUM,
    Rule,
    alternation,
    at_sentence_start,
    keep_period,
    next_word,
    previous_word,
    rule,
)

_VULGAR_FRACTIONS = {"½": "1/2", "⅓": "1/3", "⅔": "2/3", "¼": "1/4", "¾": "3/4", "⅕": "1/5", "⅖": "2/5",
                     "⅗": "3/5", "⅘": "4/5", "⅙": "1/6", "⅚": "5/6", "⅛": "1/8", "⅜": "3/8", "⅝": "5/8", "⅞": "7/8"}
_SPECIAL_NUMBERS = {"24/7": "twenty-four seven", "9/11": "nine eleven", "50/50": "fifty fifty",
                    "20/20": "twenty twenty"}
# "open 24-7", "a 50-50 chance": fixed phrases written with a hyphen (not ranges; "tied 50-50" stays a score)
_HYPHEN_SPECIALS = {"24-7": "twenty-four seven", "50-50": "fifty-fifty"}
_INVISIBLE = frozenset("\ufe0e\ufe0f\u20e3\u200b\u200c\u200d\u2060")
_DIGIT = re.compile(r"\d")
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SPACES = re.compile(r"\s+")
_SUPERSCRIPT_DIGITS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_SUPERSCRIPTS = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]{1,4}")


def normalize_en(text: str) -> str:
    """Spell out numbers, symbols, abbreviations and initialisms of English text.

    Args:
        text: raw English text (any length; control characters and emoji are dropped).
    Returns:
        the text in words, single-spaced, punctuation kept.
    """
    text = _EARLY_PASSES.apply(_clean(text))
    if _DIGIT.search(text):
        text = _NUMBER_PASSES.apply(text)
    return _tidy(_LATE_PASSES.apply(text))


def preload() -> None:
    """Compile every pattern of the normalizer now (they are compiled on first use otherwise), so that no
    later call pays for a compile: ``Frontend.preload`` runs this."""
    for passes in (_EARLY_PASSES, _NUMBER_PASSES, _LATE_PASSES):
        passes.compile()
    classify.preload()


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
    # powers survive NFKC as ^N ("m²" -> "m^2", "10⁸" -> "10^8"); units and exponents read them, then the rest
    text = _SUPERSCRIPTS.sub(lambda m: "^" + m.group(0).translate(_SUPERSCRIPT_DIGITS), text)
    kept = []
    for c in text:
        cat = unicodedata.category(c)
        if cat[0] == "C" or (cat == "So" and c != "°") or (cat == "Sk" and c not in "^`") or c in _INVISIBLE:
            kept.append(" ")
        else:
            kept.append(c)
    text = unicodedata.normalize("NFKC", "".join(kept))
    text = text.replace("\u2044", "/").replace("\u2010", "-").replace("\u2011", "-").replace("\u00a0", " ")
    text = text.replace("\u2032\u2032", "\u2033")  # NFKC splits the double prime (inches) in two single ones
    return _SPACES.sub(" ", text).strip()


def _tidy(text: str) -> str:
    text = _SPACES.sub(" ", text).strip()
    text = re.sub(r" ([,.!?;:%)\]}])", r"\1", text)
    text = re.sub(r"([(\[{]) ", r"\1", text)
    return re.sub(r",(?=[A-Za-z])", ", ", text)


# --------------------------------------------------------------------------------------- other numbers


_PERIOD_OVER = {"y": "year over year", "q": "quarter over quarter", "m": "month over month"}


def _power(m: re.Match[str]) -> str:
    """"2^5" -> "two to the fifth", "3^2" -> "three squared", "x^2" -> "x squared" (any base; "10^8" is read by
    ``_exponent``)."""
    power = int(m.group(2))
    spoken = {2: "squared", 3: "cubed"}.get(power) or f"to the {ordinal(power)}"
    base = m.group(1)
    return f"{base if base.isalpha() else number(base)} {spoken}"


#: Words after which "30s" is a duration in seconds (the decade reading needs "the", "his", "early" ... before it).
_SECONDS_CUES = ("[Ff]or|[Aa]fter|[Ee]very|[Ww]ithin|[Rr]est|[Ww]ait|[Hh]old|[Ss]leep|[Pp]ause|[Dd]elay|[Tt]imeout"
                 "|[Tt]ook|[Tt]akes|[Ll]asts?|[Rr]etry in|[Rr]etrying in|[Ee]xpires in|[Rr]efresh(?:es)? every"
                 "|(?:[Dd]elay|[Tt]imeout|[Ii]nterval|[Pp]ause|[Ww]ait|[Gg]ap|[Bb]reak|[Ll]ag|[Ll]atency|[Pp]eriod"
                 "|[Ww]indow|TTL)s? of")
#: "Back in 20s.", "done in 45s!": "in" with no determiner and nothing after the number is seconds ("in the 20s",
#: "in 70s fashion" keep the decade).
_IN_SECONDS = r"\b([Ii]n) (\d{1,3})s(?=\s*(?:[.,;:!?)]|$))"


def _seconds_after_cue(m: re.Match[str]) -> str:
    """"Wait 30s" -> "Wait thirty seconds", "Timeout: 30s", "Back in 20s." (groups of the rule below)."""
    cue, colon, count = m.group(1, 2, 3) if m.group(1) else (m.group(4), "", m.group(5))
    return f"{cue}{colon} {numbers.duration([(count, 'second')])}"


def _minus(m: re.Match[str]) -> str:
    """" - " / " − " between two terms of a sum ("2y - 7 = 11", "2^5 − 1"): minus, in an equation or after a power."""
    if "=" in m.string or m.group(1) == "−" or re.search(r"\^\d{1,3}$", m.string[max(0, m.start() - 4) : m.start()]):
        return " minus "
    return m.group(0)


def _ten_to_the(power: int) -> str:
    """10 raised to ``power``: "ten squared", "ten cubed", "ten to the eighth", "ten to the minus third"."""
    return {2: "ten squared", 3: "ten cubed"}.get(power) or (
        "ten to the " + ("minus " if power < 0 else "") + ordinal(abs(power))
    )


def _with_unit(spoken: str, m: re.Match[str]) -> str:
    """``spoken`` plus the unit in groups 3 (and 4: per) of a power-of-ten match, if any ("10^-19 C" -> "coulombs")."""
    if m.group(3) in tables.SCIENCE_UNITS:
        return f"{spoken} {tables.SCIENCE_UNITS[m.group(3)][1]}"
    if m.group(3):
        return f"{spoken} {measures.spoken_unit(m.group(3), True, per=m.group(4))}"
    return spoken


def _exponent(m: re.Match[str]) -> str:
    """"3 × 10^8" -> "three times ten to the eighth", "10^-3" -> "ten to the minus third", "10^2" -> "ten squared"."""
    mantissa, spoken = m.group(1), _ten_to_the(int(m.group(2).replace("−", "-")))
    if mantissa:
        spoken = f"{number(mantissa)} times {spoken}"
    return _with_unit(spoken, m)


def _e_notation(m: re.Match[str]) -> str:
    """"1e6" -> "one times ten to the sixth", "6.02e23" -> "six point zero two times ten to the twenty-third"
    (a capital E only after a decimal: "3E5" is a code)."""
    if "E" in m.group(0) and "." not in m.group(1):
        return m.group(0)
    power = int(m.group(2).replace("−", "-").lstrip("+"))
    return _with_unit(f"{number(m.group(1))} times {_ten_to_the(power)}", m)


_ROUND_PLURALS = {"10": "tens", "100": "hundreds", "1000": "thousands", "10000": "tens of thousands",
                  "100000": "hundreds of thousands", "1000000": "millions", "1000000000": "billions"}


_ANY_UNIT = alternation(tables.UNITS)
_SCIENCE_UNIT = alternation(tables.SCIENCE_UNITS)


_RATING_CUES = frozenset("rated rating rate scored score scores gave give gives get gets got giving earned".split())


def _rating(m: re.Match[str]) -> str:
    """"4.7/5" -> "four point seven out of five", "10/10" -> "ten out of ten", "9/10 doctors" -> "nine out of ten
    doctors" (a score, not a fraction: a decimal numerator, one equal to the denominator, a plural noun after a
    tenth or hundredth, or a rating word before it); otherwise left to the fraction pass."""
    num, den = m.group(1), m.group(2)
    if re.search(r"(?<![\d.,])\d{1,3} $", m.string[max(0, m.start() - 5) : m.start()]):
        return m.group(0)  # "4 3/10 hours": a mixed number, read by the fraction pass
    plural_after = den != "5" and re.match(r" [a-z]{2,20}s\b", m.string[m.end() : m.end() + 24]) is not None
    if "." in num or num == den or plural_after or previous_word(m.string, m.start()).lower() in _RATING_CUES:
        return f"{number(num)} out of {number(den)}"
    return m.group(0)


_SCORE_WORDS = re.compile(r"\b(?:scores?|scored|quiz(?:zes)?|tests?|exams?|marks?|grades?|results?)\b", re.IGNORECASE)


def _score_out_of(m: re.Match[str]) -> str:
    """"Quiz scores: 18/20, 15/20" -> "eighteen out of twenty, ...": marks out of a total in a text about scores."""
    num, den = int(m.group(1)), int(m.group(2))
    if not (num <= den and 10 < den <= 200) or not _SCORE_WORDS.search(m.string, max(0, m.start() - 60), m.start()):
        return m.group(0)
    return f"{cardinal(num)} out of {cardinal(den)}"


def _blood_pressure(m: re.Match[str]) -> str:
    """"120/80 mmHg" -> "one twenty over eighty millimeters of mercury" (systolic said in pairs); without the
    unit only after "blood pressure"/"BP"."""
    if not m.group(3) and not re.search(r"\b(?:pressure|BP)\b", m.string[max(0, m.start() - 30) : m.start()]):
        return m.group(0)
    unit = " millimeters of mercury" if m.group(3) else ""
    return f"{numbers.model_number(m.group(1))} over {cardinal(int(m.group(2)))}{unit}"


def _ordinal(m: re.Match[str]) -> str:
    if m.group("last"):
        return _ordinal_range(m)
    return ordinal(int(m.group(1).replace(",", "")))


# Words after a number that show it does not qualify a noun ("3/4 of the way", "4 3/4 hours").
_NOT_NOUNS = frozenset("of the and for with from into than that this then are was were has had".split())


_HALF_WORDS = r"(?:full|empty|done|finished|price|off|asleep|awake|open|closed|cooked|baked)"
_HALF_BEFORE = re.compile(rf" {_HALF_WORDS}\b")


_CRICKET_WORDS = re.compile(r"\b(?:overs?|wickets?|innings|stumps|bowled|declared|batting|run chase|Test)\b")
_SCORE_BEFORE = frozenset("on were was at reached declared to".split())


def _cricket_score(m: re.Match[str], num: int, den: int) -> bool:
    """"closed the day on 245/6": runs for wickets (at most ten), not a fraction nor a date."""
    return (den <= 10 and num >= 32 and not m.string.startswith(" of", m.end())
            and (_CRICKET_WORDS.search(m.string) is not None or previous_word(m.string, m.start()) in _SCORE_BEFORE))


def _fraction(m: re.Match[str]) -> str:
    whole, num, den = m.group(1), int(m.group(2)), int(m.group(3))
    if m.group("suffix"):  # "1/100th of a second", "3/4TH": the ending says the denominator is an ordinal
        spoken = numbers.fraction(num, den)
        return f"{cardinal(int(whole))} {spoken}" if whole else spoken
    key = f"{num}/{den}"
    if whole is None and _cricket_score(m, num, den):
        return f"{cardinal(num)} for {cardinal(den)}"
    if whole is None and key in _SPECIAL_NUMBERS:
        return _SPECIAL_NUMBERS[key]
    if whole is None and 1900 <= num <= 2099 and (den == (num + 1) % 100 or den == num + 1):
        # "the 2023/24 season", "in 2023/2024": a season or a school or fiscal year
        return f"{year(num)} to {year(den) if den > 99 else _short_year(den)}"
    if whole is None and num > den and num + den == 100:
        return f"{cardinal(num)} {cardinal(den)}"  # "ground beef (80/20)", "a 60/40 split": shares of a hundred
    after = m.string[m.end() : m.end() + 24]
    if whole is None and den in (2, 4, 8, 16) and num <= 16 and re.match(r" time\b", after):
        return f"{cardinal(num)} {cardinal(den)}"  # a time signature: "in 3/4 time" -> "three four time"
    if key == "1/2" and whole is None and _HALF_BEFORE.match(after):
        return "half"  # "the tank is ½ full", "½ price", "½ off"
    hyphen_noun = re.match(r"-[a-z]", after) is not None
    noun = re.match(r" ([a-z]{3,20})\b", after)
    before_noun = hyphen_noun or (noun is not None and noun.group(1) not in _NOT_NOUNS)
    if whole:
        return numbers.mixed_number(int(whole), num, den, before_noun)
    spoken = numbers.fraction(num, den, hyphen_noun)
    if den in (2, 4) and num == 1 and (re.search(r"\b[Aa]n? $", m.string[max(0, m.start() - 3) : m.start()])
                                       or re.match(r"-[a-z]", m.string[m.end() : m.end() + 2])):
        # "a 1/4-inch bit" -> "a quarter-inch bit", "1/2-inch" -> "half-inch"; but "a 1/3 share" -> "a one third
        # share" and "a 1/8-inch gap" -> "a one eighth-inch gap" (not "a eighth")
        spoken = spoken.removeprefix("one ")
    return spoken


def _ordinal_range(m: re.Match[str]) -> str:
    """"1st-2nd" -> "first to second"; before a month, days: "1st–14th August" -> "the first to the fourteenth of
    August"."""
    if re.match(rf" (?:{alternation(tables.MONTHS)})\b", m.string[m.end() : m.end() + 12]):
        return f"the {ordinal(int(m.group(1)))} to the {ordinal(int(m.group('last')))} of"
    return f"{ordinal(int(m.group(1)))} to {ordinal(int(m.group('last')))}"


def _team_name(m: re.Match[str]) -> str:
    """"49ers" -> "forty-niners", "76ers" -> "seventy-sixers"."""
    words = cardinal(int(m.group(1)))
    return words + ("rs" if words.endswith("e") else "ers")


def _short_year(yy: int) -> str:
    """The last two digits of a year as said: 20 "twenty", 3 "oh three"."""
    return f"oh {cardinal(yy)}" if yy < 10 else cardinal(yy)


def _range(m: re.Match[str]) -> str:
    a, b = m.group(1), m.group(2)
    if m.group(0) in _HYPHEN_SPECIALS and previous_word(m.string, m.start()).lower() != "tied":
        return _HYPHEN_SPECIALS[m.group(0)]
    if " - " in m.group(0) and "=" in m.string:
        return f"{number(a)} minus {number(b)}"  # "5 - 3 = 2"
    if a.isdigit() and b.isdigit() and len(a) == 4 and len(b) == 4 and classify.is_year(int(a)) and classify.is_year(int(b)):
        return f"{year(int(a))} {times.range_word(m)} {year(int(b))}"
    if len(a) == 4 and len(b) == 2 and a.isdigit() and b.isdigit() and classify.is_year(int(a)):
        return f"{year(int(a))} to {_short_year(int(b))}"  # "2019-20", "2002-03" (to oh three)
    if (len(a) == len(b) == 3 and a.isdigit() and b.isdigit() and m.group(0)[3] == "-"
            and _CODE_WORDS.search(m.string) is not None):
        return f"{digits(a)}, {digits(b)}"  # "Use 604-118 to sign in": a one-time code, not a range
    if (_RECORD_AFTER.match(m.string, m.end()) or previous_word(m.string, m.start()).lower() == "record"
            or (_TEAM_BRACKET_BEFORE.search(m.string, max(0, m.start() - 30), m.start())
                and m.string.startswith(")", m.end()))
            or _TEAM_IS_BEFORE.search(m.string, max(0, m.start() - 40), m.start())
            or _RECORD_BEFORE.search(m.string, max(0, m.start() - 50), m.start())):
        return f"{number(a)} and {number(b)}"  # a win-loss record: "10-2 this season" -> "ten and two"
    if _tennis_set(m, a, b):
        return f"{number(a)} {number(b)}"  # "won 6-4, 3-6, 7-5" -> "six four, three six, seven five"
    return f"{number(a)} {times.range_word(m)} {number(b)}"


_SET_SCORE = r"[0-7][-–][0-7]"
# a list of sets ("6-4, 3-6"), or a tiebreak in brackets after a set ("7–6 (7–5)")
_SET_LIST = re.compile(rf"(?:^|[^\w.–-]){_SET_SCORE}(?:, | \()$|^, {_SET_SCORE}(?![\w–-])|^ \({_SET_SCORE}\)")
_SET_WORD = re.compile(r"\b(?:first|second|third|fourth|fifth|final|opening|deciding) set\b|\btiebreak")


def _is_set(a: str, b: str) -> bool:
    """A finished tennis set: 6 or 7 games to fewer ("6-4", "7-6", "3-6")."""
    return a != b and max(int(a), int(b)) in (6, 7)


def _tennis_set(m: re.Match[str], a: str, b: str) -> bool:
    """Tennis games in a set, read without "to" as commentators do: a list of finished sets ("6-4, 3-6"), or
    scores up to 7 in a sentence about a numbered set ("leads 6-3, 4-2 in the second set", "took the first set
    6-2")."""
    if not (a.isdigit() and b.isdigit() and len(a) == len(b) == 1 and int(a) <= 7 and int(b) <= 7):
        return False
    if _SET_WORD.search(m.string):
        return True
    before, after = m.string[max(0, m.start() - 6) : m.start()], m.string[m.end() : m.end() + 7]
    tiebreak = before.endswith(" (") and _SET_LIST.search(before) is not None  # "7–6 (7–5)": the tiebreak's points
    return tiebreak or _is_set(a, b) and (_SET_LIST.search(before) is not None or _SET_LIST.match(after) is not None)


# "The Yankees are 45-30": a team (a capitalized plural) standing at a record, not a score
_TEAM_IS_BEFORE = re.compile(r"\b[Tt]he (?:[A-Z][a-z]{2,20}s|[a-z]{3,7}-[a-z]{3,7}ers) "
                             r"(?:are|were|went|sit|stand|improved to|fell to|moved to) $")  # also "the 49ers"
# "They finished the season 48-34", "a record of 10-6": a season's win-loss record
_RECORD_BEFORE = re.compile(
    r"\b(?:finished|finish|finishes|ended|ends|end|closed|wrapped up|opened|started|began) (?:the|their|its|his|her|our)"
    r" (?:regular )?(?:season|year|campaign) (?:at )?$|\brecord (?:of|at|to) $"
)
# "The Bills (11-6) host ...": a team's win-loss record in brackets after its name
_TEAM_BRACKET_BEFORE = re.compile(r"\b[Tt]he (?:[A-Z][a-z]{2,20}s|[0-9]{2}ers) \($")
_CODE_WORDS = re.compile(r"\b(?:code|passcode|OTP|PIN|sign in|log in|login|verify|verification|2FA)\b", re.IGNORECASE)
_RECORD_AFTER = re.compile(r" (?:this|last|on the|in the) (?:season|year)\b| record\b")


_ERA_TEXT = re.compile(r"\b(?:A ?D|B ?C|B ?C ?E|C ?E)\b")
_ERA_YEAR_CUES = frozenset("in until till since by around circa c after before".split())
_GOLF_WORDS = re.compile(r"\b(?:bogey|bogeys|birdie|birdies|eagle|par|holes?|rounds?|leaderboard|putt)\b")
_TO_PAR_BEFORE = frozenset("at to is was on reached finished sits".split())


def _bare_number(m: re.Match[str]) -> str:
    sign, body = m.group(1) or "", m.group(2)
    if (sign and body.isdigit() and int(body) <= 30 and _GOLF_WORDS.search(m.string)
            and previous_word(m.string, m.start()).lower() in _TO_PAR_BEFORE):
        return f"{cardinal(int(body))} under"  # a golf score to par: "Scheffler is at -11 after two rounds"
    if (not sign and len(body) == 3 and body.isdigit() and _ERA_TEXT.search(m.string)
            and previous_word(m.string, m.start()).lower() in _ERA_YEAR_CUES and classify.CLAUSE_END.match(m.string, m.end(2))):
        return year(int(body))  # "sacked in AD 410 and again in 455": a year like the dated ones around it
    if not sign and len(body) == 4 and body.isdigit() and classify.year_at(m.string, m.start(2), m.end(2)):
        return year(int(body))  # the year class decides where a four-digit number is a year
    return number(sign + body)


# ----------------------------------------------------------------------------- abbreviations and letters


def _capital_follows(m: re.Match[str]) -> bool:
    return re.match(r" ?[A-Z]", m.string[m.end() : m.end() + 2]) is not None


def _title(m: re.Match[str]) -> str:
    word = m.group(1) or m.group(2)
    if word in tables.CASED_TITLES:  # "Sec. Blinken" (a name follows), not "Sec. A of the form" nor "Sec. Then"
        name = re.match(r" ([A-Z][a-z]+)", m.string[m.end() : m.end() + 24])
        return tables.CASED_TITLES[word] if name and name.group(1) not in tables.SENTENCE_STARTERS else m.group(0)
    if word not in tables.TITLES:
        return m.group(0)
    if word == "Dr" and not _capital_follows(m) and previous_word(m.string, m.start())[:1].isupper():
        return keep_period(m, "Drive")  # "Mulholland Dr."
    return tables.TITLES[word]


_NOT_STREET_NAMES = frozenset(tables.MONTHS) | frozenset(tables.WEEKDAYS)


def _saint_or_street(m: re.Match[str]) -> str:
    """"St. Louis" -> Saint; "Main St." -> Street (a capitalized word before it, inside a sentence), but not a
    month or a weekday: "On 12 May St Mary's" (a date, read "the twelfth of May" by now) is Saint."""
    before = m.string[max(0, m.start() - 40) : m.start()]
    name = re.search(r"[^.!?\s] ([A-Z][a-z]+) $", before)
    street_name = name is not None and name.group(1) not in _NOT_STREET_NAMES
    return "Saint" if _capital_follows(m) and not street_name else keep_period(m, "Street")


# Lower-case abbreviations also stand capitalized at the start of a sentence ("Approx. 50 people").
_ABBREVIATIONS = tables.ABBREVIATIONS | {
    k.capitalize(): v.capitalize() for k, v in tables.ABBREVIATIONS.items() if k.islower() and k.capitalize()
    not in tables.ABBREVIATIONS
}


def _street_word(m: re.Match[str]) -> str:
    """"Pennsylvania Ave NW" -> "Pennsylvania Avenue Northwest", "King St W" -> "King Street West": a street
    abbreviation written without its period after a name (not before one: "St Louis" is a saint)."""
    spoken = tables.STREET_ABBREVIATIONS[m.group(1)]
    direction = m.group(2)
    return spoken + (" " + tables.COMPASS[direction].capitalize() if direction else "")


def _compass(m: re.Match[str]) -> str:
    """"from the NW" -> "from the northwest", "moving NNW" -> "moving north-northwest"."""
    return f"{m.group(1)} {tables.COMPASS[m.group(2)]}"


def _abbreviation(m: re.Match[str]) -> str:
    spoken = _ABBREVIATIONS.get(m.group(1))
    if spoken in tables.WEEKDAYS and previous_word(m.string, m.start()).lower() in ("the", "a"):
        return m.group(0)  # "the Sun."
    return keep_period(m, spoken) if spoken else m.group(0)


_DOT_NEEDED = ("c", "p", "pp", "pg", "Max", "max", "Min", "Op", "Prop", "Cat", "Ep", "Pub")  # read as an abbreviation only with its period
_NUMBERED_NEEDS = tuple(
    sorted({k for k in tables.NUMBERED_ABBREVIATIONS if k not in _DOT_NEEDED} | {k + "." for k in _DOT_NEEDED})
)


def _numbered_abbreviation(m: re.Match[str]) -> str:
    """"p. 12" -> "page 12", "Fig. 3" -> "Figure 3", "Hwy 101" -> "Highway 101" (only before a number)."""
    word, dot = m.group(1), m.group(2)
    spoken = tables.NUMBERED_ABBREVIATIONS.get(word)
    if spoken is None or (word in _DOT_NEEDED and not dot) or (m.string.startswith("(", m.end()) and not dot):
        return m.group(0)  # "Eq. (3)": a bracketed number only after the period
    return spoken + " "


def _dotted_phrase(m: re.Match[str]) -> str:
    return tables.DOTTED_PHRASES[m.group(0).lower()]


def _dotted_letters(m: re.Match[str]) -> str:
    return keep_period(m, acronyms.letters(m.group(0).replace(".", "").upper()))


def _caps(m: re.Match[str]) -> str:
    return acronyms.speak_caps(m.group(0))


def _symbol(m: re.Match[str]) -> str:
    return f" {tables.SYMBOLS[m.group(0)]} "


_CLOCK = r"\d{1,2}(?::\d{2})?(?: ?[AaPp]\.?[Mm]\.?)?"


def _chat_word(written: str) -> str:
    """"2nite" -> "tonight", "Gr8" -> "Great": chat shorthand read as its word (capital kept; "EOD" in
    capitals -> "end of day")."""
    word = tables.CHAT_WORDS[written.lower()]
    return word.capitalize() if written[:1].isupper() and not written.isupper() else word


_NOT_YOU_BEFORE = frozenset("letter letters the a vowel an symbol variable".split())


def _chat_you(m: re.Match[str]) -> str:
    """Chat "u" -> "you" ("can u believe it"; not "the letter u", "u = 3", "10 u of insulin")."""
    before = m.string[max(0, m.start() - 3) : m.start()]
    if previous_word(m.string, m.start()).lower() in _NOT_YOU_BEFORE or re.search(r"\d ?$", before):
        return m.group(0)
    return "you"


def _see_you(m: re.Match[str]) -> str:
    """Chat "c u" -> "see you" (not "vitamin c u ...", "grade C u ...")."""
    if previous_word(m.string, m.start()).lower() in _NOT_SEE_BEFORE:
        return m.group(0)
    return "See you" if m.group(1) == "C" else "see you"


_NOT_SEE_BEFORE = frozenset("vitamin letter grade type class plan section part option the a".split())


def _weekday_pair(m: re.Match[str]) -> str:
    """"Tues & Thurs" -> "Tuesday and Thursday", "Sat/Sun" -> "Saturday and Sunday"."""
    if m.group(1) in tables.WEEKDAYS and m.group(2) in tables.WEEKDAYS:
        return m.group(0)
    first = tables.WEEKDAY_ABBREVIATIONS.get(m.group(1), m.group(1))
    second = tables.WEEKDAY_ABBREVIATIONS.get(m.group(2), m.group(2))
    joiner = "or" if " or " in m.group(0) else "and"
    return f"{first} {joiner} " + (keep_period(m, second) if m.group(3) else second)


_BARE_UNIT_WORDS = {"hrs": "hours", "mins": "minutes", "wks": "weeks", "mos": "months"}


def _bare_unit_word(m: re.Match[str]) -> str:
    """"Office hrs:" -> "Office hours": a unit written short with no number before it (capital kept)."""
    word = _BARE_UNIT_WORDS[m.group(1).lower()]
    return keep_period(m, word.capitalize() if m.group(1)[0].isupper() else word)


def _position(m: re.Match[str]) -> str:
    """"Page 3/10" -> "Page 3 of 10", "Question 4/25": a position in a sequence (the first not past the second)."""
    a, b = m.group(2), m.group(3)
    return f"{m.group(1)} {a} of {b}" if int(a) <= int(b) else m.group(0)


def _day_before_hours(m: re.Match[str]) -> str:
    """"Sat 10–4" -> "Saturday 10–4", "M–F 9–6" -> "Monday to Friday 9–6": opening hours (not "the Sun 5")."""
    if m.group("range"):
        return "Monday to Friday"
    if previous_word(m.string, m.start()).lower() in ("the", "a"):
        return m.group(0)
    return tables.WEEKDAY_ABBREVIATIONS[m.group("day")]


def _ordinal_weekday(m: re.Match[str]) -> str:
    """"1st & 3rd Mon" -> "... Monday": a weekday written short after an ordinal (or "every", "each")."""
    before = m.string[max(0, m.start() - 12) : m.start()]
    if not re.search(r"(?:\d(?:st|nd|rd|th)|\b(?:first|second|third|fourth|fifth|last|every|each)) $", before):
        return m.group(0)
    return tables.WEEKDAY_ABBREVIATIONS[m.group(1)]


_FX_NAMES = {"EUR": "euro", "USD": "dollar", "GBP": "sterling", "JPY": "yen", "CHF": "Swiss franc",
             "AUD": "Aussie dollar", "CAD": "Canadian dollar", "NZD": "New Zealand dollar", "CNY": "yuan"}
# Specials of acronyms.SPECIAL that the all-caps pass never sees: mixed or lower case ("iOS", "npm", "PCIe"), or
# with a slash ("CI/CD").
_MIXED_CASE_SPECIALS = tuple(k for k in acronyms.SPECIAL if not k.isupper() or "/" in k)

# Markdown a chatbot's answer leaves in the text: a link's address and the marks of emphasis, quotes and task
# boxes are not read ("[the docs](https://…)" -> "the docs", "**482913**" -> "482913", "- [x] Book flights")
_MARKDOWN_RULES: list[Rule] = [
    rule(r"\[([^\[\]\n]{1,200})\]\((?:https?://|www\.|/|\.{1,2}/|#)[^\s()]{0,500}\)", lambda m: m.group(1), "]("),
    rule(r"(?<![*\w])(\*\*|__|~~)(?=[^\s*_~])([^*_~\n]{1,300}?)(?<=[^\s*_~])\1(?![*\w]|\.\w)", lambda m: m.group(2),
         "**", "__", "~~"),
    rule(r"(?:^|(?<=\s))[-*+] \[[ xX]\] ", lambda m: "", "] "),
    rule(r"^(?:> ?)+(?=\S)", lambda m: "", ">"),
]

_PAIRED_CODES = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}


def _doubled_currency(m: re.Match[str]) -> str:
    """"$100 USD" -> "USD 100", "€92 EUR" -> "EUR 92": a sign and its own code, said once (other pairs stay)."""
    sign, amount, code = m.groups()
    return f"{code} {amount}" if _PAIRED_CODES[sign] == code else m.group(0)


def _stone(m: re.Match[str]) -> str:
    """"9 st 2 lb", "He weighs 12 st." -> stone: a body weight in the British unit (only where weight is the topic)."""
    return " stone" if re.search(r"\b(?:weigh\w*|lbs?|pounds)\b", m.string) else m.group(0)


# British and international abbreviations and forms the later passes do not know
_WORLD_RULES: list[Rule] = [
    rule(r"([$€£¥]) ?(\d[\d,]{0,15}(?:\.\d{1,2})?) (USD|EUR|GBP|JPY)\b", _doubled_currency, "USD", "EUR", "GBP", "JPY"),
    rule(r"(?<=\d) ?(?:pcm|p\.c\.m\.)(?!\w)", lambda m: " per calendar month", "pcm", "p.c.m."),
    rule(r"(?<=\d)(%?) ?p\.a\.(?=\s|$|[,;)])", lambda m: f"{m.group(1)} per annum", "p.a."),
    rule(r"\b([Ii])nc\.(?= (?:VAT|GST|tax|taxes|delivery|shipping|postage|P&P|p&p|fees)\b)",
         lambda m: "Including" if m.group(1) == "I" else "including", "nc."),
    rule(r"\b(Est|est)\.(?= (?:delivery|arrival|time|total|cost|wait|completion|shipping|value)\b)",
         lambda m: "Estimated" if m.group(1) == "Est" else "estimated", "st."),
    rule(r"(?<![\d°])(?<!\d )°([CF])\b", lambda m: " degrees " + ("Celsius" if m.group(1) == "C" else "Fahrenheit"), "°"),
    rule(r"(?<=\d) st\b(?= \d{1,2} ?lbs?\b|\.?\s*$|[,;)])", _stone, " st"),
    rule(r"(?<=\d) kr\b\.?", lambda m: " kroner" if re.search(r"Norw|Denmark|Danish|Copenhagen|Oslo", m.string)
         else " kronor", " kr"),
    rule(r"(?<![\w.])(\d{1,3})!(?= ?=)", lambda m: f"{m.group(1)} factorial", "!"),  # "5! = 120"
    rule(r"\bO\(([a-z0-9 ^*+·]{1,20})\)", lambda m: f"O of {m.group(1)}", "O("),  # "O(n log n)": big-O
    rule(r"(?<![\w*])(?:\*{2,4}[-. ]){1,3}(\d{4})\b", lambda m: numbers.digit_string(m.group(1)), "*"),  # "***-***-4821"
    rule(r"(?<=\bNHS )111\b", lambda m: "one one one", "NHS 111"),
    rule(r"(?<![\d.,])(\d{1,3}(?:\.\d)?) ?L/100 ?km\b", lambda m: f"{m.group(1)} liters per hundred kilometers", "L/100"),
]

_EARLY_RULES: list[Rule] = [
    *_MARKDOWN_RULES,
    *_WORLD_RULES,
    *classify.WORD_RULES,  # semiotic classes written without digits (roman numerals after a heading word)
    rule(rf"(?<![\w/-])(?:(?P<range>M ?[–-] ?F)|(?P<day>{alternation(tables.WEEKDAY_ABBREVIATIONS)}))(?= \d{{1,2}}(?::\d\d)?"
         r" ?(?:[ap]\.?m?\.?)? ?[–-] ?\d)", _day_before_hours, "–", "-"),
    rule(
        rf"(?<![\w@.])(?:[A-Za-z]{{2,10}}://|www\.){electronic.URL_CHARS}{{1,2000}}",
        electronic.url,
        "://", "www.", "WWW.",
        flags=re.IGNORECASE,
    ),
    rule(
        r"(?<![\w+*&-])(?<!\w\.)([A-Za-z0-9*][A-Za-z0-9._%+*&-]{0,63})@((?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24})(?![\w-]|\.\w)", electronic.email, "@"
    ),
    rule(
        rf"(?<![\w@.-])(?:[A-Za-z0-9-]{{1,63}}\.){{1,8}}(?:{electronic.TLDS})(?::\d{{2,5}})?(?![\w-]|\.\w)"
        rf"(?:/{electronic.URL_CHARS}{{0,2000}})?",
        electronic.url,
        ".",
        flags=re.IGNORECASE,
    ),
    *reference.NAME_RULES,
    rule(rf"(?<![\w./@-])([A-Za-z][\w-]{{0,63}})\.({alternation([*tables.FILE_EXTENSIONS, *electronic.UPPER_EXTENSIONS])})\b(?![.-]\w)",
         electronic.file_name,
         "."),
    # "(D-Mass.)": a party letter and an AP state abbreviation in news copy
    rule(rf"\(([DRI])-({alternation(tables.AP_STATES)})\.?\)", lambda m: f"({m.group(1)} {tables.AP_STATES[m.group(2)]})",
         "-"),
    # "near Tampa, Fla.": an AP state abbreviation after a place name and a comma
    rule(rf"\b([A-Z][a-z]{{2,20}}), ({alternation([k for k in tables.AP_STATES if k.isalpha()])})\.(?=\s|$|[,;:)])",
         lambda m: f"{m.group(1)}, " + keep_period(m, tables.AP_STATES[m.group(2)]), "."),
    # "f(x)", "g(2)": a function of one variable or number, read "f of x"
    rule(r"(?<![\w.'’])([fgh])\(([a-z]|\d{1,3})\)", lambda m: f"{m.group(1)} of {m.group(2)}", "("),
    # "J. Doe (ed.)": the editor of a collection
    rule(r"\((eds?)\.\)", lambda m: "(editors)" if m.group(1) == "eds" else "(editor)", "ed"),
    # "STARBUCKS #1234": a store number after a merchant name in capitals, digit by digit
    rule(r"(?<=[A-Z]{3} )#(\d{3,4})\b(?![.,]\d)", lambda m: f"number {numbers.digit_string(m.group(1))}", "#"),
    # "order #A-10293": a code after a number sign, letters then digits one by one (no hashtag has a hyphen)
    rule(r"(?<![\w#&])#([A-Z]{1,3})-(\d{3,12})\b(?![.,-]\d)"
         r"|(?:(?<=[Oo]rder )|(?<=[Tt]icket )|(?<=[Ii]nvoice )|(?<=[Bb]ooking ))#([A-Z]{1,2})(\d{3,12})\b(?![.,-]\d)",
         lambda m: f"number {acronyms.letters(m.group(1) or m.group(3))} {numbers.digit_string(m.group(2) or m.group(4))}",
         "#"),  # also "order #A1029" (glued, after a word that names the code)
    rule(r"(?<![\w#&])#([A-Za-z][A-Za-z0-9_]{0,100})", lambda m: f"hashtag {electronic.handle(m.group(1), True)}", "#"),
    rule(r"(?<![\w@])@([A-Za-z_][A-Za-z0-9_]{0,100})", lambda m: f"at {electronic.handle(m.group(1))}", "@"),
    *reference.DEV_RULES,
    rule(
        rf"\b(?:{alternation(_MIXED_CASE_SPECIALS)})\b|\bPh\.D\.?",
        lambda m: acronyms.SPECIAL.get(m.group(0), "P H D"),
        "Ph.D", *_MIXED_CASE_SPECIALS,
    ),
    rule(r"(?<![\w/])([yYqQmM])/\1(?![\w/])|\by-o-y\b", lambda m: _PERIOD_OVER[(m.group(1) or "y").lower()], "/", "-o-"),
    rule(r"§§ ?", lambda m: "sections ", "§§"),
    rule(rf"(?<![\w'’@#])({alternation(tables.CHAT_WORDS)})(?![\w'’])",
         lambda m: _chat_word(m.group(0)), flags=re.IGNORECASE),
    rule(rf"(?<![\w.])({alternation(tables.DOSING)})(?!\w)", lambda m: tables.DOSING[m.group(0)], "."),
    rule(r"(?<![\w'’@#.&/=+-])([Cc]) u(?![\w'’@&/=+-]|\.\w)", _see_you, " u"),
    rule(r"(?<![\w'’@#.&/=+-])u(?![\w'’@&/=+-]|\.\w)", _chat_you, "u"),
    rule(r"\b([Tt])xt(?= (?:me|u|you|him|her|them|us)\b)", lambda m: m.group(1) + "ext", "xt"),
    # "1st & 3rd Mon", "every Wed": a weekday written short after an ordinal
    rule(rf"\b({alternation(tables.WEEKDAY_ABBREVIATIONS)})\b\.?(?!['’]\w)", _ordinal_weekday,
         *tables.WEEKDAY_ABBREVIATIONS),
    # "Msg & data rates", "Avg pace": words written short in notifications and apps (not "MSG" in capitals)
    rule(r"\b([Mm]sg|[Aa]vg)(s?)\b\.?(?!\w)", lambda m: {"m": "message", "M": "Message", "a": "average",
                                                        "A": "Average"}[m.group(1)[0]] + m.group(2), "sg", "vg"),
    # "Tues & Thurs", "Sat/Sun": a pair of weekdays written short
    rule(rf"\b({alternation(tables.WEEKDAYS)}|{alternation(tables.WEEKDAY_ABBREVIATIONS)})\.? ?(?:&|and|or|/) ?"
         rf"({alternation(tables.WEEKDAYS)}|{alternation(tables.WEEKDAY_ABBREVIATIONS)})\b(?!['’]\w)(\.(?= [a-z]|[,;:)]))?",
         _weekday_pair,
         "&", "and", "or", "/"),
    # "tickets for Sat, who's in?", "closed Sat & Sun"
    rule(r"(?<=[a-z,] )Sat(?=[,.!?;]|\s*$| (?:&|and|or) Sun\b)", lambda m: "Saturday", "Sat"),
    rule(r"(?<=[a-z] )v\.? (?=[A-Z])", lambda m: "versus " if re.search(r"\b[A-Z][a-z]{1,30} $", m.string[
        max(0, m.start() - 32) : m.start()]) else m.group(0), "v"),  # Roe v. Wade
    rule(r"\b([A-G])#(?!\w)", lambda m: f"{m.group(1)} sharp", "#"),
    rule(r"\band/or\b", lambda m: "and or", "/"),
    rule(r" ?-{2,3} ?", lambda m: " — ", "--"),
    rule(r"\b1:1(?= w/| with [A-Z]| meeting| call| sync| chat)", lambda m: "one on one", "1:1"),  # "1:1 w/ Sam"
    rule(r"\bw/(?=\s)", lambda m: "with", "w/"),
    rule(r"(?<![\w.])(?:e\.g\.|i\.e\.|a\.k\.a\.|et al\.|w/o\b|[bm]\.sc\.)", _dotted_phrase, ".", "/", flags=re.IGNORECASE),
    # "½ full" arrives as "one half full" (symbols_unicode spells a lone ½): "half full", as "1/2 full" is read
    rule(rf"\b([Oo])ne half(?= {_HALF_WORDS}\b)", lambda m: "Half" if m.group(1) == "O" else "half", "ne half"),
    # weather apps: "H: 72° L: 55°" -> "High: ... Low: ..."
    rule(r"\b([HL]):(?= ?[-−]?\d{1,3} ?°)", lambda m: "High:" if m.group(1) == "H" else "Low:", "H:", "L:"),
    # a compass letter after a route number: "I-95 N" -> "I-95 North", "SR 520 W" -> "West"
    rule(rf"\b((?:{alternation(tables.ROAD_DESIGNATORS)})[- ]?\d{{1,3}}[A-Z]?) ([NSEW]|NB|SB|EB|WB)\b(?![&'’.-]?\w)",
         lambda m: f"{m.group(1)} {tables.COMPASS[m.group(2)[0]].capitalize()}{'bound' if len(m.group(2)) == 2 else ''}",
         " N", " S", " E", " W"),
    # a compass point after a distance or before a speed: "40 mi NE of", "Wind: SW 12 mph"
    rule(rf"(?<=\d )(mi|km|ft|m|miles|kilometers|feet|meters|nm) ({alternation(tables.COMPASS)})(?= of\b)",
         lambda m: f"{m.group(1)} {tables.COMPASS[m.group(2)]}", " of"),
    rule(rf"\b({alternation(tables.COMPASS)})(?= \d{{1,3}}(?: ?(?:-|–|to) ?\d{{1,3}})? ?(?:mph|km/h|kph|kt|kts|knots|m/s)\b)",
         lambda m: tables.COMPASS[m.group(1)], "N", "S", "E", "W"),
    # a spaced dash between a day or date and a weekday or month: "Sat, Jun 14 – Sun, Jun 15"
    rule(rf"(?<=\w) [–—-] (?=(?:{alternation(tables.WEEKDAYS)}|{alternation(tables.WEEKDAY_ABBREVIATIONS)}|"
         rf"{alternation(tables.MONTHS)}|{alternation(tables.MONTH_BY_ABBREVIATION)})\b)",
         lambda m: " to " if re.search(r"\d(?:st|nd|rd|th)?$", m.string[max(0, m.start() - 4) : m.start()]) else m.group(0),
         " – ", " — ", " - "),
    rule(r"\bMin\.(?= [a-z])", lambda m: "Minimum", "Min."),
    # "$AAPL": a cashtag, the ticker read without its dollar sign
    rule(r"(?<![\w$])\$([A-Z]{1,5})\b(?![.,]?\d)", lambda m: m.group(1), "$"),
    # "EUR/USD 1.08": a currency pair, said by its currencies' names (the rate after it is a plain number)
    rule(rf"\b({alternation(_FX_NAMES)})/({alternation(_FX_NAMES)})\b",
         lambda m: f"{_FX_NAMES[m.group(1)]} {_FX_NAMES[m.group(2)]}", "/"),
    rule(r"\bMk\.? (?=[IVXL]{1,6}\b|\d)", lambda m: "Mark ", "Mk"),  # "Spitfire Mk IX", "Mk. 2": a model's mark
    rule(r"\b([Nn])o\.(?= of\b)", lambda m: "Number" if m.group(1) == "N" else "number", "o. of"),  # "no. of items"  # "Min. payment" (not "10 min. walk")
    *dates.WORD_RULES,
    *reference.WORD_RULES,
    measures.BARE_UNIT_RULE,
]

# Time zones written after a 24-hour clock time ("1842 GMT").

_RACE_TIME_BEFORE = re.compile(r"(?:finished in|finishing in|won in|ran|clocked|in a time of|time of|record of|best of)"
                               r" $")


def _colon_pair(m: re.Match[str]) -> str:
    """"3:2" -> "three to two" (a ratio or a score), but "finished in 29:48" -> "twenty-nine forty-eight" (a race
    time in minutes and seconds: its first part is no hour of a clock)."""
    a, b = m.group(1), m.group(2)
    if previous_word(m.string, m.start()) in tables.BIBLE_BOOKS:
        return f"{cardinal(int(a))} {cardinal(int(b))}"  # "John 4:8" -> "John four eight": chapter and verse
    if len(b) == 2 and int(b) < 60 and (_RACE_TIME_BEFORE.search(m.string[max(0, m.start() - 20) : m.start()])
                                        or (int(a) > 24 and previous_word(m.string, m.start()) == "in")):
        if b == "00":
            return f"{cardinal(int(a))} minutes"
        return f"{cardinal(int(a))} {'oh ' + cardinal(int(b)) if b[0] == '0' else cardinal(int(b))}"
    if _ASPECT_AFTER.match(m.string, m.end()) or m.string[max(0, m.start() - 14) : m.start()].endswith("aspect ratio "):
        return f"{cardinal(int(a))} by {cardinal(int(b))}"  # "a 16:9 aspect ratio" -> "sixteen by nine"
    return f"{cardinal(int(a))} to {cardinal(int(b))}"


_ASPECT_AFTER = re.compile(r" aspect\b")


def _formula(m: re.Match[str]) -> str:
    """"H2SO4" -> "H two S O four", "CH4" -> "C H four": element symbols with counts, spelled (not "B2B")."""
    parts = re.findall(r"([A-Z][a-z]?)(\d*)", m.group(0))
    if (len(parts) < 2 or not any(n for _, n in parts) or any(e not in tables.ELEMENTS for e, _ in parts)
            or re.fullmatch(r"[BCP]2[BCP]", m.group(0))):
        return m.group(0)
    return " ".join(" ".join(e) + (f" {cardinal(int(n))}" if n else "") for e, n in parts)


def _section(m: re.Match[str]) -> str:
    """"§ 230" -> "section two thirty", "Section 1983" -> "Section nineteen eighty-three": a section number of three
    or four digits is said in pairs, like a statute's name."""
    word = "section" if m.group(1).startswith("§") else m.group(1).strip(" .")
    word = {"Sec": "Section", "sec": "section"}.get(word, word)
    return f"{word} {numbers.model_number(m.group(2))}"


_SHORT_NUMBER_WORDS = frozenset("one two six ten".split())


def _letters_power(m: re.Match[str]) -> str:
    """"E = mc^2" (or "mc squared", as "mc²" arrives) -> "m c squared": a product of letters raised to a power,
    in an equation only."""
    if "=" not in m.string:
        return m.group(0)
    if m.group(1) in _SHORT_NUMBER_WORDS:
        return m.group(0)  # "2³ = 8" arrives as "two cubed": a number, not the letters t w o
    power = (m.lastindex == 3 and m.group(3)) or ("squared" if m.group(2) == "2" else "cubed")
    return " ".join(m.group(1)) + " " + power


def _pack(m: re.Match[str]) -> str:
    """"2 x 400g tins" -> "two four hundred gram tins" (a count of packs of a size)."""
    return f"{number(m.group(1))} {number(m.group(2))} {tables.UNITS[m.group(3)][0]}"


_LANES_AFTER = re.compile(r" (?:slots?|lanes?|links?|cards?|mode)\b")
_PCIE_BEFORE = re.compile(r"PCIe|P C I E")


def _times_after(m: re.Match[str]) -> str:
    """"x2 daily" -> "times two" (not x86/x64, which are names); a PCIe lane width is "by": "a PCIe 4.0 x16 slot"
    -> "by sixteen"."""
    n = m.group(1)
    if n in ("86", "64", "32"):
        return m.group(0)
    lanes = n in ("1", "2", "4", "8", "16") and (
        _LANES_AFTER.match(m.string, m.end()) is not None or _PCIE_BEFORE.search(m.string, max(0, m.start() - 18), m.start()) is not None)
    return f"{'by' if lanes else 'times'} {cardinal(int(n))}"


_FLIGHT_WORDS = re.compile(r"\b(?:[Gg]ates?|[Bb]oard(?:s|ing)?|[Dd]epart(?:s|ed|ing|ure)?|[Aa]rriv(?:es|ed|ing|al)|"
                           r"[Ff]lights?|[Tt]erminal|[Ll]ands|[Ll]anded|[Dd]elayed|[Cc]ancell?ed|[Ll]ayover)\b")


def _flight_number(m: re.Match[str]) -> str:
    """"UA 857" -> "U A eight fifty-seven" (a flight number is said in pairs)."""
    return f"{acronyms.letters(m.group(1))} {numbers.model_number(m.group(2))}"


def _event_distance(m: re.Match[str]) -> str:
    """"the 1,500m" -> "the fifteen hundred meters" (a race distance, said in hundreds)."""
    hundreds = cardinal(int(m.group(1).replace(",", "")) // 100)
    noun = re.match(r" [a-z]", m.string[m.end() : m.end() + 2]) is not None and not re.match(
        r" (?:in|on|at|for|and|or|with|by|to|of|is|was|are|were|has|had|will|remains)\b", m.string[m.end() : m.end() + 9])
    return f"{hundreds} hundred {'meter' if noun else 'meters'}"


# Nouns counted in millions after a lower-case "m" ("1.3m people", "2m viewers"): the m is million, not meters.
_MILLION_NOUNS = (
    "people|residents|users|viewers|subscribers|customers|visitors|voters|votes|jobs|homes|households|copies|"
    "downloads|followers|tourists|passengers|children|workers|patients|refugees|deaths|cases|barrels|shares|"
    "units|vehicles|cars|streams|views|listeners|members|employees|students|migrants|doses|tickets|fans|accounts"
)


def _space_thousands(m: re.Match[str]) -> str:
    """"40 000 fans" -> "40000 fans": a space as the thousands separator (read by the later passes)."""
    return m.group(0).replace(" ", "")


# Verbs after which a lower-case "no." is the answer no ending a sentence ("He said no. 5 people agreed").
_ANSWER_VERBS = frozenset("said say says saying answered answers replied replies voted votes shouted told".split())


def _number_sign(m: re.Match[str]) -> str:
    """"No. 5", "room no. 12", "#3" -> "number ..."; not the answer "no." after a verb of saying."""
    if m.group(0).startswith("no.") and previous_word(m.string, m.start()).lower() in _ANSWER_VERBS:
        return m.group(0)
    return "number "


def _indian_grouping(m: re.Match[str]) -> str:
    """"₹1,50,000" -> "one lakh fifty thousand rupees", "12,34,567" -> "twelve lakh thirty-four thousand five
    hundred sixty-seven": digits grouped in twos above the thousands are counted in lakhs and crores."""
    value = int(m.group("n").replace(",", ""))
    crore, lakh, rest = value // 10**7, value // 10**5 % 100, value % 10**5
    parts = [f"{cardinal(crore)} crore" if crore else "", f"{cardinal(lakh)} lakh" if lakh else "",
             cardinal(rest) if rest else ""]
    spoken = " ".join(p for p in parts if p)
    if m.group("cur"):
        spoken += " rupees" if value != 1 else " rupee"
        if m.group("paise") and int(m.group("paise")):
            spoken += f" and {cardinal(int(m.group('paise')))} paise"
    return spoken


def _european_amount(m: re.Match[str]) -> str:
    """"€1.234,56" -> "€1234.56", "12,50 €" -> "12.50 €": a dot between thousands and a decimal comma (the
    continental way of writing amounts), rewritten for the money passes."""
    return m.group(1).replace(".", "").replace(" ", "") + "." + m.group(2)


# Numbers written in other countries' conventions, rewritten or read before the money and measure passes
_NUMBER_FORMAT_RULES: list[Rule] = [
    rule(r"(?P<cur>₹ ?|\bRs\.? ?|\bINR ?)?(?<![\d,.])(?P<n>[1-9]\d?(?:,\d\d)+,\d{3})(?:\.(?P<paise>\d\d))?(?![\d,]|\.\d)",
         _indian_grouping, ","),
    rule(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})*|\d{1,6}),(\d{2}) ?€", lambda m: "€" + _european_amount(m), "€"),
    rule(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+),(\d{2})(?![\d,.])", _european_amount, ","),
    # "1300 655 506" (an Australian business number), "01 234 5678" (a Dublin line): digit groups of a phone number
    rule(r"(?<![\w.,+-])(1[38]00) (\d{3}) (\d{3})(?![\w-]|[.,]\d)|(?<![\w.,+-])(0[1-9]) (\d{3}) (\d{4})(?![\w-]|[.,]\d)",
         lambda m: ", ".join(digits(g) for g in m.groups() if g), " "),
    # "0,8 %", "324,5 m", "8,9 million": a decimal comma before a percent, a scale or a metric unit
    rule(r"(?<![\d.,])(\d{1,3}),(\d)(?= ?(?:%|(?:percent|million|billion|trillion|m|km|cm|mm|kg|g|t|l|L|ha)\b))",
         lambda m: f"{m.group(1)}.{m.group(2)}", ","),
    # "CHF 1'250.00": an apostrophe between thousands (Swiss usage)
    rule(r"(?<![\w'’.])(\d{1,3})((?:['’]\d{3})+)(?=\.\d|\b)(?![’']\d)",
         lambda m: m.group(1) + m.group(2).replace("'", "").replace("’", ""), "'", "’"),
]


_NUMBER_RULES: list[Rule] = [
    codes.TEL_RULE,
    dates.MONTH_RANGE_RULE,
    money.SHILLINGS_RULE,  # "£2 10s 6d": before the money class reads "£2"
    *classify.RULES,  # semiotic classes in every written form: classify, then verbalize
    # "2x XP weekend": a game's doubled reward; "Agent 007": the spy's number as everyone says it
    rule(r"(?<![\w.])([23])[x×] (?=(?:XP|EXP|xp|exp|[Dd]rops|[Ll]oot|[Cc]oins|[Pp]oints|[Rr]ewards|[Dd]amage)\b)",
         lambda m: ("double " if m.group(1) == "2" else "triple ") if m.start() else
         ("Double " if m.group(1) == "2" else "Triple "), "x ", "× "),
    rule(r"\b(Agent|agent|Bond|James Bond) 007\b", lambda m: f"{m.group(1)} double oh seven", "007"),
    rule(r"~ ?(?=\d)", lambda m: "about ", "~"),
    rule(rf"(?<![\w.])(?:({NUM}) ?[x×] ?)?10\^([-−]?\d{{1,3}})"
         rf"(?: ?({_ANY_UNIT}|{_SCIENCE_UNIT})(?:/({_ANY_UNIT}))?(?![\w/^]))?",
         _exponent, "^"),
    rule(r"(?<=\w) ([-−]) (?=\d)", _minus, " - ", " − "),
    # "x^2", "3^4"; not "20 m^2" nor "per m^2" (units: measures)
    rule(r"(?<![\w.^/])(\d{1,4}(?:\.\d{1,3})?|(?<!\d )(?<!per )(?<!million )(?<!billion )(?<!thousand )[a-z])\^(\d{1,2})(?!\d|\.\d)", _power, "^"),
    rule(rf"(?<![\w.#])(\d{{1,3}}(?:\.\d{{1,6}})?)[eE]([-+−]?\d{{1,3}})(?!\w|\.\d)"
         rf"(?: ?({_ANY_UNIT}|{_SCIENCE_UNIT})(?:/({_ANY_UNIT}))?(?![\w/^]))?", _e_notation, "e", "E"),
    # "1,000s of people" -> "thousands of people" (not "1,000 seconds")
    rule(r"(?<![\w.,])(10|100|1,?000|10,?000|100,?000|1,?000,?000|1,?000,?000,?000)s(?= of\b)",
         lambda m: _ROUND_PLURALS[m.group(1).replace(",", "")], "0s of"),
    *reference.RULES,
    *codes.PHONE_RULES,
    # "hold the plank for 60s", "Wait 30s", "Timeout: 30s": seconds after a duration word, not a decade ("in the
    # 60s", "her 60s"); "a 30s timeout": a thirty-second timeout
    rule(rf"\b({_SECONDS_CUES})(:?) (\d{{1,3}})s\b(?!['’])|{_IN_SECONDS}",
         _seconds_after_cue, "s"),
    rule(rf"(?<![\w.,'’$€£¥])(\d{{1,3}})s (?=(?:{classify.SECONDS_NOUNS})\b)",
         lambda m: f"{numbers.whole_number(m.group(1))}-second ", "s "),
    # "Mozart's Symphony No. 40, K. 550": a Köchel number, read in pairs like a catalogue number
    rule(r"(?:(?<=, )|(?<=\())K\. ?(\d{1,3})\b(?![.,]\d)", lambda m: f"K {numbers.model_number(m.group(1))}", "K."),
    rule(r"(?=\d)(?<![\w.,])(\d{1,3})ers\b", _team_name, "ers"),
    rule(r"\b(batted|batting|bats|bat|hitting|hit|hits|averaged|average|average of) \.(\d{3})\b"
         r"|(?<![\w.])\.(\d{3})(?= (?:hitter|record|winning percentage|batting average|slugging|on-base)\b)",
         lambda m: (m.group(1) + " " if m.group(1) else "") + numbers.model_number(m.group(2) or m.group(3)), "."),
    rule(r"\b([Ss]izes?) (\d{1,2})\.5\b", lambda m: f"{m.group(1)} {cardinal(int(m.group(2)))} and a half",
         "size", "Size"),
    rule(r"(?<![\w.])(\d{1,2}) ?[x×] ?(\d{1,4}(?:\.\d{1,2})?) ?(g|kg|ml|mL|cl|L|oz|lb)(?= [a-z])", _pack, "x", "×"),
    rule(r"(?<![\w.])(\d{1,3}) [x×] (?=[A-Z])", lambda m: number(m.group(1)) + " ", "x", "×"),
    rule(r"(?<![\w.'′\"″-])[x×](\d{1,2})(?!\w|[.,]\d)", _times_after, "x", "×"),
    rule(r"\b(Flight|flight|Train|train|connection|Bus|bus|Ferry|ferry|service)(,? )([A-Z]{2,3}) (\d{1,4})\b(?![.,]\d)",
         lambda m: m.group(1) + m.group(2) + acronyms.letters(m.group(3)) + " " + numbers.model_number(m.group(4)),
         "light", "rain", "connection", "us", "erry", "service"),
    # "Gate change: UA 857 now departs from G91": an airline's code and a flight number, without "Flight"
    rule(rf"\b({alternation(tables.AIRLINE_CODES)}) (\d{{1,4}})\b(?![.,]\d|\w)",
         lambda m: _flight_number(m) if _FLIGHT_WORDS.search(m.string) else m.group(0), *tables.AIRLINE_CODES),
    rule(r"(?<![\w.])(\d{3,4}[pi]|[48]K)/(?=\d{2,3} ?fps\b)", lambda m: m.group(1) + " ", "/"),  # 720p/30 fps
    rule(r"(?<=\b[Tt]he )(1,?[1-9]00) ?(?:m|meters|metres)\b(?![/.]\w)", _event_distance, "the", "The"),
    # "10W-30 oil": a motor oil's viscosity grade, "ten W thirty"
    rule(r"(?<![\w.-])(0|5|10|15|20|25)W-(\d{2})\b(?!-\w)",
         lambda m: f"{cardinal(int(m.group(1)))} W {cardinal(int(m.group(2)))}", "W-"),
    # "a 1-2 punch": the boxer's one-two, not a range
    rule(r"\b1[-–]2(?= (?:punch|punches|combo|combination|finish)\b)", lambda m: "one two", "1-2", "1–2"),
    rule(r"(?<![\w.])(\d{1,2})K(?= (?:race|races|run|runs|runners|walk|fun run|course|event|trail|swim)\b)",
         lambda m: f"{cardinal(int(m.group(1)))} K", "K "),  # "the 10K race": a distance, not ten thousand
    # "Rx #6543210": five or more digits after a number sign are a code, digit by digit ("#1", "#57" are numbers)
    rule(r"#(\d{5,20})\b(?![.,]\d)", lambda m: f"number {numbers.digit_string(m.group(1))}", "#"),
    rule(r"(?:\b[Nn]o\.|#) ?(?=[A-Z]{0,3}-?\d)", _number_sign, "o.", "#"),
    *codes.DIGIT_CUE_RULES,
    rule(r"(?<![\w.-])(?=[A-Z][A-Za-z]{0,8}\d)(?:[A-Z][a-z]?\d{0,3}){2,10}(?![\w-])", _formula),  # "H2SO4", "CH4"
    rule(r"(§ ?|\b[Ss]ection |\bSec\.? ?|\bsec\. ?)(\d{3,4})(?![\w.,]\d|[\w-])", _section, "§", "ection", "ec"),
    # "4.7 kΩ" arrives from the symbol pass as "4.7 k ohms"
    rule(r"(?<=\d) ?([kM]) +ohms\b", lambda m: " kilohms" if m.group(1) == "k" else " megohms", "ohms"),
    rule(r"(?<![\w.^/])([a-z]{2,3})\^([23])(?!\d)", _letters_power, "^"),  # before the unit powers read "c^2"
    rule(r"\b(401|403|457)\(([kb])\)", lambda m: f"{numbers.model_number(m.group(1))} {m.group(2)}", "("),
    rule(r"\b(first|second|third|next|last|(?:ran|run|running|jogged|walked|raced|finished|did|won) "
         r"(?:a|an|the|my|his|her|their|our|another|this)) (\d{1,2})K\b",
         lambda m: f"{m.group(1)} {cardinal(int(m.group(2)))} K", "K"),  # "my first 10K": a race, not ten thousand
    rule(r"\b([A-Za-z]{1,4})(\.?) ?(?=\d|\(\d)", _numbered_abbreviation, *_NUMBERED_NEEDS),
    rule(r"\b([BCP])2([BCP])\b", lambda m: f"{m.group(1)} to {m.group(2)}", "2"),
    *codes.CODE_RULES[:4],
    # "40 000 fans", "1 500 000 people": groups of three digits after a space, before a word (codes are read above)
    rule(r"(?=[1-9])(?<![\w.,:+/#-])(?<!\d )[1-9]\d{0,2}(?: \d{3}){1,4}(?= [a-z%]| ?[€$£])", _space_thousands, " "),
    # "1.3m people": a lower-case m before counted people or things is million
    rule(rf"(?=\d)(?<![\w.])({NUM})m(?= (?:{_MILLION_NOUNS})\b)", lambda m: f"{number(m.group(1))} million", "m "),
    # "a .45-caliber handgun": a caliber in hundredths of an inch, said as a number
    rule(r"(?<![\w.])\.(\d{2,3})(?=[- ](?:caliber|calibre|cal)\b)", lambda m: cardinal(int(m.group(1))), "cal"),
    # "2nd Fl.": a floor after an ordinal; "after Rd. 14": a round (a road's number follows its name)
    rule(r"(?<=\d(?:st|nd|rd|th) )(?:Fl|Flr)\b\.?", lambda m: keep_period(m, "Floor"), "Fl"),
    rule(r"\b(after|in|before|from|during|through|for|of) Rd\.? (?=\d)", lambda m: f"{m.group(1)} Round ", "Rd"),
    rule(rf"\b({alternation(tables.POSITION_WORDS)}) (\d{{1,3}})/(\d{{1,3}})(?![\w/]|\.\d)", _position, "/"),
    *dates.RULES,
    rule(r"(?=\d)(?<![\w/.])(\d{2,3})/(\d{2,3})(?![\w/]|\.\d)( ?mmHg\b)?", _blood_pressure, "/"),
    rule(r"(?=\d)(?<![\w/.,])(\d{1,3}(?:\.\d)?)/(5|10|100)(?![\w/]|\.\d| of\b| ?(?:[kMG]?Hz|V|W)\b)", _rating, "/"),
    rule(r"(?=\d)(?<![\w/.,])(\d{1,3})/(\d{2,3})(?![\w/]|\.\d| of\b)", _score_out_of, "/"),
    # "1:50,000", "a 1:25000 map": a map or model scale (no clock has thousands after its colon)
    rule(r"(?=\d)(?<![\w:.,])1 ?: ?(\d{1,3}(?:,\d{3})+|\d{4,7})(?![\d:,]|\.\d)",
         lambda m: f"one to {number(m.group(1))}", ":"),
    # "at 10.15", "the 06.52 from Reading", "9.30–17.30", "15.00 GMT": a British clock time written with a dot
    rule(r"(?=\d)(?<![\w.,:$€£¥#+-])([01]?\d|2[0-3])\.([0-5]\d)(?![\d%]|[.,]\d| ?(?:[AaPp]\.? ?[Mm]\b|[ap]\b))",
         times.dot_time, "."),
    # times
    rule(rf"(?=\d)(?<![\w:.])({_CLOCK}) ?[-–—] ?(?=({_CLOCK})(?!\w|:\d))", times.time_range, "-", "–", "—"),
    # "9a-9p", "10a-6p": opening hours with the bare letters of a calendar
    rule(r"(?=\d)(?<![\w:.])(\d{1,2})([ap]) ?[-–] ?(\d{1,2})([ap])\b(?![\w'’])",
         lambda m: f"{cardinal(int(m.group(1)))}{times.meridiem(m.group(2))} to {cardinal(int(m.group(3)))}{times.meridiem(m.group(4))}",
         "a", "p"),
    # "7am-noon", "10pm-midnight"
    rule(rf"(?=\d)(?<![\w:.])({_CLOCK}) ?[-–—] ?(?=(?:noon|midnight)\b)", lambda m: f"{m.group(1)} to ", "noon", "midnight"),
    rule(r"(?=\d)(?<![\w:.])(\d{1,2}):([0-5]\d)\.(\d{1,3})(?![\d:]|\.\d)", times.race_hundredths, ":"),
    # "Avg pace: 5:12 /km", "8:45 min/mi": a running pace, minutes and seconds per distance
    rule(r"(?<=\d:[0-5]\d) ?(?:min)? ?/ ?(km|mi|mile)\b", lambda m: " per kilometer" if m.group(1) == "km" else " per mile",
         "/"),
    times.TIME_RULE,  # the time class: clock times, hours with a meridiem, 24-hour "0930 hours", "21h00"
    rule(
        r"(?=\d)(?<![\w:.])(\d{1,3}):(\d{1,3})(?![\d:])",
        _colon_pair,
        ":",
    ),
    measures.PER_RULE,
    *_NUMBER_FORMAT_RULES,
    classify.MONEY_RULE,  # the money class, after the number-format passes ("€2.150,75")
    *money.RULES,
    *measures.RULES,
    *codes.CODE_RULES[4:],
    # fractions: "3/4", "2 1/2", "1/100th" and "1/4TH" (the denominator's ordinal ending written on it)
    rule(r"(?=\d)(?<![\w/.])(?:(\d{1,6}) )?(\d{1,6})/(\d{1,7})(?:(?P<suffix>(?i:st|nd|rd|th))\b|(?![\w/]|\.\d))",
         _fraction, "/"),
    # ordinals: "21st", "1,000TH", and ranges of them "1st-2nd", "1st–14th August"
    rule(
        r"(?=\d)(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d{1,15})(?:st|nd|rd|th|ST|ND|RD|TH)\b"
        r"(?: ?[-–] ?(?P<last>\d{1,4})(?:st|nd|rd|th)\b)?",
        _ordinal,
        "st", "nd", "rd", "th", "ST", "ND", "RD", "TH",
    ),
    # number signs, ranges and scores
    rule(rf"(?=\d)(?<![\w.,-])({NUM})(?:-| ?[–—] ?| - )({NUM})(?![\w-]|[.,]\d)", _range, "-", "–", "—"),
    # letters glued to digits: MP3, 4K
    rule(r"[A-Za-z](?=\d)|\d(?=[A-Za-z])", lambda m: m.group(0) + " "),
    # plain numbers and years
    rule(r"(?=[\d.−-])(?<![\w.])(?:(?<![\w)\]%])([-−]))?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?!\w)", _bare_number),
    # whatever digits are left (odd chains such as "1.1.1.1..."), digit by digit and bounded
    rule(r"\d{1,10000}", lambda m: f" {numbers.digit_string(m.group(0))} "),
]

_LATE_RULES: list[Rule] = [
    rule(r"(?<![\w.^/])([a-z]{2,3})(?:\^([23])(?!\d)| +(squared|cubed)\b)", _letters_power, "^", "squared", "cubed"),
    rule(r"\b([A-Z][a-z]{1,3})\.(?= )|\b(Mr|Mrs|Ms|Dr|Prof)\b(?= [A-Z])", _title, ".", "Mr", "Ms", "Dr", "Prof"),
    rule(rf"(?<=[A-Za-z0-9] )({alternation(tables.STREET_ABBREVIATIONS)})(?:\.? ({alternation(tables.COMPASS)}))?(?=[,;)]|$|\.?$)",
         _street_word, *tables.STREET_ABBREVIATIONS),
    rule(r"\b(Mt|Ft)(?= [A-Z][a-z])", lambda m: tables.TITLES[m.group(1)], "Mt", "Ft"),
    rule(rf"\b(the|from|toward|towards|moving|heading|blowing|winds) ({alternation(k for k in tables.COMPASS if len(k) > 1)})"
         r"\b(?![&'’.-]\w)", _compass, "N", "S", "E", "W"),
    rule(rf"\b({alternation(k for k in tables.COMPASS if len(k) > 1)})(?= (?:winds?|breezes?|gusts?|swells?)\b)",
         lambda m: tables.COMPASS[m.group(1)], "N", "S", "E", "W"),  # "NW winds at 15 km/h"
    rule(r"\b(Qty|qty)\b\.?", lambda m: "Quantity" if m.group(1)[0] == "Q" else "quantity", "ty"),
    rule(r"\b(Thx|thx|THX)\b", lambda m: "Thanks" if m.group(1)[0] == "T" else "thanks", "hx", "HX"),
    rule(r"\b([Tt])hru\b", lambda m: m.group(1) + "hrough", "hru"),
    rule(r"\b([A-G])b(?= (?:major|minor)\b)", lambda m: f"{m.group(1)} flat", "b "),  # "Eb major": a flat key
    # "Blood type: O+" -> "O positive"
    rule(r"\b([Bb]lood (?:type|group):?) (AB|A|B|O) ?([+−-])(?![\w+])",
         lambda m: f"{m.group(1)} {m.group(2)} {'positive' if m.group(3) == '+' else 'negative'}", "lood"),
    rule(r"\bapt\.(?= [a-z])", lambda m: "apartment", "apt."),  # "Studio apt. for rent" (not "it was apt.")
    rule(r"\b(bath|baths|bedroom|studio|furnished) apt\b\.?", lambda m: keep_period(m, f"{m.group(1)} apartment"), "apt"),
    rule(r"\b([Hh]rs|[Mm]ins|[Ww]ks|[Mm]os)\b\.?(?=[\s:;,)]|$)", _bare_unit_word, "rs", "ins", "ks", "os"),
    rule(r"\b([Tt]he|an|on|my|her|his|their|your|our) (P?SAT|ACT)(s?)\b(?!['’]\w)",
         lambda m: f"{m.group(1)} {acronyms.letters(m.group(2))}{m.group(3)}", "SAT", "ACT"),  # "the SAT": the test
    # "(i) and (ii)", "(iv)": lower-case numerals as list labels (not in a list of letters: "(h), (i), (j)")
    rule(r"(?<![\w)])\((i{1,3}|iv|vi{0,3}|ix|x)\)(?!\w)", roman.roman_label, "(i", "(v", "(x"),
    # "step iv", "stage ii": a lower-case cue word before a numeral of two letters or more, or a lone v or x
    # where such a numeral is also written ("Step iv is optional; step v is not")
    rule(rf"\b({alternation(roman.LOWER_ROMAN_CUES)}) ([ivx][ivxl]{{1,6}}|[vx])\b(?![.'’]?\w)", roman.lower_cue_roman,
         " i", " v", " x"),
    rule(rf"\b({alternation(tables.ROMAN_CARDINAL_CUES)}) ([ivxlc]{{1,7}})\b(?![.'’]?\w)", roman.lower_roman,
         " i", " v", " x"),
    rule(r"(?<=\bthe )([IVXL]{1,7})(?= (?:century|centuries|millennium)\b)",
         roman.roman_century, "the I", "the V", "the X"),
    rule(r"\b([A-Z][a-z]+(?:[A-Z][a-z]+)?) ([IVXLC]{2,7}|[IVX](?![.]\s?[A-Z]))\b(?=['’]s\b|(?![a-z'’]))", roman.name_numeral,
         "I", "V", "X", "L", "C"),
    rule(r"\bSt\.|\bSt\b(?= [A-Z])", _saint_or_street, "St"),
    rule(r"\b([A-Za-z]{2,6})\.", _abbreviation, "."),
    rule(r"\bvs\b", lambda m: "versus", "vs"),
    rule(r"(?<![\w.])(?:[A-Za-z]\.){2,12}(?![\w])", _dotted_letters, "."),
    rule(r"(?<![\w'’])([a-z])([A-Z]{2,5})(?![\w'’])", lambda m: f"{m.group(1)} {acronyms.letters(m.group(2))}"),
    rule(
        r"(?<![A-Za-z0-9'’&])[A-Z](?:[A-Z]|&(?=[A-Z])){1,30}(?:s|'s|’s)?(?![A-Za-z0-9&]|['’][A-Za-z])", _caps
    ),
    rule("[" + re.escape("".join(tables.SYMBOLS)) + "]", _symbol),
    rule(r"\^([23])", lambda m: " squared " if m.group(1) == "2" else " cubed ", "^"),
    rule("[" + re.escape(tables.DROPPED_SYMBOLS) + "]", lambda m: " "),
]

# Each list runs as one: a scan for the triggers of all its passes, then the passes triggered (passes.py).
_EARLY_PASSES = PassList(_EARLY_RULES)
_NUMBER_PASSES = PassList(_NUMBER_RULES)
_LATE_PASSES = PassList(_LATE_RULES)
