"""``<say-as>``: content rewritten into the words the frontend should read, per language.

This module parses what every language shares (whole numbers, date formats, times of day, digit groups); the
words come from the language's own reader, the ``READER`` (a :class:`SayAsReader`: Mandarin through ``cn2an``,
English through ``num2words``) of the module its registry record names (``Language.say_as_module``). A
language that names none gets the default language's (:data:`onestep.languages.DEFAULT_LANGUAGE`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from functools import cache
from typing import Protocol

from onestep.languages import DEFAULT_LANGUAGE, get_language

INTERPRETATIONS = ("characters", "spell-out", "cardinal", "ordinal", "digits", "date", "time", "telephone")
_DATE_FORMATS = ("ymd", "mdy", "dmy", "ym", "my", "md", "dm", "y", "m", "d")


class SayAsReader(Protocol):
    """A language's words for parsed ``<say-as>`` content."""

    telephone_separator: str  # between digit groups (a short pause)

    def cardinal(self, n: int) -> str: ...

    def ordinal(self, n: int) -> str: ...

    def digits(self, digits: str) -> str:
        """ASCII digits ``"907"`` read one by one."""
        ...

    def characters(self, chars: list[str]) -> str:
        """Non-space characters spelled one by one (digits by name)."""
        ...

    def date(self, fields: dict[str, int]) -> str:
        """``fields``: some of ``y``, ``m`` (1-12), ``d`` (1-31)."""
        ...

    def time(self, hour: int, minute: int, twelve: bool) -> str:
        """``hour`` 0-23, ``minute`` 0-59; ``twelve``: a 12-hour reading was asked for."""
        ...


@cache
def reader_for(language: str) -> SayAsReader:
    """The reader of registered ``language``: its record's ``say_as_module``, else the default language's."""
    module = get_language(language).say_as_module
    if not module:
        if language == DEFAULT_LANGUAGE:
            raise LookupError(f"the default language {language!r} names no say_as_module in the registry")
        return reader_for(DEFAULT_LANGUAGE)
    return importlib.import_module(module).READER  # type: ignore[no-any-return]


def _integer(content: str) -> int:
    digits = content.strip().replace(",", "").replace("_", "")
    if not re.fullmatch(r"-?\d+", digits):
        raise ValueError(f"{content.strip()!r} is not a whole number")
    if len(digits) > 15:
        raise ValueError(f"{content.strip()!r} has more than 15 digits")
    return int(digits)


def _characters(content: str, reader: SayAsReader) -> str:
    return reader.characters([c for c in content if not c.isspace()])


def _digits(content: str, reader: SayAsReader) -> str:
    digits = "".join(c for c in content if c.isdigit())
    if not digits:
        raise ValueError(f"{content.strip()!r} has no digits")
    return reader.digits(digits)


def _date(content: str, reader: SayAsReader, fmt: str | None) -> str:
    fmt = fmt or "ymd"
    if fmt not in _DATE_FORMATS:
        raise ValueError(f"format {fmt!r} must be one of {', '.join(_DATE_FORMATS)}")
    parts = [p for p in re.split(r"[-/.\s]+", content.strip()) if p]
    if len(parts) != len(fmt) or not all(p.isdigit() for p in parts):
        raise ValueError(f"{content.strip()!r} does not match format {fmt!r}")
    fields = dict(zip(fmt, (int(p) for p in parts), strict=True))
    if "m" in fields and not 1 <= fields["m"] <= 12 or "d" in fields and not 1 <= fields["d"] <= 31:
        raise ValueError(f"{content.strip()!r} is not a date in format {fmt!r}")
    return reader.date(fields)


def _time(content: str, reader: SayAsReader, fmt: str | None) -> str:
    m = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([AaPp][Mm])?\s*", content)
    if m is None:
        raise ValueError(f"{content.strip()!r} is not a time like 14:30 or 2:30pm")
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if m.group(4):
        hour = hour % 12 + (12 if m.group(4).lower() == "pm" else 0)
    if hour > 23 or minute > 59:
        raise ValueError(f"{content.strip()!r} is not a time of day")
    return reader.time(hour, minute, fmt == "hms12" or (fmt is None and m.group(4) is not None))


def _telephone(content: str, reader: SayAsReader) -> str:
    groups = [g for g in re.split(r"[^\d]+", content) if g]
    if not groups:
        raise ValueError(f"{content.strip()!r} has no digits")
    return reader.telephone_separator.join(reader.digits(g) for g in groups)


_READERS: dict[str, Callable[[str, SayAsReader, str | None], str]] = {
    "characters": lambda c, r, f: _characters(c, r),
    "spell-out": lambda c, r, f: _characters(c, r),
    "cardinal": lambda c, r, f: r.cardinal(_integer(c)),
    "ordinal": lambda c, r, f: r.ordinal(_integer(c)),
    "digits": lambda c, r, f: _digits(c, r),
    "date": _date,
    "time": _time,
    "telephone": lambda c, r, f: _telephone(c, r),
}


def say_as(kind: str, content: str, language: str, fmt: str | None = None) -> str:
    """The words for ``content`` read as ``kind`` (one of :data:`INTERPRETATIONS`) in registered ``language``;
    in a language written with spaces (:attr:`onestep.languages.Language.spaced`) they stand apart from the
    text around them (a space on each side).

    Raises:
        ValueError: the content does not fit the interpretation (the message says why).
    """
    words = _READERS[kind](content, reader_for(language), fmt)
    return f" {words} " if get_language(language).spaced else words
