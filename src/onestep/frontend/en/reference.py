"""Round 6 (issue 12) passes for reference genres: technical documentation, book references, biographies.

- network numbers: ``"192.168.0.1"`` -> ``"one nine two dot one six eight dot zero dot one"`` (octets of
  three digits digit by digit, shorter ones as numbers), ``"port 8080"`` -> ``"port eighty eighty"``,
  ``"HTTP 404"`` -> ``"H T T P four oh four"``, ``"RFC 2616"`` -> ``"R F C twenty-six sixteen"``, ``"IPv6"``,
  ``"2.x"`` -> ``"two point x"``;
- biography marks before a year: ``"(b. 1962)"`` -> ``"(born 1962)"``, ``"r. 1509–1547"`` -> ``"reigned ..."``,
  ``"c. AD 150"`` -> ``"circa AD 150"``;
- book references: ``"2nd ed."`` -> ``"2nd edition"``, ``"vol. IV"`` -> ``"volume
  four"``, verse ranges ``"Matthew 5:3–12"`` -> ``"Matthew five three to twelve"``;
- developer prose (round 15): ``"Node.js"`` -> ``"Node J S"``, ``".NET"`` / ``".env"`` -> ``"dot NET"`` / ``"dot env"``,
  ``"~/Downloads"`` -> ``"tilde slash Downloads"``, ``"C:\\Users"`` -> ``"C colon backslash Users"``,
  ``"Ctrl+Shift+P"`` -> ``"control shift P"``, ``"--rebase"`` -> ``"dash dash rebase"``, ``"MAX_RETRIES"`` ->
  ``"MAX underscore RETRIES"``, ``"x86_64"``, ``"HTTP/3"``, ``"localhost:3000"``, ``"a 404 error"``, ``"802.11ax"``,
  ``"H.264"``, ``"RTX 4070 Ti"``;
- everyday notes: ``"2 pcs"``, ``"1 doz"``, ``"appt"``, ``"Sat at 7"``, ``"3rd Ave near"``, ``"W 4th St"``.

Each rule runs before the generic number passes of ``normalize.py`` and leaves digits it does not read.
"""

from __future__ import annotations

import re

from onestep.frontend.en import numbers, tables
from onestep.frontend.en.numbers import cardinal, digits, model_number, ordinal
from onestep.frontend.en.rules import Rule, alternation, keep_period, rule

def _port(m: re.Match[str]) -> str:
    """"port 8080" -> "port eighty eighty", "port 443" -> "port four four three", "port 22" -> "twenty-two"."""
    n = m.group(2)
    spoken = model_number(n) if len(n) in (2, 4) and n[0] != "0" else digits(n)
    return f"{m.group(1)} {spoken}"


def _status(m: re.Match[str]) -> str:
    """"HTTP 404" -> "HTTP four oh four", "HTTP 500" -> "HTTP five hundred"."""
    return f"{m.group(1)} {model_number(m.group(2))}"


# Street types, short and spelled out, that end a street name after a house number.
_STREET_TYPES = (*tables.STREET_ABBREVIATIONS, *tables.STREET_ABBREVIATIONS.values())
_LIFE_MARKS = {"b": "born", "d": "died", "r": "reigned", "fl": "flourished"}
_EDITION_ORDINAL = r"(\d{1,3}(?:st|nd|rd|th)) (?:ed|edn)\.?(?![\w])"
_ROMAN_AFTER = {"vol": "volume", "Vol": "Volume", "vols": "volumes", "Vols": "Volumes", "ch": "chapter",
                "Ch": "Chapter", "pt": "part", "Pt": "Part", "bk": "book", "Bk": "Book", "Sc": "Scene", "sc": "scene",
                "Art": "Article", "Arts": "Articles"}


def _roman_after(m: re.Match[str]) -> str:
    """"vol. IV" -> "volume four", "Pt. II" -> "Part two" (a cardinal, as in a title)."""
    value = numbers.roman_value(m.group(2))
    if value is None:
        return m.group(0)
    return f"{_ROMAN_AFTER[m.group(1)]} {cardinal(value)}"


def _verse_range(m: re.Match[str]) -> str:
    """"Matthew 5:3–12" -> "Matthew five three to twelve" (chapter, first verse, last verse)."""
    return f"{m.group(1)}{cardinal(int(m.group(2)))} {cardinal(int(m.group(3)))} to {cardinal(int(m.group(4)))}"


