"""Text segmentation: sentences (lazily, for arbitrarily long text) and runs of Chinese vs Latin script.

Sentence boundaries: a newline; ``。！？!?`` (repeats allowed); a run of ``.`` followed by whitespace, a Chinese
character or the end of the text, unless the word before it is a single letter (initials such as ``J. K.``,
``U.S.``), a title (``Mr. Dr. Gov. Sen. ...``: the languages' abbreviation lists), before a digit, an
abbreviation read out before numbers (``No. 5``, ``Vol. 2``, ``Art. I,``), or a short abbreviation right after a number with
a lower-case word after it (a unit: ``2-4 in. of snow``, ``5 min. later``), or a street type before a compass
point (``Massachusetts Ave. NW``). Closing quotes and brackets right after the mark stay with
the sentence. A "sentence" longer than ``max_chars`` characters is cut at its last clause mark (``，,、；;：:…—``)
before the limit, else at its last whitespace, else at the start of the Latin word crossing the limit, else
(a run of Chinese characters with no punctuation at all) exactly at the limit.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Sequence
from functools import cache

import regex

from onestep.frontend.script import PUNCT, is_latin_or_digit
from onestep.frontend.tokens import Lang, Segment
from onestep.languages import LANGUAGES, UNSPACED_CHAR, get_language, language_of_char

MAX_SENTENCE_CHARS = 1000  # raw characters; far above what one 510-id chunk holds, so cuts here are rare

_CLOSERS = "”’\"'）)」』】》"
_CJK = f"(?:{UNSPACED_CHAR})"  # written without spaces (Han, kana): a sentence may start right after "!"
_SENTENCE_END = regex.compile(
    rf"\n|[。！？।॥]+[{_CLOSERS}]*|[!?]+[{_CLOSERS}]*(?=\s|{_CJK}|[。！？]|$)(?!\s*=)|\.+[{_CLOSERS}]*(?=\s|{_CJK}|$)"
)
_WORD_BEFORE_DOT = regex.compile(r"(?:^|[^A-Za-z])([A-Za-z]+)\.+[" + _CLOSERS + r"]*$")
_TITLES = frozenset({"mr", "mrs", "ms", "dr", "prof", "st", "vs", "jr", "sr", "mt", "fig", "approx", "dept"})
_DIGIT_NEXT = regex.compile(r"\s*[+(]?[A-Z]{0,3}-?[0-9]")  # "No. 5", "Passport no. X1234567", "model no. XR-250"
# "2-4 in. of snow", "3 oz. of cheese": up to 5 letters right after a number, then a lower-case word.
_UNIT_AFTER_NUMBER = regex.compile(r"[0-9](?:[-–]| ?)[A-Za-z]{1,5}\.$")
_LOWER_NEXT = regex.compile(r"\s+[a-z]")
_CAPITALIZED_NEXT = regex.compile(r"\s+([A-Z][a-z]+)")
_ROMAN_NEXT = regex.compile(r"\s+(?:[IVXLC]{2,7}\b|[IVX](?=[,;:)]))")  # "Art. I, Sec. 8", "Vol. II"
# "1600 Pennsylvania Ave. NW": a street type written short, then a compass point closing the address
_STREET_TYPES = frozenset({"st", "ave", "rd", "blvd", "ln", "dr", "pkwy", "ct", "pl", "hwy"})
_COMPASS_NEXT = regex.compile(r"\s+(?:[NSEW]|NE|NW|SE|SW)\b(?:[.,;)]|\s*$)")
_CLAUSE_CUT = regex.compile(r"[，,、；;：:…—][" + _CLOSERS + r"]*")

RunKind = Lang  # a registry language code


@cache
def _abbreviations() -> tuple[frozenset[str], frozenset[str], dict[str, frozenset[str]]]:
    """(words before names, words before numbers, {title as written: words that after it start a sentence})
    after which ``.`` ends no sentence: :data:`_TITLES` and every registered language's ``abbreviations_module``
    lists (loaded on the first dot that needs them). The third holds the module's optional ``CASED_TITLES``:
    titles only when capitalized and before a capitalized word that is not one of its ``SENTENCE_STARTERS``."""
    names, numbers, cased = set(_TITLES), set(), {}
    for language in LANGUAGES:
        if language.abbreviations_module:
            module = importlib.import_module(language.abbreviations_module)
            names |= module.TITLES_BEFORE_NAMES
            numbers |= module.BEFORE_NUMBERS
            starters = frozenset(getattr(module, "SENTENCE_STARTERS", ()))
            cased.update({title: starters for title in getattr(module, "CASED_TITLES", ())})
    return frozenset(names), frozenset(numbers), cased


def _is_abbreviation_dot(text: str, end: int) -> bool:
    """True if the ``.`` ending at ``end`` closes an initial, a title or (before a digit) a numbered
    abbreviation ("No. 5") rather than a sentence."""
    m = _WORD_BEFORE_DOT.search(text, max(0, end - 12), end)
    if m is None:
        return False
    word = m.group(1).lower()
    if len(word) == 1:
        return True
    names, numbers, cased = _abbreviations()
    if word in names:
        return True
    if m.group(1) in cased:  # "Sec. Blinken": a title written capitalized, before a name ("Sec. Then" ends one)
        following = _CAPITALIZED_NEXT.match(text, end)
        if following is not None and following.group(1) not in cased[m.group(1)]:
            return True
    if _UNIT_AFTER_NUMBER.search(text, max(0, end - 9), end) and _LOWER_NEXT.match(text, end):
        return True
    if word in _STREET_TYPES and _COMPASS_NEXT.match(text, end):
        return True  # "Massachusetts Ave. NW": a street type, then the quarter of the city
    # "No. 5"; "Min. payment": an abbreviation read before numbers, then a digit or a lower-case word
    return word in numbers and (_DIGIT_NEXT.match(text, end) is not None or _LOWER_NEXT.match(text, end) is not None
                                 or _ROMAN_NEXT.match(text, end) is not None)


def split_sentences(text: str, max_chars: int = MAX_SENTENCE_CHARS) -> Iterator[str]:
    """Yield the sentences of ``text`` in order, lazily (a 1 MB text is never copied whole).

    Args:
        text: raw text (any length).
        max_chars: longest piece yielded, characters (>= 1).
    Yields:
        sentence strings with their punctuation, stripped; whitespace-only pieces are skipped.
    """
    if max_chars < 1:
        raise ValueError(f"max_chars must be >= 1, got {max_chars}")
    start = 0
    for m in _SENTENCE_END.finditer(text):
        if m.group().startswith(".") and _is_abbreviation_dot(text, m.end()):
            continue
        yield from _cap(text[start : m.end()], max_chars)
        start = m.end()
    yield from _cap(text[start:], max_chars)


def _cap(piece: str, max_chars: int) -> Iterator[str]:
    """Yield ``piece`` stripped, cut into parts of at most ``max_chars`` characters (rules in the module doc)."""
    piece = piece.strip()
    while len(piece) > max_chars:
        cut = _cut_point(piece, max_chars)
        head, piece = piece[:cut].strip(), piece[cut:].strip()
        if head:
            yield head
    if piece:
        yield piece


def _cut_point(piece: str, limit: int) -> int:
    """Index at which to cut ``piece`` (longer than ``limit``) so that the head has at most ``limit`` chars."""
    window = piece[:limit]
    clause_ends = [m.end() for m in _CLAUSE_CUT.finditer(window)]
    if clause_ends:
        return clause_ends[-1]
    space = window.rfind(" ")
    if space > 0:
        return space + 1
    cut = limit
    while cut > 0 and is_latin_or_digit(piece[cut - 1]) and is_latin_or_digit(piece[cut]):
        cut -= 1
    return cut if cut > 0 else limit


def split_script_runs(text: str, host: str | None = None) -> list[tuple[RunKind, str]]:
    """Split a (normalized) sentence into alternating runs of the registered languages' scripts.

    A character belongs to the first language (:mod:`onestep.languages`) whose script holds it: Han characters
    form ``"zh"`` runs; Latin letters and ASCII digits form ``"en"`` runs. Every other character (punctuation,
    symbols, whitespace) joins the run it follows, or the first run if it leads the text, so ``"PLC，控制器"``
    gives ``[("en", "PLC，"), ("zh", "控制器")]``. Runs of a language written without spaces (``"zh"``) keep
    only their own script and punctuation (whitespace removed); runs of a spaced language (``"en"``) are only
    stripped. Text without any character of a registered script gives no runs (punctuation alone is not
    spoken).

    Args:
        text: one sentence.
        host: the sentence's language: the characters it reads go to its runs (Han characters in a Japanese
            sentence, Latin letters in a Spanish one; :func:`onestep.languages.language_of_char`).
    Returns:
        list of ``(kind, text)`` in order, kinds alternating.
    """
    runs: list[tuple[RunKind, list[str]]] = []
    leading: list[str] = []
    for ch in text:
        kind = language_of_char(ch, host)
        if kind is None:
            (runs[-1][1] if runs else leading).append(ch)
        elif runs and runs[-1][0] == kind:
            runs[-1][1].append(ch)
        else:
            runs.append((kind, (leading + [ch]) if not runs else [ch]))
            leading = []
    out: list[tuple[RunKind, str]] = []
    for kind, chars in runs:
        lang = get_language(kind)
        if lang.spaced:
            run = "".join(chars).strip()
        else:
            run = "".join(c for c in chars if lang.reads_char.match(c) is not None or c in PUNCT)
        if run:
            out.append((kind, run))
    return out



def join_segment_texts(segments: Sequence[Segment]) -> str:
    """The normalized text of consecutive segments: unspaced languages join directly (Chinese + Chinese), a
    space borders a spaced language (English)."""
    out = ""
    prev: Segment | None = None
    for seg in segments:
        if prev is not None and (get_language(prev.lang).spaced or get_language(seg.lang).spaced):
            out += " "
        out += seg.text
        prev = seg
    return out
