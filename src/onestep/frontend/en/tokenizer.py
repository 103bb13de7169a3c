"""spaCy's blank English tokenizer, re-run in Python from its rules without importing spaCy.

``spacy.blank("en").tokenizer`` is the only piece of spaCy the English G2P uses, but importing spaCy costs
~1.2 s and ~60 MB. Its tokenizer is a small algorithm (``spacy/tokenizer.pyx``) over data: the prefix,
suffix and infix regular expressions, the URL matcher and the special cases ("don't" -> "do" + "n't").
:func:`load_rules` extracts that data from spaCy once per spaCy version into the onestep cache
(``spacy-<version>-en-tokenizer-r<RULES_FORMAT>.json``; this imports spaCy, with torch hidden); later
processes read the JSON and :class:`BlankEnglishTokenizer` runs the same algorithm on it. spaCy is not a
dependency of a plain install: without it, the rules shipped in the package (:data:`SHIPPED_RULES`, extracted
from the spaCy version pinned for the tests, :data:`SHIPPED_SPACY_VERSION`) are used.

1. Split at whitespace; a single space becomes the previous token's trailing space, other whitespace runs
   become tokens.
2. Per piece: a special case is used whole; else prefixes and suffixes are split off repeatedly (stopping at a
   special case or a token match); the rest is a special case, a URL, or split at infixes.
3. Special cases that contain affix characters (``:)``, ``a.m.``) are matched afterwards on the token
   sequence (spaCy's ``PhraseMatcher``, longest first) and replace the tokens they cover.

``tests/frontend/en/test_en_tokenizer.py`` checks it against spaCy on the training corpus and random strings.
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from onestep.frontend.compact_table import write_atomically
from onestep.paths import cache_dir

logger = logging.getLogger(__name__)

RULES_FORMAT = 1  # bump when the rule file's content changes
SHIPPED_SPACY_VERSION = "3.8.18"  # keep equal to the spaCy pinned in pyproject's test extra
SHIPPED_RULES = Path(__file__).resolve().parent.parent / f"spacy-{SHIPPED_SPACY_VERSION}-en-tokenizer-r{RULES_FORMAT}.json"
_CACHE_LIMIT = 5000  # spaCy's Tokenizer.max_cache_size
_rules_lock = threading.Lock()


class Piece(NamedTuple):
    """One token: its text and whether a single space follows it (spaCy's ``whitespace_ == " "``)."""

    text: str
    space: bool


def rules_path() -> Path:
    """``<cache>/spacy-<version>-en-tokenizer-r<RULES_FORMAT>.json``."""
    version = importlib.metadata.version("spacy")
    return cache_dir() / f"spacy-{version}-en-tokenizer-r{RULES_FORMAT}.json"


def extract_rules(tokenizer: Any) -> dict[str, Any]:
    """The data of a spaCy ``Tokenizer`` (patterns with flags, special cases), as JSON-able values."""

    def pattern(fn: Callable[..., Any] | None) -> list[Any] | None:
        if fn is None:
            return None
        compiled = getattr(fn, "__self__", None)
        if not isinstance(compiled, re.Pattern):
            raise TypeError(f"tokenizer callback {fn!r} is not a bound method of a compiled regex")
        return [compiled.pattern, compiled.flags]

    from spacy.symbols import ORTH

    rules = {text: [spec[ORTH] for spec in specs] for text, specs in tokenizer.rules.items()}
    return {
        "prefix": pattern(tokenizer.prefix_search),
        "suffix": pattern(tokenizer.suffix_search),
        "infix": pattern(tokenizer.infix_finditer),
        "token_match": pattern(tokenizer.token_match),
        "url_match": pattern(tokenizer.url_match),
        "faster_heuristics": bool(tokenizer.faster_heuristics),
        "rules": rules,
    }


def spacy_rules() -> dict[str, Any]:
    """The rules of ``spacy.blank("en").tokenizer`` (imports spaCy, with torch hidden)."""
    from onestep.frontend.en.spacy_import import import_spacy

    return extract_rules(import_spacy().blank("en").tokenizer)


def load_rules() -> dict[str, Any]:
    """The cached rules of spaCy's blank English tokenizer (extracted from spaCy when missing or unreadable;
    an unwritable cache directory only costs the extraction on every start); the shipped rules when spaCy is
    not installed."""
    from onestep.frontend.en.spacy_import import spacy_installed

    if not spacy_installed():
        return json.loads(SHIPPED_RULES.read_text(encoding="utf-8"))
    try:
        path: Path | None = rules_path()
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data.get("rules"), dict):
            return data
    except OSError:
        path = None if not _cache_usable() else rules_path()
    except ValueError:
        pass
    with _rules_lock:
        data = spacy_rules()
        if path is not None:
            try:
                write_atomically(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))
            except OSError as exc:
                logger.warning("cannot write the tokenizer rule cache %s (%s)", path, exc)
        else:
            logger.warning("no usable onestep cache directory; spaCy's tokenizer rules are not cached")
        return data


