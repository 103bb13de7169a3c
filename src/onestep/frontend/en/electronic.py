"""Electronic addresses in English text: URLs, e-mail addresses, handles, hashtags and file names.

``"https://example.com/a?id=5"`` -> ``"example dot com slash a question mark id equals five"``; ``"JOHN@SHOP.COM"``
-> ``"john at shop dot com"``; ``"@jane_doe"`` -> ``"jane underscore doe"`` (the rules that find them are in
``normalize``'s early passes).
"""

from __future__ import annotations

import re

from onestep.frontend.en import acronyms, tables
from onestep.frontend.en.numbers import cardinal, digits, number, year

URL_CHARS = r"[^\s<>\"'()\[\]{}]"
_COUNTRY_TLDS = ("nz", "au", "ie", "za", "sg", "hk", "nl", "se", "ch", "es", "br", "mx", "eu", "kr", "tw", "pl", "ru")
TLDS = "com|org|net|edu|gov|io|co|uk|de|ai|dev|app|info|biz|us|ca|fr|jp|cn|ly|me|tv|" + "|".join(_COUNTRY_TLDS)
_SPELLED_TLDS = frozenset({"io", "ai", "uk", "us", "de", "fr", "jp", "cn", "edu", "tv", "ly", "me", *_COUNTRY_TLDS})


# "IMG_2041.JPG": extensions written in capitals (camera and scanner files)
UPPER_EXTENSIONS = tuple(e.upper() for e in tables.FILE_EXTENSIONS if e.isalpha())
_URL_SEPARATORS = {"?": "question mark", "=": "equals", "&": "and", "-": "dash", "_": "underscore", ".": "dot",
                   "~": "tilde", "%": "percent", "#": "hash", "+": "plus"}


def _url_word(part: str) -> str:
    """One URL or e-mail piece: digit runs as numbers, separators by name ("?id=5" -> "question mark id equals
    five"), anything else as a space."""
    out = []
    for found in re.finditer(r"[A-Za-z]+|\d+|[?=&\-_.~%#+]", part):
        tok = found.group(0)
        glued = part[found.start() - 1 : found.start()].isalpha() or part[found.end() : found.end() + 1].isalpha()
        if tok.isdigit() and glued:
            out.append(digits(tok))  # "bit.ly/abc123": digits inside a code, one by one
        elif tok.isdigit():  # "data_2023.csv", "/2024/05/": a year as a year
            out.append(year(int(tok)) if len(tok) == 4 and 1900 <= int(tok) <= 2099
                       else number(tok) if len(tok) <= 4 else digits(tok))
        else:
            out.append(_URL_SEPARATORS.get(tok, tok))
    while out and out[-1] in _URL_SEPARATORS.values():
        out.pop()
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


def url(m: re.Match[str]) -> str:
    """A URL or a bare domain: host labels joined by "dot" (country and short TLDs spelled), a port, path
    segments joined by "slash"; the scheme is not said and a sentence's closing punctuation is kept."""
    text = m.group(0)
    trail = re.search(r"[.,;:!?]+$", text)
    tail = trail.group(0) if trail else ""
    text = text[: len(text) - len(tail)]
    text = re.sub(r"^[A-Za-z]{2,10}://", "", text)
    host, _, path = text.partition("/")
    host, _, port = host.partition(":")
    spoken = _speak_host(host) + (f" colon {digits(port)}" if port.isdigit() else "")
    segments = [_url_word(s) for s in path.split("/") if _url_word(s)]
    if segments:
        spoken += " slash " + " slash ".join(segments)
    return f" {spoken}{tail} "


_HANDLE_INITIALS = re.compile(r"([A-Z]{2,4})(?=[A-Z][a-z])")


def handle(name: str, hashtag: bool = False) -> str:
    """A handle or hashtag: "jane_doe" -> "jane underscore doe", "user123" -> "user one two three"; in a
    hashtag a short number is a number ("COVID19" -> "COVID nineteen", "Paris2024" -> "Paris twenty twenty-four");
    capitals before a capitalized word are spelled ("NYTimes" -> "N Y Times", "BBCWorld" -> "B B C World")."""
    initials = _HANDLE_INITIALS.match(name)
    if initials:
        return f"{acronyms.letters(initials.group(1))} {handle(name[initials.end():], hashtag)}"
    if name.isalpha():
        return name

    def spoken(d: re.Match[str]) -> str:
        run = d.group(0)
        if hashtag and len(run) <= 4 and run[0] != "0":
            return f" {year(int(run)) if len(run) == 4 and 1000 <= int(run) <= 2199 else cardinal(int(run))} "
        return f" {digits(run)} "

    name = re.sub(r"\d+", spoken, name.strip("_"))
    return " ".join(name.replace("_", " underscore ").split())


def file_name(m: re.Match[str]) -> str:
    """"report.pdf" -> "report dot P D F"."""
    return f"{_url_word(m.group(1))} dot {tables.FILE_EXTENSIONS[m.group(2).lower()]}"


def email(m: re.Match[str]) -> str:
    """An e-mail address: "john.smith@example.com" -> "john dot smith at example dot com" (one in capitals is
    read as the same address; a short vowel-less local part such as "hr@" is spelled)."""
    local, domain = m.group(1).replace("*", ""), m.group(2)  # "j***@gmail.com": a masked address, the stars unsaid
    if local.isupper() and domain.isupper():  # "JOHN@SHOP.COM": an address in capitals is the same address
        local, domain = local.lower(), domain.lower()
    if len(local) <= 4 and local.isalpha() and not re.search(r"[aeiouyAEIOUY]", local):
        local = acronyms.letters(local.upper())  # hr@, cs@: said letter by letter
    names = {".": " dot ", "_": " underscore ", "-": " dash ", "+": " plus ", "&": " ampersand "}
    spoken_local = "".join(names.get(c, c) for c in re.sub(r"\d+", lambda d: " " + digits(d.group(0)) + " ", local))
    return f" {spoken_local} at {_speak_host(domain)} "
