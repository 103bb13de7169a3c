"""Numbers that are names, not quantities: phone numbers, account and order numbers, card numbers, model
numbers, versions. Each is read the way people say it.

- phone numbers the telephone class (``classify``) leaves: after a cue word (``"call me at 555 0199"``), vanity
  numbers (``"1-800-FLOWERS"``), bare seven-digit numbers, ``"ext. 12"`` -> ``"extension one two"``, 911, short
  codes; the digit groups themselves ("+1 (555) 123-4567", "020 7946 0958") are the class's;
- codes after a word that names them (ZIP, PIN, account, order, serial, tracking, ...) digit by digit;
  runs of four-digit groups (card numbers) in their groups; mixed letter-digit codes character by character;
- model numbers in pairs: ``"Boeing 737"`` -> ``"Boeing seven thirty-seven"``, ``"A380"`` -> ``"A three
  eighty"``, ``"F-16"`` -> ``"F sixteen"``, ``"221 Baker Street"`` -> ``"two twenty-one Baker Street"``;
- versions: ``"Python 3.12"`` -> ``"Python three point twelve"``, ``"v1.2.3"`` -> ``"version one point two point
  three"``.
"""

from __future__ import annotations

import re

from onestep.frontend.en import acronyms, tables
from onestep.frontend.en.classify import Telephone, verbalize_telephone
from onestep.frontend.en.numbers import cardinal, digit_string, digits, model_number, number
from onestep.frontend.en.rules import Rule, alternation, at_sentence_start, previous_word, rule

# Words that name a code on their own ("ZIP 90210", "account 12345678"), and words that do so only with
# "number", "no.", "#", "ID" or "code" after them ("order #12345", not "an order of 10000 units").
_CODE_CUES = r"zip|zip code|postcode|post code|pin|account|serial|tracking|confirmation|invoice|reference|ref|" \
             r"policy|passport|routing|id|code|passcode|p\.? ?o\.? box"
_NAMED_CODE_CUES = r"order|card|ticket|booking|customer|member|case|claim|patient|student|employee|flight"
_CODE_NEEDS = ("zip", "pin", "post", "account", "serial", "tracking", "confirmation", "invoice", "ref", "policy",
               "passport", "routing", " id", "id ", "id:", "num", "no.", "code", "#", "box", "order", "ticket",
               "booking", "case", "claim")
# A named code cue after a determiner or preposition is a noun ("for order 7734", "your ticket 55012"), not the
# verb ("order 1500 units"): four digits are enough there.
_DETERMINED_CUES = r"for|your|my|this|on|about|with|regarding"
_PHONE_CUES = r"call|phone|tel|telephone|dial|fax|text|mobile|cell|reach|number|hotline|line"


def _phone_groups(groups: list[str], plus: bool) -> str:
    return verbalize_telephone(Telephone(tuple(groups), plus=plus, toll_free=True))


def _phone(m: re.Match[str]) -> str:
    body = m.group("phone")
    groups = re.findall(r"\d+", body)
    prefix = m.groupdict().get("cue") or ""
    return prefix + _phone_groups(groups, body.startswith("+"))


def _vanity_phone(m: re.Match[str]) -> str:
    """"1-800-FLOWERS" -> "one, eight hundred, flowers"; "1-800-273-TALK" -> "one, eight hundred, two seven
    three, talk"; "1-877-SEE-SHOW" -> "one, eight seven seven, see show" (the letters may be two words)."""
    one = "one, " if m.group(0).startswith("1-") else ""
    exchange = f", {digits(m.group(2))}" if m.group(2) else ""
    return f"{one}{_phone_groups([m.group(1)], False)}{exchange}, {m.group(3).lower().replace('-', ' ')}"


def _bare_local_phone(m: re.Match[str]) -> str:
    """"555-1234" -> "five five five, one two three four" (no cue needed); a range of round numbers
    ("200-1500") stays for the range pass."""
    first, second = m.group(1), m.group(2)
    if second[0] != "0" and int(first) % 10 == 0 and int(second) % 10 == 0:
        return m.group(0)
    return f"{digits(first)}, {digits(second)}"


_QUANTITY_AFTER = re.compile(rf" ?(?:%|(?:thousand|million|billion|trillion|percent|{alternation(tables.UNITS)})\b)")