def _count_word(m: re.Match[str]) -> str:
    """"2 pcs" -> "2 pieces", "1 doz" -> "1 dozen" (a final period kept where it ends the sentence)."""
    word = "dozen" if m.group(2) == "doz" else "piece" if m.group(1) == "1" else "pieces"
    return f"{m.group(1)} " + keep_period(m, word)


def _ordinal_street(m: re.Match[str]) -> str:
    """"3rd Ave near" -> "3rd Avenue near", "42nd St." -> "42nd Street." (period kept at a sentence end)."""
    return m.group(1) + " " + keep_period(m, tables.STREET_ABBREVIATIONS[m.group(2)])


_NUMBERED_BOOKS = ("Kings", "Chronicles", "Corinthians", "Thessalonians", "Maccabees", "Esdras")
# books named after a person ("2 John 3 times" is a count of Johns): numbered only before chapter:verse
_NAMED_BOOKS = ("Samuel", "Timothy", "Peter", "John")


def _key_combo(m: re.Match[str]) -> str:
    """"Ctrl+Shift+P" -> "control shift P": keys of a shortcut by name, the plus signs unsaid."""
    return " ".join(tables.KEY_NAMES.get(k, k) for k in m.group(0).split("+"))


def _wifi_standard(m: re.Match[str]) -> str:
    """"802.11ax" -> "eight oh two dot eleven A X" (an IEEE standard: the group in pairs, the amendment spelled)."""
    amendment = " " + " ".join(m.group(1).upper()) if m.group(1) else ""
    return f"eight oh two dot eleven{amendment}"


_KEYS = alternation(tables.KEY_NAMES)

#: Names in developer prose that the file-name pass would misread ("Node.js" is a runtime, not a file).
NAME_RULES: list[Rule] = [
    rule(r"\b([A-Z][a-z]{1,10})\.js\b(?![.-]\w)", lambda m: f"{m.group(1)} J S", ".js"),  # Node.js, Next.js, Vue.js
]

#: Developer prose: dotfiles and leading-dot names, home and drive paths, shortcuts, flags, identifiers.
DEV_RULES: list[Rule] = [
    rule(r"(?<![\w.])\.([A-Za-z][A-Za-z0-9]{1,15})\b(?![.-]\w)", lambda m: f"dot {m.group(1)}", "."),  # .NET, .env
    rule(r"(?<![\w~])~(?=/\w)", lambda m: "tilde ", "~/"),  # "~/Downloads"
    rule(r"\b([A-Z]):(?=\\)", lambda m: f"{m.group(1)} colon ", ":\\"),  # "C:\Users"
    rule(rf"\b(?:{_KEYS})(?:\+(?:{_KEYS}|[A-Z0-9]\b|F\d{{1,2}}\b)){{1,3}}", _key_combo, "+"),
    rule(r"(?:(?<=\s)|^)--(?=[a-z][a-z-]{1,30}\b)", lambda m: "dash dash ", "--"),  # "git pull --rebase"
    rule(r"\bx86[_-]64\b", lambda m: "x eighty-six sixty-four", "x86"),
    rule(r"(?<=[A-Za-z0-9])_(?=[A-Za-z0-9])", lambda m: " underscore ", "_"),  # "MAX_RETRIES"
    rule(r"\blocalhost:(\d{2,5})\b", lambda m: f"localhost colon {digits(m.group(1))}", "localhost:"),
    rule(r"\b(HTTP)/([123](?:\.[01])?)\b", lambda m: f"{m.group(1)} {numbers.number(m.group(2))}", "HTTP/"),
    rule(r"(?<=\d) Ti\b", lambda m: " T I", " Ti"),  # "RTX 4070 Ti"
]

