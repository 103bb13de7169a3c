"""``<say-as>``: content rewritten into the words the frontend should read, per language.

Each reader returns plain text for the language's frontend: English through ``num2words``, Mandarin through
``cn2an`` (both runtime dependencies). A language without a reader here gets the English one.
"""

from __future__ import annotations

import re
from collections.abc import Callable

INTERPRETATIONS = ("characters", "spell-out", "cardinal", "ordinal", "digits", "date", "time", "telephone")

_ZH_DIGITS = "零一二三四五六七八九"
_EN_DIGITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")  # fmt: skip
_DATE_FORMATS = ("ymd", "mdy", "dmy", "ym", "my", "md", "dm", "y", "m", "d")


def _integer(content: str) -> int:
    digits = content.strip().replace(",", "").replace("_", "")
    if not re.fullmatch(r"-?\d+", digits):
        raise ValueError(f"{content.strip()!r} is not a whole number")
    if len(digits) > 15:
        raise ValueError(f"{content.strip()!r} has more than 15 digits")
    return int(digits)


def _en_cardinal(n: int) -> str:
    from num2words import num2words

    return num2words(n)


def _zh_cardinal(n: int) -> str:
    import cn2an

    return cn2an.an2cn(str(n))


def _characters(content: str, language: str) -> str:
    chars = [c for c in content if not c.isspace()]
    if language == "zh":
        return "，".join(_ZH_DIGITS[int(c)] if c.isdigit() else c for c in chars)
    return " ".join(_EN_DIGITS[int(c)] if c.isdigit() else c.upper() for c in chars)


def _digits(content: str, language: str) -> str:
    digits = [c for c in content if c.isdigit()]
    if not digits:
        raise ValueError(f"{content.strip()!r} has no digits")
    if language == "zh":
        return "".join(_ZH_DIGITS[int(c)] for c in digits)
    return " ".join(_EN_DIGITS[int(c)] for c in digits)


def _ordinal(content: str, language: str) -> str:
    n = _integer(content)
    if language == "zh":
        return "第" + _zh_cardinal(n)
    from num2words import num2words

    return num2words(n, to="ordinal")


def _date(content: str, language: str, fmt: str | None) -> str:
    fmt = fmt or "ymd"
    if fmt not in _DATE_FORMATS:
        raise ValueError(f"format {fmt!r} must be one of {', '.join(_DATE_FORMATS)}")
    parts = [p for p in re.split(r"[-/.\s]+", content.strip()) if p]
    if len(parts) != len(fmt) or not all(p.isdigit() for p in parts):
        raise ValueError(f"{content.strip()!r} does not match format {fmt!r}")
    fields = dict(zip(fmt, (int(p) for p in parts), strict=True))
    if "m" in fields and not 1 <= fields["m"] <= 12 or "d" in fields and not 1 <= fields["d"] <= 31:
        raise ValueError(f"{content.strip()!r} is not a date in format {fmt!r}")
    if language == "zh":
        units = {"y": "年", "m": "月", "d": "日"}
        return "".join(f"{_digits(str(fields[k]), 'zh') if k == 'y' else _zh_cardinal(fields[k])}{units[k]}"
                       for k in "ymd" if k in fields)  # fmt: skip
    from num2words import num2words

    words = []
    if "m" in fields:
        words.append(_MONTHS[fields["m"] - 1])
    if "d" in fields:
        words.append(num2words(fields["d"], to="ordinal"))
    if "y" in fields:
        words.append(("," if len(words) == 2 else "") + " " + num2words(fields["y"], to="year"))
    return " ".join(words).replace(" ,", ",").strip()


def _time(content: str, language: str, fmt: str | None) -> str:
    m = re.fullmatch(r"\s*(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([AaPp][Mm])?\s*", content)
    if m is None:
        raise ValueError(f"{content.strip()!r} is not a time like 14:30 or 2:30pm")
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if m.group(4):
        hour = hour % 12 + (12 if m.group(4).lower() == "pm" else 0)
    if hour > 23 or minute > 59:
        raise ValueError(f"{content.strip()!r} is not a time of day")
    if language == "zh":
        return f"{_zh_cardinal(hour)}点" + (f"{_zh_cardinal(minute)}分" if minute else "")
    twelve = fmt == "hms12" or (fmt is None and m.group(4) is not None)
    shown = (hour % 12 or 12) if twelve else hour
    words = [_en_cardinal(shown)]
    if minute:
        words.append(("oh " if minute < 10 else "") + _en_cardinal(minute))
    elif not twelve:
        words.append("hundred")
    if twelve:
        words.append("PM" if hour >= 12 else "AM")
    return " ".join(words)


def _telephone(content: str, language: str) -> str:
    groups = [g for g in re.split(r"[^\d]+", content) if g]
    if not groups:
        raise ValueError(f"{content.strip()!r} has no digits")
    sep = "，" if language == "zh" else ", "
    return sep.join(_digits(g, language) for g in groups)


_READERS: dict[str, Callable[[str, str, str | None], str]] = {
    "characters": lambda c, lang, f: _characters(c, lang),
    "spell-out": lambda c, lang, f: _characters(c, lang),
    "cardinal": lambda c, lang, f: _zh_cardinal(_integer(c)) if lang == "zh" else _en_cardinal(_integer(c)),
    "ordinal": lambda c, lang, f: _ordinal(c, lang),
    "digits": lambda c, lang, f: _digits(c, lang),
    "date": _date,
    "time": _time,
    "telephone": lambda c, lang, f: _telephone(c, lang),
}


def say_as(kind: str, content: str, language: str, fmt: str | None = None) -> str:
    """The words for ``content`` read as ``kind`` (one of :data:`INTERPRETATIONS`) in ``language``.

    Raises:
        ValueError: the content does not fit the interpretation (the message says why).
    """
    return _READERS[kind](content, language, fmt)