def _nine_one_one(m: re.Match[str]) -> str:
    """The emergency number, except after a model name ("Porsche 911") and before a scale word, a percent sign
    or a unit ("911 million kg": a quantity)."""
    if _QUANTITY_AFTER.match(m.string, m.end()):
        return m.group(0)  # left to the number passes
    return "nine eleven" if previous_word(m.string, m.start()) in tables.MODEL_NAMES else "nine one one"


def _extension(m: re.Match[str]) -> str:
    return _extension_digits(m.group(1))


def _extension_digits(written: str) -> str:
    return f", extension {digits(written)}"


# The words before a code that name it, up to the code itself (searched backwards from each digit run).
_CODE_CUE_BEFORE = re.compile(
    rf"(?:\b(?:{_CODE_CUES})\b(?: (?:number|no\.?|code|num|ID|#))?|"
    rf"\b(?:{_NAMED_CODE_CUES}) (?:number|no\.?|code|num|ID)\b|\b(?:{_NAMED_CODE_CUES}) ?(?=#)|"
    rf"(?P<determined>\b(?:{_DETERMINED_CUES}) (?:order|ticket|booking|case|claim)(?= $)))"
    r"(?::? ?(?:is |was |are )?#? ?)$",
    re.IGNORECASE,
)


def _code(m: re.Match[str]) -> str:
    """"ZIP code 90210" -> "ZIP code nine zero two one zero"; groups of a spaced code keep their pauses."""
    code = m.group("code")
    window = m.string[max(0, m.start() - 32) : m.start()]
    cue_match = _CODE_CUE_BEFORE.search(window) if any(n in window.lower() for n in _CODE_NEEDS) else None
    if cue_match is None:
        return code
    cue = cue_match.group(0)
    first = cue.lower().split()[0].rstrip(":#")
    short_ok = first in ("zip", "pin", "postcode", "post", "id") or "box" in cue.lower()
    plain = code.replace(" ", "").replace("-", "")
    # "Your Uber code: 7731", "Code 5521 expires": a code of four digits is a code too
    four_ok = cue_match.group("determined") or first in ("code", "passcode")
    if len(plain) < (3 if short_ok else 4 if four_ok else 5):
        return m.group(0)
    if " " in code or "-" in code:
        spoken = ", ".join(digit_string(g) for g in re.split(r"[ -]", code))
    else:
        spoken = digit_string(plain)
    return spoken


_ADDRESS_CUE = re.compile(
    rf"\b(?:{alternation(tables.STREET_WORDS)}|Apt|Apartment|Suite|Ste|Rue|Via|Calle|Flat|Unit|Box)\b"
)


def _city_zip(m: re.Match[str]) -> str:
    """"..., New York 10118." -> "one zero one one eight": a five-digit code closing an address after a place
    name (a street address earlier in the sentence)."""
    before = m.string[max(0, m.start() - 80) : m.start()]
    if not re.search(r"[A-Z][a-z]+ $", before) or not _ADDRESS_CUE.search(before):
        return m.group(0)
    return digits(m.group(1))


def _uk_postcode(m: re.Match[str]) -> str:
    """"OX1 4AA" -> "O X one four A A": a UK postcode, character by character."""
    return " ".join(digits(c) if c.isdigit() else c for c in m.group(0).replace(" ", ""))


def _zip_code(m: re.Match[str]) -> str:
    """"DC 20500" -> "D C two zero five zero zero" (the state is spelled later)."""
    if m.group(1) not in tables.US_STATES:
        return m.group(0)
    plus4 = f", {digits(m.group(3))}" if m.group(3) else ""
    return f"{m.group(1)} {digits(m.group(2))}{plus4}"


def _digit_groups(m: re.Match[str]) -> str:
    """"4111 1111 1111 1111" -> each group digit by digit, a pause between groups."""
    return ", ".join(digits(g) for g in re.split(r"[ -]", m.group(0)))


def _letters_and_digits(m: re.Match[str]) -> str:
    """A long code of capitals and digits, character by character: "1Z999AA10123456784"."""
    return " ".join(digit_string(p) if p.isdigit() else acronyms.letters(p) for p in re.findall(r"\d+|\D+", m.group(0)))


def _version_number(text: str) -> str:
    """``"3.12"`` -> ``"three point twelve"``: each dotted part as a number (leading zeros digit by digit)."""
    parts = text.split(".")
    if len(parts) == 2 and len(parts[1]) == 2 and parts[1][0] == "0":
        return f"{cardinal(int(parts[0]))} {_version_part(parts[1])}"  # 22.04 -> twenty-two oh four
    return " point ".join(_version_part(p) for p in parts)


