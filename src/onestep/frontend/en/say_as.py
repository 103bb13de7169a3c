"""English words for SSML ``<say-as>`` (the language-neutral parsing is :mod:`onestep.ssml.say_as`'s):
numbers through ``num2words``, digits one by one (``nine zero seven``), dates as ``March fifth, twenty
twenty-four``, times as ``two oh five PM``."""

from __future__ import annotations

DIGIT_NAMES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")  # fmt: skip


class EnglishSayAs:
    """The :class:`onestep.ssml.say_as.SayAsReader` of English."""

    telephone_separator = ", "

    def cardinal(self, n: int) -> str:
        from num2words import num2words

        return str(num2words(n))

    def ordinal(self, n: int) -> str:
        from num2words import num2words

        return str(num2words(n, to="ordinal"))

    def digits(self, digits: str) -> str:
        return " ".join(DIGIT_NAMES[int(c)] for c in digits)

    def characters(self, chars: list[str]) -> str:
        return " ".join(DIGIT_NAMES[int(c)] if c.isdigit() else c.upper() for c in chars)

    def date(self, fields: dict[str, int]) -> str:
        from num2words import num2words

        words = []
        if "m" in fields:
            words.append(MONTHS[fields["m"] - 1])
        if "d" in fields:
            words.append(num2words(fields["d"], to="ordinal"))
        if "y" in fields:
            if len(words) == 2:  # "March fifth, twenty twenty-four"
                words[-1] += ","
            words.append(num2words(fields["y"], to="year"))
        return " ".join(words)

    def time(self, hour: int, minute: int, twelve: bool) -> str:
        shown = (hour % 12 or 12) if twelve else hour
        words = [self.cardinal(shown)]
        if minute:
            words.append(("oh " if minute < 10 else "") + self.cardinal(minute))
        elif not twelve:
            words.append("hundred")
        if twelve:
            words.append("PM" if hour >= 12 else "AM")
        return " ".join(words)


READER = EnglishSayAs()
