"""Mandarin words for SSML ``<say-as>`` (the language-neutral parsing is :mod:`onestep.ssml.say_as`'s):
numbers through ``cn2an``, digits one by one (``九零七``), dates as ``二零二四年三月五日``, times as ``十四点五分``."""

from __future__ import annotations

DIGIT_NAMES = "零一二三四五六七八九"


class MandarinSayAs:
    """The :class:`onestep.ssml.say_as.SayAsReader` of Mandarin."""

    telephone_separator = "，"

    def cardinal(self, n: int) -> str:
        from onestep.frontend.zh.an2cn import an2cn

        return an2cn(str(n))

    def ordinal(self, n: int) -> str:
        return "第" + self.cardinal(n)

    def digits(self, digits: str) -> str:
        return "".join(DIGIT_NAMES[int(c)] for c in digits)

    def characters(self, chars: list[str]) -> str:
        return "，".join(DIGIT_NAMES[int(c)] if c.isdigit() else c for c in chars)

    def date(self, fields: dict[str, int]) -> str:
        units = {"y": "年", "m": "月", "d": "日"}
        return "".join(
            f"{self.digits(str(fields[k])) if k == 'y' else self.cardinal(fields[k])}{units[k]}"
            for k in "ymd"
            if k in fields
        )

    def time(self, hour: int, minute: int, twelve: bool) -> str:
        """24-hour reading always (``twelve`` is not how Mandarin says the time)."""
        return f"{self.cardinal(hour)}点" + (f"{self.cardinal(minute)}分" if minute else "")


READER = MandarinSayAs()