def _version_part(p: str) -> str:
    """One dotted part: a number; "04" -> "oh four" (Ubuntu 22.04); longer zero-led parts digit by digit."""
    if len(p) == 2 and p[0] == "0":
        return "oh " + cardinal(int(p[1]))
    return digits(p) if len(p) > 1 and p[0] == "0" else cardinal(int(p))


# Words naming an identifier (not a product or a route): the digits of a letter-number code after them are read
# one by one.
_ID_CUE_BEFORE = re.compile(
    r"(?:\b(?:serial|tracking|confirmation|invoice|reference|ref|policy|passport|account|s/n|sku)"
    r"(?: (?:number|no\.?|num|code|ID|#))?|\bpart (?:number|no\.?|num|#)):? ?#? ?$", re.IGNORECASE)


def _model(m: re.Match[str]) -> str:
    """"A380" -> "A three eighty", "F-16" -> "F sixteen", "GPT-3.5" -> "G P T three point five"."""
    letters, num, tail = m.group("letters"), m.group("num"), m.group("tail") or ""
    spoken_num = _version_number(num) if "." in num else model_number(num)
    if "." not in num and _ID_CUE_BEFORE.search(m.string, max(0, m.start() - 32), m.start()):
        spoken_num = digits(num)  # "Serial no. RL-8896", "Ref: AB-4471": an identifier, digit by digit
    spoken = f"{acronyms.speak_caps(letters) if len(letters) > 1 else letters} {spoken_num}"
    if tail:
        spoken += " " + (acronyms.speak_caps(tail) if len(tail) > 1 else tail)
    return spoken


def _named_model(m: re.Match[str]) -> str:
    """"Boeing 737" -> "Boeing seven thirty-seven", "Room 118B" -> "Room one eighteen B"."""
    return f"{m.group(1)} {model_number(m.group(2))}" + (f" {m.group(3)}" if m.group(3) else "")


def _version(m: re.Match[str]) -> str:
    return "version " + _version_number(m.group(1))


def _dotted_number(m: re.Match[str]) -> str:
    """"1.2.3" -> "one point two point three"; an IPv4 address -> "... dot ..."."""
    parts = m.group(0).split(".")
    after_version_word = previous_word(m.string, m.start()).lower() in tables.DOTTED_VERSION_CUES
    if len(parts) == 4 and all(int(p) <= 255 for p in parts) and not after_version_word:
        return " dot ".join(cardinal(int(p)) for p in parts)
    return _version_number(m.group(0))


def _named_version(m: re.Match[str]) -> str:
    """"Python 3.12" -> "Python three point twelve"; a capitalized name before it (not a sentence's first
    word) or a version word ("release", "update") marks a version rather than a decimal quantity."""
    written = m.group(1)
    name_start = m.string.rfind(" ", 0, m.start() - 1) + 1
    name = m.string[name_start : m.start() - 1]
    cue = name.lower() in tables.VERSION_WORDS or name in tables.VERSION_NAMES
    if not cue and (not name[:1].isupper() or not name.replace("-", "").isalpha()
                    or at_sentence_start(m.string, name_start)):
        return m.group(0)
    return _version_number(written)


def _scaled(m: re.Match[str]) -> str:
    """"100K" -> "one hundred thousand", "2.5bn" -> "two point five billion" (K/M/B only after two or more
    digits or a decimal: "4K" and "3M" stay names)."""
    n, scale = m.group(1), m.group(2) or m.group(3)
    if m.group(3) and "." not in n and previous_word(m.string, m.start()) in tables.LABEL_WORDS:
        return f"{number(n)} {m.group(3)}"  # "Exit 14B": a label, the letter said
    counted = _COUNTED_AFTER.match(m.string, m.end()) is not None
    if m.group(3) and (len(n) < 2 or m.group(3) == "T") and not counted:
        return m.group(0)  # "3M" is a name, "3M users" three million; "15T tokens" fifteen trillion
    return f"{number(n)} {tables.SCALES[scale]}"


# A plural noun after a scaled number ("3M users", "15T tokens"), or "-parameter" ("a 70B-parameter model").
_COUNTED_AFTER = re.compile(r" [a-z]{2,20}s\b|-param")


_SIDES = {"L": "left", "R": "right", "C": "center"}