RULES: list[Rule] = [
    # "802.11ax": a Wi-Fi standard, not a decimal
    rule(r"\b802\.11([a-z]{1,2})?\b(?![.]\d)", _wifi_standard, "802.11"),
    # "H.264", "H.265": video codecs, the number in pairs
    rule(r"\bH\.(26[1-6])\b", lambda m: f"H {model_number(m.group(1))}", "H."),
    # "a 404 error", "a 503 page": an HTTP status before its noun
    rule(r"(?<![\w.,$])([45]\d\d)(?= (?:error|page|response)\b)", lambda m: model_number(m.group(1)), " error",
         " page", " response"),
    rule(r"\b([Pp]orts?) (\d{2,5})\b(?![.,]\d)", _port, "ort"),
    rule(r"\b((?:HTTPS?|[Ss]tatus|[Ee]rror)(?: code)?) ([1-5]\d\d)\b(?![.,]\d)", _status, "HTTP", "tatus", "rror"),
    rule(r"\b(RFC|RFCs) ?(\d{3,4})\b(?![.,]\d)", _status, "RFC"),
    rule(r"\bIPv([46])\b", lambda m: f"I P v {cardinal(int(m.group(1)))}", "IPv"),
    rule(r"(?<![\w.])(\d{1,3})\.[xX]\b(?!\.\w)", lambda m: f"{cardinal(int(m.group(1)))} point x", ".x", ".X"),
    rule(r"(?:(?<=\()|(?<=[,;] )|(?<=^))(b|d|r|fl)\. (?=(?:c\. |ca\. )?\d{3,4}\b)",
         lambda m: _LIFE_MARKS[m.group(1)] + " ", "."),
    rule(r"\b(?:c|ca)\. (?=(?:AD|BC|A\.D\.|B\.C\.) ?\d)", lambda m: "circa ", "c."),
    rule(_EDITION_ORDINAL, lambda m: m.group(1) + " " + keep_period(m, "edition"), "ed"),
    rule(r"(\d{1,3}(?:st|nd|rd|th)) (?:fl|flr)\.?(?![\w])", lambda m: m.group(1) + " " + keep_period(m, "floor"), "fl"),
    rule(rf"\b({'|'.join(_ROMAN_AFTER)})\.? ([IVXLC]{{1,7}})\b(?![.'’]?\w)", _roman_after, "I", "V", "X"),
    rule(rf"(?<![\w.])((?:[1-3] )?)({alternation(tables.BIBLE_ABBREVIATIONS)})\. (?=\d{{1,3}}:\d)",
         lambda m: m.group(1) + tables.BIBLE_ABBREVIATIONS[m.group(2)] + " ", ":"),
    # "1 Corinthians 13", "2 Kings 5:1": a numbered book of the Bible before a chapter is "First", "Second", ...
    rule(rf"(?<![\w.,])([1-3]) (?:({alternation(_NUMBERED_BOOKS)})(?= \d)|({alternation(_NAMED_BOOKS)})(?= \d{{1,3}}:\d))",
         lambda m: f"{ordinal(int(m.group(1))).capitalize()} {m.group(2) or m.group(3)}",
         *_NUMBERED_BOOKS, *_NAMED_BOOKS),
    # "Matthew 5:3–12": a book, a chapter and a range of verses (never a clock: a capitalized name before it)
    rule(r"\b((?:[1-3] )?[A-Z][a-z]{2,15} )(\d{1,3}):([1-9]\d{0,2}) ?[-–] ?([1-9]\d{0,2})\b(?![:.]\d| ?[AaPp]\.?[Mm]\b)",
         lambda m: m.group(0) if m.group(1).strip() in tables.WEEKDAYS or m.group(1).strip()[:3] in
         tables.WEEKDAY_ABBREVIATIONS else _verse_range(m), ":"),
    rule(r"(?<![\w.])(\d{1,4}) (pcs|pc|doz)\b\.?(?![\w.-])", _count_word, "pc", "doz"),
    rule(r"\b(\d{1,3}(?:st|nd|rd|th)) (St|Ave|Rd|Blvd|Pl)\b\.?(?! [A-Z][a-z])", _ordinal_street,
         "St", "Ave", "Rd", "Blvd", "Pl"),
    # "200 N. Spring St.", "12 W 3rd St": a compass point between a house number and a street name
    rule(r"(?<=\d )([NSEW])\.? (?=(?:\d{1,3}(?:st|nd|rd|th)|[A-Z][a-z]{1,20}(?: [A-Z][a-z]{1,20})?) "
         rf"(?:{alternation(_STREET_TYPES)})\b)",
         lambda m: tables.COMPASS[m.group(1)].capitalize() + " ", " N", " S", " E", " W"),
]

# Passes that need no digit in the text.
WORD_RULES: list[Rule] = [
    rule(r"\b([Aa]ppts?)\b\.?", lambda m: ("A" if m.group(1)[0] == "A" else "a") + "ppointment"
         + ("s" if m.group(1).endswith("s") else ""), "ppt"),
    rule(rf"\b({'|'.join(tables.WEEKDAY_ABBREVIATIONS)})\b(?= (?:at|@) \d)",
         lambda m: tables.WEEKDAY_ABBREVIATIONS[m.group(1)], "Mon", "Tu", "We", "Th", "Fr", "Sa", "Su"),
    rule(r"\b(vols|Vols)\.(?= [a-z])", lambda m: "volumes" if m.group(1) == "vols" else "Volumes", "ols."),
]
