"""Reading Arabic numerals aloud in Mandarin: cardinals, decimals, digit strings.

Cardinals and decimals come from ``cn2an`` (``an2cn``), with 两 for a leading two before 千/万/亿
(2000 → 两千, 12500 → 一万两千五百) and 零 for a whole group of four zeros between two read groups, which
cn2an drops (100001000 → 一亿零一千, not 一亿一千; issue 24); digit strings are read one digit at a time (1 as 幺 for phone numbers
and codes, 一 for years). ``an2cn`` is loaded on the first number read, or by the normalizer's ``preload``, without
the rest of cn2an (:mod:`onestep.frontend.zh.an2cn`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from onestep.frontend.zh.an2cn import an2cn

_DIGITS = "零一二三四五六七八九"
_DIGITS_YAO = "零幺二三四五六七八九"
_LIANG = re.compile(r"(?<!十)二(?=[千万亿])")
MAX_CARDINAL_DIGITS = 16  # cn2an's limit; longer integers are read digit by digit


def _integer(integer: str) -> str:
    """cn2an's reading of a non-negative integer (no leading zeros), with the 零 it drops: numbers over eight
    digits are read as ``high`` 亿 ``low`` (eight digits), and a ``low`` that starts with 0 after a read ``high``
    takes 零 (100001000 一亿零一千, 10000100000 一百亿零一十万; cn2an says 一亿一千 when the 万 group is all
    zeros), as does a ``low`` after a ``high`` whose last four digits are zeros (1000010000000 一万亿零一千万: the
    亿 group between is all zeros). Eight digits or fewer are cn2an's as they are (10001 一万零一, 10001000
    一千万一千)."""
    if len(integer) <= 8:
        return an2cn(integer)
    high, low = integer[:-8], integer[-8:]
    spoken = _integer(high) + "亿"
    if low == "00000000":
        return spoken
    rest = an2cn(low.lstrip("0"))
    if low[0] == "0" or high.endswith("0000"):  # 1,000,010,000,000: a zero 亿 group under 万亿 takes 零 too
        rest = "零" + ("一" + rest if rest.startswith("十") else rest)
    return spoken + rest


def read_digits(digits: str, *, yao: bool = False) -> str:
    """Read ``digits`` (ASCII 0-9 only) one by one: ``"2024"`` → ``"二零二四"``; ``yao`` reads 1 as 幺."""
    table = _DIGITS_YAO if yao else _DIGITS
    return "".join(table[ord(d) - 48] for d in digits)


@lru_cache(maxsize=8192)
def read_cardinal(number: str, *, liang: bool = False) -> str:
    """Read a non-negative integer or decimal written in ASCII digits.

    Args:
        number: ``"12500"``, ``"3.5"``, ``"0.05"``; integers longer than 16 digits are read digit by digit.
        liang: read a bare ``"2"`` as 两 (before measure words: 两个).
    Returns:
        e.g. ``"一万两千五百"``, ``"三点五"``, ``"零点零五"``.
    """
    integer, _, fraction = number.partition(".")
    integer = integer.lstrip("0") or "0"
    if len(integer) > MAX_CARDINAL_DIGITS:
        spoken = read_digits(integer)
    elif liang and integer == "2" and not fraction:
        spoken = "两"
    else:
        spoken = _LIANG.sub("两", _integer(integer))
    return f"{spoken}点{read_digits(fraction)}" if fraction else spoken