def _runway(m: re.Match[str]) -> str:
    """"runway 27L" -> "runway two seven left": a runway is said digit by digit, with its side."""
    word = "runway" if m.group(1) in ("RWY", "rwy", "Rwy") else m.group(1)
    side = f" {_SIDES[m.group(3)]}" if m.group(3) else ""
    return f"{word} {digits(m.group(2))}{side}"


_ACCOUNT_WORDS = re.compile(r"\b(?:card|account|acct|SSN|ID|number|phone|Visa|Mastercard|Amex|policy)\b", re.IGNORECASE)


def _last_digits(m: re.Match[str]) -> str:
    """"your SSN ending in 1234" -> "... ending in one two three four" (an account's last digits; "a decade
    ending in 2019" keeps its year)."""
    if not _ACCOUNT_WORDS.search(m.string[max(0, m.start() - 40) : m.start()]):
        return m.group(0)
    return f"{m.group(1)} {digits(m.group(2))}"


def _isbn(m: re.Match[str]) -> str:
    """"ISBN 978-0-14-044913-6" -> "I S B N nine seven eight, zero, one four, ..."."""
    groups = [g for g in re.split(r"[ -]", m.group(3)) if g]
    spoken = ", ".join(" ".join("ten" if c == "X" else digits(c) for c in g) for g in groups)
    edition = f" {cardinal(int(m.group(1)[5:]))}" if m.group(1)[5:] else ""
    return f"I S B N{edition}{m.group(2)}{spoken}"


def _room_number(m: re.Match[str]) -> str:
    """"Rm 4-102" -> "Room four, one oh two": a building (or floor) and a room, the room said in pairs."""
    word = tables.NUMBERED_ABBREVIATIONS.get(m.group(1), m.group(1))
    return f"{word} {cardinal(int(m.group(2)))}, {model_number(m.group(3))}"


def _hyphenated_id(m: re.Match[str]) -> str:
    """"XJ4-88-2210" -> "X J four, eight eight, two two one zero"."""
    groups = [digit_string(m.group(2))] + [digit_string(g) for g in m.group(3).split("-")[1:]]
    return f"{acronyms.letters(m.group(1))} " + ", ".join(groups)


# CPU lines before a model number read in pairs ("Ryzen 9 7950X", "Core i9-14900K").
_CPU_LINES = r"Ryzen(?: [3579])?|Core i[3579]|Core Ultra [579]|Threadripper|Athlon|Xeon|Celeron|Pentium"
_CPU_NEEDS = ("Ryzen", "Core", "Threadripper", "Athlon", "Xeon", "Celeron", "Pentium")


def _cpu_model(m: re.Match[str]) -> str:
    """"Ryzen 9 7950X" -> "Ryzen 9 seventy-nine fifty X", "Core i9-14900K" -> "Core i9 fourteen nine hundred K": a
    four-digit model in pairs, a five-digit one as its generation and a hundreds number; suffix letters spelled."""
    num, tail = m.group(2), m.group(3) or ""
    if len(num) == 5 and num[2] != "0":
        spoken = f"{cardinal(int(num[:2]))} {model_number(num[2:])}"
    else:
        spoken = model_number(num)
    spelled = " ".join(digits(c) if c.isdigit() else c for c in tail)
    return f"{m.group(1)} {spoken}" + (f" {spelled}" if spelled else "")


