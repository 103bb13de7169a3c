"""Pinyin syllables and Chinese punctuation -> Kokoro v1.0 Mandarin phoneme symbols.

The phoneme style is exactly what ``misaki`` 0.9.4's ``ZHG2P()`` (version ``None``, the style Kokoro-82M
v1.0 was trained on) emits per syllable: ``misaki.transcription.pinyin_to_ipa`` (first variant), the tone
letters re-written as arrows by ``ZHG2P.retone`` (1 → "→", 2 → "↗", 3 → "↓", 4 → "↘", 5 → nothing), and the
non-syllabic diacritic U+032F removed. Every symbol produced is in the 114-symbol inventory.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from onestep.frontend.import_tools import defer_import
from onestep.frontend.zh import pinyin_tables

pinyin_tables.install()  # misaki.zh imports pypinyin: give it the compact phrase table first
defer_import("cn2an")  # misaki.zh imports cn2an (~0.15 s) but py2ipa/retone do not use it

from misaki.zh import ZHG2P  # noqa: E402

_NON_SYLLABIC = "\u032f"  # combining inverted breve below (the "i̯" of "ai̯"); misaki strips it


@lru_cache(maxsize=4096)
def syllable_phonemes(syllable: str) -> str:
    """Phonemes of one tone-numbered pinyin syllable.

    Args:
        syllable: e.g. ``"yin2"``, ``"lv4"``, ``"de5"`` (tone digit 1-5, 5 = neutral; ``v`` or ``ü`` for ü).
    Returns:
        e.g. ``"in↗"``; tones are arrows after the syllable's vowel.
    Raises:
        ValueError: if ``syllable`` is not a pinyin syllable.
    """
    try:
        return ZHG2P.py2ipa(syllable).replace(_NON_SYLLABIC, "")
    except (ValueError, AssertionError, KeyError, IndexError) as e:
        raise ValueError(f"not a pinyin syllable: {syllable!r}") from e


# Chinese (and ASCII) punctuation -> (inventory symbol, spacing). Spacing follows misaki's
# ``map_punctuation``: "after" marks are followed by a space ("，" → ", "), "before" marks are preceded by one
# ("《" → " “"), "none" marks are copied without spaces (misaki leaves “ ” … — unmapped).
Spacing = Literal["after", "before", "none"]
PUNCTUATION: dict[str, tuple[str, Spacing]] = {
    "，": (",", "after"), "、": (",", "after"), ",": (",", "after"),
    "。": (".", "after"), "．": (".", "after"), ".": (".", "after"), "｡": (".", "after"),
    "！": ("!", "after"), "!": ("!", "after"),
    "？": ("?", "after"), "?": ("?", "after"),
    "：": (":", "after"), ":": (":", "after"),
    "；": (";", "after"), ";": (";", "after"),
    "《": ("“", "before"), "«": ("“", "before"), "「": ("“", "before"), "『": ("“", "before"),
    "【": ("“", "before"), "〈": ("“", "before"), "〖": ("“", "before"), "（": ("(", "before"), "(": ("(", "before"),
    "》": ("”", "after"), "»": ("”", "after"), "」": ("”", "after"), "』": ("”", "after"), "】": ("”", "after"),
    "〉": ("”", "after"), "〗": ("”", "after"), "）": (")", "after"), ")": (")", "after"),
    "“": ("“", "none"), "‘": ("“", "none"), "”": ("”", "none"), "’": ("”", "none"), '"': ('"', "none"),
    "…": ("…", "none"), "—": ("—", "none"),
}
