"""Character classes of the frontend: what is Chinese, Latin, punctuation, or to be dropped.

``clean`` is the first step applied to every sentence: it makes the text safe for the normalizers and G2Ps
(control characters become spaces, emoji and invisible format characters go, letters of scripts we cannot
speak are removed and reported). The rest of this module answers per-character questions.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

import regex

from onestep.languages import SPOKEN_SCRIPTS

# Punctuation kept for prosody. Chinese (full-width) and ASCII forms; the G2Ps map them to inventory symbols.
ZH_PUNCT = "，。！？；：、…—·「」『』《》〈〉（）【】“”‘’"
ASCII_PUNCT = ",.!?;:'\"()-"
PUNCT = frozenset(ZH_PUNCT + ASCII_PUNCT)
# Marks that end a clause (a place where long sentences may be split) and a sentence.
CLAUSE_END = frozenset("，,、；;：:…—。！？!?.")
# Chinese punctuation rewritten to ASCII before English normalization/G2P.
ZH_TO_ASCII_PUNCT = str.maketrans(
    {
        "，": ",", "、": ",", "。": ".", "！": "!", "？": "?", "；": ";", "：": ":", "（": "(", "）": ")",
        "「": '"', "」": '"', "『": '"', "』": '"', "《": '"', "》": '"', "〈": '"', "〉": '"',
        "【": "(", "】": ")", "·": " ", "‘": "'", "’": "'",
    }
)
# Full-width ASCII digits and letters (U+FF10-FF19, FF21-FF3A, FF41-FF5A) to their ASCII forms.
_FULLWIDTH_ALNUM = str.maketrans(
    {c: c - 0xFEE0 for lo, hi in ((0xFF10, 0xFF19), (0xFF21, 0xFF3A), (0xFF41, 0xFF5A)) for c in range(lo, hi + 1)}
)

_HAN = regex.compile(r"\p{Han}")
_EMOJI = regex.compile(r"[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\uFE0E\uFE0F\u20E3]")
_FORMAT = regex.compile(r"\p{Cf}")  # zero-width spaces/joiners, BOM, soft hyphen, bidi marks
_CONTROL = regex.compile(r"[\p{Cc}\p{Zl}\p{Zp}\u3000]")  # tabs, newlines, other C0/C1 controls, ideographic space
_UNSUPPORTED = regex.compile(
    rf"[[\p{{L}}\p{{M}}\p{{N}}]--[{SPOKEN_SCRIPTS}\p{{Common}}\p{{Inherited}}]]+", flags=regex.V1
)
_LATIN_OR_DIGIT = regex.compile(r"[\p{Latin}0-9]")


def clean(text: str) -> tuple[str, Counter[str]]:
    """Make raw text safe for the normalizers.

    Applied in this order: Unicode NFC; full-width ASCII letters/digits to ASCII; emoji (pictographs, skin-tone
    modifiers, flags, variation selectors, keycaps) removed; invisible format characters (category Cf) removed;
    control characters, line/paragraph separators and the ideographic space replaced by a space; letters,
    marks and digits of scripts no registered language reads (Cyrillic, Greek, Arabic, Hangul, ...; see
    :data:`onestep.languages.SPOKEN_SCRIPTS`) replaced by a space.

    Args:
        text: raw input text.
    Returns:
        the cleaned text, and a count of removed characters per script name (``"CYRILLIC"``, ``"HANGUL"``, ...).
    """
    text = unicodedata.normalize("NFC", text).translate(_FULLWIDTH_ALNUM)
    text = _EMOJI.sub("", text)
    text = _FORMAT.sub("", text)
    text = _CONTROL.sub(" ", text)
    skipped: Counter[str] = Counter()

    def _skip(m: regex.Match[str]) -> str:
        for ch in m.group():
            skipped[script_name(ch)] += 1
        return " "

    text = _UNSUPPORTED.sub(_skip, text)
    return text, skipped


def script_name(ch: str) -> str:
    """A readable script name for one character: the first word of its Unicode name (``"ARABIC"``)."""
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else f"U+{ord(ch):04X}"


def has_han(text: str) -> bool:
    """True if ``text`` contains at least one Chinese (Han) character."""
    return _HAN.search(text) is not None


def is_han(ch: str) -> bool:
    """True for one Chinese (Han) character."""
    return _HAN.match(ch) is not None


def is_latin_or_digit(ch: str) -> bool:
    """True for one Latin-script letter (any accent) or ASCII digit."""
    return _LATIN_OR_DIGIT.match(ch) is not None

