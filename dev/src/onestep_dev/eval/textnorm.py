"""Text normalization for scoring ASR output against the reference, applied identically to both sides.

English: Whisper's own English normalizer (``whisper-normalizer``: lower case, punctuation removed, spelled
numbers and currencies turned into digits, British spellings unified), then a few spellings that Whisper and a
reference write differently for the same words are made one: runs of single letters joined ("c i a" -> "cia",
so "C.I.A." matches "CIA"), "." or ":" between digits made a space (Whisper writes times as "7.45"), ordinal
suffixes dropped ("4th" -> "4"), and after a number, unit abbreviations spelled out ("2.5 kg" -> "2 5
kilograms"); month abbreviations before a number spelled out ("nov 8" -> "november 8"). Units are words.

Mandarin: OpenCC traditional -> simplified (Whisper often answers in traditional characters), Arabic numbers
-> Chinese numerals with cn2an (``an2cn``: "2024年" -> "二零二四年", "12%" -> "百分之十二"; Whisper writes
either form), Latin lower-cased, punctuation dropped. Units are single CJK characters plus whole Latin words /
digit runs, so an English word inside a Chinese sentence counts as one unit.

Spanish, French, Italian, Brazilian Portuguese: digit runs spelled out in the language with ``num2words`` (the
held-out lines have no digits; Whisper writes some numbers as digits), then Whisper's ``BasicTextNormalizer``
(lower case, punctuation and symbols to spaces, accents kept; "l'homme" -> "l homme" on both sides). Units are
words.

Japanese: NFKC (full-width Latin and digits to half-width, half-width katakana to full-width), digit runs to
kanji numerals (``num2words``: "3" -> "三"), Latin lower-cased, punctuation, symbols and spaces dropped; kana and kanji are kept as
written (a kana spelling of a kanji word counts as errors). Units are characters.

Hindi: NFC, Devanagari digits to ASCII, punctuation (the danda too), symbols and spaces dropped; vowel signs
and viramas are kept (Whisper's ``BasicTextNormalizer`` would strip them). Units are characters.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any, Literal

Lang = Literal["en", "zh", "ja", "es", "fr", "it", "pt", "hi"]
EVAL_LANGS: tuple[str, ...] = ("en", "zh", "ja", "es", "fr", "it", "pt", "hi")
"""Languages with a held-out set and a scoring normalizer."""
WORD_LANGS = frozenset({"en", "es", "fr", "it", "pt"})
"""Languages scored in words (WER); the others in characters (CER)."""
_NUM2WORDS_LANG = {"es": "es", "fr": "fr", "it": "it", "pt": "pt_BR", "ja": "ja"}
_DIGITS = re.compile(r"[0-9]+")

_SINGLE_LETTER_RUN = re.compile(r"\b(?:[a-z] )+[a-z]\b")
_DIGIT_SEPARATOR = re.compile(r"(?<=\d)[.:](?=\d)")
_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")
_UNITS = {
    "mm": "millimeters", "cm": "centimeters", "m": "meters", "km": "kilometers", "ft": "feet", "in": "inches",
    "mi": "miles", "mg": "milligrams", "g": "grams", "kg": "kilograms", "lb": "pounds", "lbs": "pounds",
    "oz": "ounces", "ml": "milliliters", "l": "liters", "w": "watts", "kw": "kilowatts", "v": "volts",
    "hz": "hertz", "khz": "kilohertz", "mhz": "megahertz", "ghz": "gigahertz", "kb": "kilobytes",
    "mb": "megabytes", "gb": "gigabytes", "tb": "terabytes", "mph": "miles per hour", "kph": "kilometers per hour",
}  # fmt: skip
_UNIT_AFTER_NUMBER = re.compile(r"(?<=\d )(" + "|".join(sorted(_UNITS, key=len, reverse=True)) + r")\b")
_MONTHS = {
    "jan": "january", "feb": "february", "mar": "march", "apr": "april", "jun": "june", "jul": "july",
    "aug": "august", "sep": "september", "sept": "september", "oct": "october", "nov": "november",
    "dec": "december",
}  # fmt: skip
_MONTH_BEFORE_NUMBER = re.compile(r"\b(" + "|".join(_MONTHS) + r")(?= \d)")
_ZH_UNIT = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]|[a-z]+(?:'[a-z]+)*|[0-9]+(?:\.[0-9]+)?")


@lru_cache(maxsize=1)
def _english_normalizer() -> Any:
    from whisper_normalizer.english import EnglishTextNormalizer

    return EnglishTextNormalizer()


@lru_cache(maxsize=1)
def _t2s() -> Any:
    from opencc import OpenCC

    return OpenCC("t2s")


def normalize_en(text: str) -> str:
    """Normalized English text: space-separated lower-case words (see module docstring)."""
    out = _english_normalizer()(text)
    out = _SINGLE_LETTER_RUN.sub(lambda m: m.group(0).replace(" ", ""), out)
    out = _DIGIT_SEPARATOR.sub(" ", out)
    out = _ORDINAL.sub(r"\1", out)
    out = _UNIT_AFTER_NUMBER.sub(lambda m: _UNITS[m.group(1)], out)
    out = _MONTH_BEFORE_NUMBER.sub(lambda m: _MONTHS[m.group(1)], out)
    return " ".join(out.split())


def normalize_zh(text: str) -> str:
    """Normalized Mandarin text: simplified characters, Chinese numerals, lower-case Latin, no punctuation."""
    import cn2an

    out = unicodedata.normalize("NFKC", text)
    out = _t2s().convert(out)
    try:
        out = cn2an.transform(out, "an2cn")
    except (ValueError, KeyError):  # cn2an rejects some digit patterns; keep the digits then
        pass
    return " ".join(_ZH_UNIT.findall(out.lower()))


@lru_cache(maxsize=1)
def _basic_normalizer() -> Any:
    from whisper_normalizer.basic import BasicTextNormalizer

    return BasicTextNormalizer()


def spell_digits(text: str, lang: str) -> str:
    """``text`` with every run of ASCII digits spelled out by ``num2words`` in ``lang`` (es/fr/it/pt/ja)."""
    from num2words import num2words

    code = _NUM2WORDS_LANG[lang]
    return _DIGITS.sub(lambda m: f" {num2words(int(m.group()), lang=code)} ", text)


def normalize_latin(text: str, lang: str) -> str:
    """Normalized es/fr/it/pt text: space-separated lower-case words, accents kept, numbers spelled out."""
    out = unicodedata.normalize("NFKC", text)
    out = spell_digits(out, lang)
    return " ".join(_basic_normalizer()(out).split())


def _drop_punctuation(text: str) -> str:
    """``text`` without punctuation (Unicode P*), symbols (S*), separators (Z*) and control characters."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] not in "PSZC")


