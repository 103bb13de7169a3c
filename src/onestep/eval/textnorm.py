"""Text normalization for scoring ASR output against the reference, applied identically to both sides.

English: Whisper's own English normalizer (``whisper-normalizer``: lower case, punctuation removed, spelled
numbers and currencies turned into digits, British spellings unified), then runs of single letters joined
("c i a" -> "cia", so "C.I.A." matches "CIA"). Units are words.

Mandarin: OpenCC traditional -> simplified (Whisper often answers in traditional characters), Arabic numbers
-> Chinese numerals with cn2an (``an2cn``: "2024年" -> "二零二四年", "12%" -> "百分之十二"; Whisper writes
either form), Latin lower-cased, punctuation dropped. Units are single CJK characters plus whole Latin words /
digit runs, so an English word inside a Chinese sentence counts as one unit.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any, Literal

Lang = Literal["en", "zh"]

_SINGLE_LETTER_RUN = re.compile(r"\b(?:[a-z] )+[a-z]\b")
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


def normalize(text: str, lang: Lang) -> str:
    """Normalize ``text`` for ``lang`` (``"en"`` or ``"zh"``)."""
    if lang == "en":
        return normalize_en(text)
    if lang == "zh":
        return normalize_zh(text)
    raise ValueError(f"unknown language {lang!r}; expected 'en' or 'zh'")


def scoring_units(text: str, lang: Lang) -> list[str]:
    """The units errors are counted over: words (en) or characters / Latin words (zh)."""
    return normalize(text, lang).split()