#: Numbers that a keyword before them marks as a code said digit by digit: aviation (flight levels, runways,
#: wind headings, transponder codes), the last digits of an account ("SSN ending in 1234"), building-and-room
#: numbers ("Rm 4-102") and hyphenated identifiers ("XJ4-88-2210").
DIGIT_CUE_RULES: list[Rule] = [
    rule(r"\bFL ?(\d{3})\b(?![.,]\d)", lambda m: f"flight level {digits(m.group(1))}", "FL"),
    rule(r"\b([Rr]unways?|RWY|[Rr]wy) (\d{1,2})([LRC])?\b(?![.,]\d)", _runway, "unway", "RWY", "wy"),
    rule(r"\b([Ww]inds?) ([0-3]\d0) at (?=\d{1,3}\b)", lambda m: f"{m.group(1)} {digits(m.group(2))} at ",
         "ind"),  # "wind 270 at 15": a heading
    rule(r"\b([Ss]quawk(?:s|ed|ing)?) (\d{4})\b(?![.,]\d)", lambda m: f"{m.group(1)} {digits(m.group(2))}",
         "quawk"),
    rule(r"\b((?:ending|ends|end)(?: in| with)?) (\d{4})\b(?![.,]\d)", _last_digits, "end"),  # "Card ending 3309"
    # "ISBN 978-0-14-044913-6": a book number, digit by digit (its hyphens are pauses)
    rule(r"\b(ISBN(?:-1[03])?)(:? (?:is )?)((?:\d[ -]?){9,12}[\dX])\b", _isbn, "ISBN"),
    # "G-582039 is your code": one capital, a hyphen and five to eight digits, a code said character by character
    rule(r"(?<![\w.-])([A-Z])-(\d{5,8})(?![\w-]|[.,]\d)", lambda m: f"{m.group(1)} {digits(m.group(2))}", "-"),
    # "Rm 4-102", "Suite 3-210": a building and a room number, not a range
    rule(rf"\b({alternation(tables.ROOM_WORDS)})\.? (\d{{1,2}})-(\d{{3,4}})\b(?![\w-]|[.,]\d)", _room_number,
         *tables.ROOM_WORDS),
    # "XJ4-88-2210": letters glued to digits, then hyphenated digit groups, an identifier said character by character
    rule(r"(?<![\w.-])([A-Z]{1,4})(\d{1,4})((?:-\d{2,8}){2,4})(?![\w-]|[.,]\d)", _hyphenated_id, "-"),
    # "Passport no. X1234567": one or two capitals glued to five or more digits, an identifier
    rule(r"(?<![\w.-])([A-Z]{1,2})(\d{5,12})(?![\w-]|[.,]\d)",
         lambda m: f"{acronyms.letters(m.group(1))} {digits(m.group(2))}"),
    rule(r"\b([A-Z]{2,5})v(\d{1,2})\b(?![.,]\d)", lambda m: f"{acronyms.letters(m.group(1))} v {cardinal(int(m.group(2)))}",
         "v"),  # "SSLv3", "IPv6"
    rule(r"(?<=\d)-(?:rc|RC)\.?(?=\d)", lambda m: " R C ", "rc", "RC"),  # "v2.0.0-rc.1": a release candidate
    rule(rf"\b({_CPU_LINES})[- ](\d{{4,5}})([A-Z]{{1,3}}\d?[A-Z]?)?\b(?![.,]\d)", _cpu_model, *_CPU_NEEDS),
    rule(r"\bV(6|8|10|12)\b(?![.,]\d)", lambda m: f"V {cardinal(int(m.group(1)))}", "V"),  # engines, not versions
]


_STREET = alternation(tables.STREET_WORDS)
_PRODUCTS = alternation(tables.MODEL_NAMES)

#: "Tel: 0044 ..." -> "telephone ...": the cue word, read before any class reads the number after it.
TEL_RULE = rule(r"\b[Tt]el(?:\.:?|:)? ?(?=[+(]?\d)", lambda m: "telephone ", "el")

PHONE_RULES: list[Rule] = [
    rule(
        rf"(?P<cue>\b(?:{_PHONE_CUES})\b\.?:? (?:(?:me|us|them|him|her|back|at|on|is|number) ){{0,3}})"
        r"(?P<phone>\d{3} \d{3} \d{4}|\d{3}[- ]\d{4}|[2-9]11|988|999|112|000)(?![\w-])",  # "call me back at 555-0199"
        _phone,
        "call", "phone", "tel", "dial", "fax", "text", "mobile", "cell", "reach", "number", "line",
        flags=re.IGNORECASE,
    ),
    rule(r"(?<![\w-])(?:1-)?(8[0-8]{2}|900)-(?:(\d{3})-)?([A-Z]{4,10}|[A-Z]{2,7}(?:-[A-Z]{2,7}){1,2})\b(?!-\w)",
         _vanity_phone, "-"),
    rule(r"(?=\d)(?<![\w.,$#/+-])([2-9]\d{2})-(\d{4})(?![\w-]|[.,:/]\d)", _bare_local_phone, "-"),
    rule(r"\b([Dd]ial|[Pp]ress|[Cc]all) \*(\d{1,4})\b", lambda m: f"{m.group(1)} star {digits(m.group(2))}", "*"),
    # "Text STOP to 55555": an SMS short code
    rule(r"(?i:\b(?:text|txt|sms) [A-Z0-9]{2,12} to )(\d{4,6})(?!\w|[.,-]\d)", lambda m: m.group(0)[: m.start(1) - m.start()]
         + digits(m.group(1)), "ext", "xt", "ms", flags=0),
    rule(r",? ?\b(?:ext|extn|Ext)\.? ?(\d{1,6})\b", _extension, "xt"),
    rule(r"(?=9)(?<![\w.,$€£¥-])911(?![\w.,-]\d|\d)", _nine_one_one, "911"),
    # "13 11 14", "a passcode of 09 41 77": three pairs of digits are a number or code said digit by digit
    rule(r"(?=\d)(?<![\w.,:+/-])(?<!\d )(\d\d) (\d\d) (\d\d)(?![\w:/-]|[.,]\d| \d)",
         lambda m: ", ".join(digits(g) for g in m.groups()), " "),
]