def _cache_usable() -> bool:
    try:
        cache_dir()
    except OSError:
        return False
    return True


def _compile(spec: list[Any] | None) -> re.Pattern[str] | None:
    return None if spec is None else re.compile(spec[0], spec[1])


class BlankEnglishTokenizer:
    """``spacy.blank("en").tokenizer`` as plain Python: ``tokenizer(text)`` -> list of :class:`Piece`.

    Args:
        rules: from :func:`load_rules` / :func:`extract_rules` (None: :func:`load_rules`).
    """

    def __init__(self, rules: dict[str, Any] | None = None) -> None:
        rules = load_rules() if rules is None else rules
        self._prefix = _compile(rules["prefix"])
        self._suffix = _compile(rules["suffix"])
        self._infix = _compile(rules["infix"])
        self._token_match = _compile(rules["token_match"])
        self._url_match = _compile(rules["url_match"])
        self._specials: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in rules["rules"].items()}
        self._cache: dict[str, tuple[str, ...]] = {}
        self._lock = threading.Lock()
        # Special cases the affix rules would split are found afterwards on the token sequence (spaCy's
        # _special_matcher), keyed by the tokens they produce without special cases.
        self._phrases: dict[tuple[str, ...], str] = {}
        last_phrase = None
        for text in sorted(self._specials):  # spaCy adds them in this order
            last_phrase = None  # each add_special_case flushes spaCy's cache
            if (
                not rules["faster_heuristics"]
                or self._find_prefix(text)
                or self._find_suffix(text)
                or (self._infix is not None and self._infix.search(text))
                or " " in text
            ):
                key = tuple(p.text for p in self._tokenize_affixes(text, specials=False, use_cache=False))
                self._phrases.setdefault(key, text)
                last_phrase = text
        self._phrase_lengths = sorted({len(k) for k in self._phrases}, reverse=True)
        self._phrase_starts = {k[0] for k in self._phrases}
        if last_phrase is not None:
            # spaCy's cache keeps what the last of those special cases left in it (tokenized without special
            # cases): reproduce it, as it decides how those strings are split later
            for piece in _spans(last_phrase):
                self._cache[piece] = tuple(self._tokenize(piece, False, [False]))

    # -- spaCy's Tokenizer.__call__ ---------------------------------------------------------------------------

    def __call__(self, text: str) -> list[Piece]:
        """Tokens of ``text`` with their trailing-space flags, exactly as spaCy's blank English tokenizer."""
        pieces = self._tokenize_affixes(text, specials=True, use_cache=True)
        if self._phrases:
            pieces = self._apply_special_cases(pieces)
        return pieces

    def _tokenize_affixes(self, string: str, *, specials: bool, use_cache: bool) -> list[Piece]:
        texts: list[str] = []
        spaces: list[bool] = []
        if not string:
            return []
        in_ws = string[0].isspace()
        start = 0
        for i, uc in enumerate(string):
            if uc.isspace() != in_ws:
                if start < i:
                    self._span(string[start:i], texts, spaces, specials, use_cache)
                if uc == " ":
                    spaces[-1] = True
                    start = i + 1
                else:
                    start = i
                in_ws = not in_ws
        if start < len(string):
            self._span(string[start:], texts, spaces, specials, use_cache)
            spaces[-1] = string[-1] == " " and not in_ws
        return [Piece(t, s) for t, s in zip(texts, spaces, strict=True)]

    def _span(self, span: str, texts: list[str], spaces: list[bool], specials: bool, use_cache: bool) -> None:
        """Tokens of one whitespace-free (or whitespace-only) piece."""
        out: tuple[str, ...] | None = self._specials.get(span) if specials else None
        if out is None and use_cache:
            out = self._cache.get(span)
        if out is None:
            hit: list[bool] = [False]
            out = tuple(self._tokenize(span, specials, hit))
            if use_cache and not hit[0] and len(self._cache) < _CACHE_LIMIT:
                with self._lock:
                    self._cache[span] = out
        texts.extend(out)
        spaces.extend([False] * len(out))

    def _tokenize(self, string: str, specials: bool, hit: list[bool]) -> list[str]:
        """spaCy's ``_split_affixes`` + ``_attach_tokens``."""
        prefixes: list[str] = []
        suffixes: list[str] = []
        special = self._specials if specials else {}
        last_size = 0
        while string and len(string) != last_size:
            if self._token_match is not None and self._token_match.match(string):
                break
            if string in special:
                break
            last_size = len(string)
            pre_len = self._find_prefix(string)
            if pre_len:
                prefix, minus_pre = string[:pre_len], string[pre_len:]
                if minus_pre and minus_pre in special:
                    string = minus_pre
                    prefixes.append(prefix)
                    break
            suf_len = self._find_suffix(string[pre_len:])
            if suf_len:
                suffix, minus_suf = string[-suf_len:], string[:-suf_len]
                if minus_suf and minus_suf in special:
                    string = minus_suf
                    suffixes.append(suffix)
                    break
            if pre_len and suf_len and pre_len + suf_len <= len(string):
                string = string[pre_len:-suf_len]
                prefixes.append(prefix)
                suffixes.append(suffix)
            elif pre_len:
                string = minus_pre
                prefixes.append(prefix)
            elif suf_len:
                string = minus_suf
                suffixes.append(suffix)
        out = prefixes
        if string:
            found = special.get(string)
            if found is None and self._cache and specials:
                found = self._cache.get(string)
            elif found is not None:
                hit[0] = True
            if found is not None:
                out.extend(found)
            elif (self._token_match is not None and self._token_match.match(string)) or (
                self._url_match is not None and self._url_match.match(string)
            ):
                out.append(string)
            else:
                out.extend(self._split_infixes(string))
        out.extend(reversed(suffixes))
        return out

    def _split_infixes(self, string: str) -> list[str]:
        if self._infix is None:
            return [string]
        matches = list(self._infix.finditer(string))
        if not matches:
            return [string]
        out: list[str] = []
        start = 0
        for match in matches:
            infix_start, infix_end = match.start(), match.end()
            if infix_start == 0:
                continue
            if infix_start != start:
                out.append(string[start:infix_start])
            if infix_start != infix_end:
                out.append(string[infix_start:infix_end])
            start = infix_end
        if string[start:]:
            out.append(string[start:])
        return out

    def _find_prefix(self, string: str) -> int:
        if self._prefix is None:
            return 0
        m = self._prefix.search(string)
        return m.end() - m.start() if m is not None else 0

    def _find_suffix(self, string: str) -> int:
        if self._suffix is None:
            return 0
        m = self._suffix.search(string)
        return m.end() - m.start() if m is not None else 0

    # -- spaCy's _apply_special_cases -------------------------------------------------------------------------

    def _apply_special_cases(self, pieces: list[Piece]) -> list[Piece]:
        texts = [p.text for p in pieces]
        matches: list[tuple[int, int]] = []
        for start, first in enumerate(texts):
            if first not in self._phrase_starts:
                continue
            for length in self._phrase_lengths:
                if start + length <= len(texts) and tuple(texts[start : start + length]) in self._phrases:
                    matches.append((start, start + length))
        if not matches:
            return pieces
        # longest first, then leftmost; a match is kept if its first and last tokens are not taken yet
        matches.sort(key=lambda m: (m[1] - m[0], -m[0]))
        seen: set[int] = set()
        kept: list[tuple[int, int]] = []
        for start, end in reversed(matches):
            if start not in seen and end - 1 not in seen:
                kept.append((start, end))
            seen.update(range(start, end))
        kept.sort()
        spans = {}
        for start, end in kept:
            span_text = "".join(p.text + " " * p.space for p in pieces[start : end - 1]) + pieces[end - 1].text
            spans[start] = (span_text, end)
        out: list[Piece] = []
        i = 0
        while i < len(pieces):
            if i not in spans:
                out.append(pieces[i])
                i += 1
                continue
            span_text, end = spans[i]
            special = self._specials.get(span_text)
            if special is None:
                out.extend(pieces[i:end])
            else:
                out.extend(Piece(t, False) for t in special[:-1])
                out.append(Piece(special[-1], pieces[end - 1].space))
            i = end
        return out


def _spans(text: str) -> list[str]:
    """The whitespace / non-whitespace runs of ``text`` as spaCy's loop cuts them (single spaces dropped)."""
    out: list[str] = []
    if not text:
        return out
    in_ws = text[0].isspace()
    start = 0
    for i, uc in enumerate(text):
        if uc.isspace() != in_ws:
            if start < i:
                out.append(text[start:i])
            start = i + 1 if uc == " " else i
            in_ws = not in_ws
    if start < len(text):
        out.append(text[start:])
    return out