def normalize_ja(text: str) -> str:
    """Normalized Japanese text: NFKC, digits as kanji numerals, no punctuation or spaces; one character a unit
    (joined by spaces)."""
    out = spell_digits(unicodedata.normalize("NFKC", text), "ja")
    return " ".join(_drop_punctuation(out.lower()))


def normalize_hi(text: str) -> str:
    """Normalized Hindi text: NFC, ASCII digits, no punctuation or spaces; one character a unit (joined by
    spaces)."""
    out = unicodedata.normalize("NFC", text)
    out = "".join(str(unicodedata.digit(ch)) if "\u0966" <= ch <= "\u096f" else ch for ch in out)
    return " ".join(_drop_punctuation(out.lower()))


def normalize(text: str, lang: Lang) -> str:
    """Normalize ``text`` for ``lang`` (one of :data:`EVAL_LANGS`): scoring units joined by spaces."""
    if lang == "en":
        return normalize_en(text)
    if lang == "zh":
        return normalize_zh(text)
    if lang == "ja":
        return normalize_ja(text)
    if lang == "hi":
        return normalize_hi(text)
    if lang in _NUM2WORDS_LANG:
        return normalize_latin(text, lang)
    raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(EVAL_LANGS)}")


def metric_name(lang: str) -> str:
    """``"WER"`` for languages scored in words, ``"CER"`` for those scored in characters."""
    return "WER" if lang in WORD_LANGS else "CER"


def scoring_units(text: str, lang: Lang) -> list[str]:
    """The units errors are counted over: words (en, es, fr, it, pt), characters (ja, hi) or characters /
    Latin words (zh)."""
    return normalize(text, lang).split()