CODE_RULES: list[Rule] = [
    rule(r"\b[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}\b", _uk_postcode),
    rule(r"(?=\d)(?<![\w.,-])(?P<code>\d{1,24}(?:[ -]\d{2,8}){0,5})(?![\w-]|[.-]\w)", _code, *_CODE_NEEDS,
         flags=re.IGNORECASE),
    rule(r"\b([A-Z]{2}),? (\d{5})(?:-(\d{4}))?(?![\w-]|[.-]\w)", _zip_code, " "),
    rule(r"(?=\d)(?<![\w,.-])\d{4}(?:[ -]\d{4}){2,4}(?![\w-]|[.,]\d)", _digit_groups),
    rule(r"\b(?=[A-Z0-9]{6,40}\b)(?:[A-Z]{1,6}\d{1,20}|\d{1,20}[A-Z]{1,6}){2,8}[A-Z0-9]{0,20}\b", _letters_and_digits),
    rule(rf"\b({_PRODUCTS}) (\d{{3,4}})([A-Z](?![\w-]))?\b(?![.,]\d)", _named_model, *sorted(tables.MODEL_NAMES)),
    rule(r"(?<![\w.,$#-])(7[0-8]7)(?=s?(?: (?:MAX|[Jj]umbo|jets?|[Dd]reamliners?|airliners?|aircraft|freighters?|flew|landed)\b))"
         r"|(?<=\b[Tt]he )(7[0-8]7)(?=s?(?:[.,;:!?)]|$))",
         lambda m: model_number(m.group(1) or m.group(2)), "7"),
    rule(rf"(?=\d)(?<![\w.,])(\d{{3,4}})([A-Z](?= ))?(?= (?:[NSEW]\.? |North |South |East |West )?"
         rf"(?:[A-Z][a-z]+ |\d{{1,3}}(?:st|nd|rd|th) ){{1,3}}(?:{_STREET})\b"
         r"| (?:North|South|East|West) [A-Z][a-z]+)",
         lambda m: model_number(m.group(1)) + (" " + m.group(2) if m.group(2) else "")),
    rule(r"(?=\d)(?<![\w.,-])(\d{5})(?=(?:[.,;)]|$))", _city_zip, " "),
    rule(r"(?<=, )(\d{5})(?= [A-Z][a-z]+\b)", lambda m: digits(m.group(1)) if _ADDRESS_CUE.search(
        m.string[max(0, m.start() - 60) : m.start()]) else m.group(0), ", "),
    rule(r"\b[vV](\d{1,6}(?:\.\d{1,6}){0,12})\b(?!\.\d)", _version, "v", "V"),
    rule(r"(?=\d)(?<![\w.])\d{1,6}(?:\.\d{1,6}){2,12}(?![\w.]|\.\d)", _dotted_number, "."),
    rule(r"(?<=[A-Za-z] )(\d{1,4}\.\d{1,4})(?![\w.%]|\.\d| ?[%°]| (?:thousand|million|billion|trillion)\b| ?[-–—] ?\d)",
         _named_version, "."),
    rule(
        r"(?<![\w-])(?P<letters>[A-Z]{1,6})-?(?P<num>\d{1,4}(?:\.\d{1,3})?)(?P<tail>[A-Z]{1,3})?(?![\w-]|[.-]\w)",
        _model,
    ),
    rule(r"(?=\d)(?<![\w.])(\d{1,4}(?:\.\d{1,3})?)(?: ?(bn|mn|tn)|(K|k|M|B|T))(?:(?![\w'’-])|(?=-param))", _scaled),
]
