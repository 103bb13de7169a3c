"""All-caps words: initialisms read letter by letter ("FBI" -> "F B I") or acronyms read as words ("NASA").

Curated lists decide the common cases; unknown words go through a pronounceability test (an English-like
onset, vowel groups and coda). Acronyms read as words are returned capitalized ("Nasa"): misaki spells out
all-caps words it does not know, but reads a capitalized word from its lexicon or through espeak.
"""

from __future__ import annotations

import re

SPECIAL: dict[str, str] = {
    "OK": "okay",
    "AT&T": "A T and T",
    "Q&A": "Q and A",
    "R&D": "R and D",
    "B&B": "B and B",
    "P&L": "P and L",
    "M&A": "M and A",
    "PhD": "P H D",
    "PhDs": "P H Ds",
    "Rx": "R X",
    "JSON": "Jason",
    "WIFI": "Wi-Fi",
    "WiFi": "Wi-Fi",
    "iOS": "I O S",
    "macOS": "mac O S",
    "BBQ": "barbecue",
    "SQL": "sequel",
    "GIF": "Gif",
    "ASCII": "Askey",
    "LOL": "L O L",
    "WWII": "World War two",
    "WWI": "World War one",
    "WW2": "World War two",
    "WW1": "World War one",
    "pH": "P H",
    "SpO2": "S P O two",
    "HbA1c": "H B A one C",
    "YoY": "year over year",
    "QoQ": "quarter over quarter",
    "MoM": "month over month",
    "npm": "N P M",
    "NVMe": "N V M E",
    "PCIe": "P C I E",
    "CI/CD": "C I C D",
    "P/E": "P E",
    "OBO": "or best offer",
}

INITIALISMS = frozenset(
    """
    FBI CIA NSA API CPU GPU TPU USB HTTP HTTPS AI UK US USA EU UN BBC CNN CEO CFO CTO COO DNA RNA HIV FAQ
    PDF HTML CSS URL URI XML IBM IT TV PC DVD CD DJ ATM NFL NBA MLB NHL UFC ID IQ PR HR IRS ICU GPS LED LCD
    SUV VIP MBA MIT UCLA NYC NY LA DC USSR UAE BMW VW HP LG SSD HDD OS AWS SDK IDE CLI GUI UI UX VPN LAN ISP
    DNS IP TCP UDP SSH SSL TLS RSS SMS MMS PNG SVG NPC RPG FPS MVP KPI ROI PS AM PM BC AD BCE CE FYI DIY TBD
    ETA RSVP EPA ESA IRA ERA UFO UPS DHL FDA CDC WHO NIH NHS MP EV ECG EKG MRI CT ER OCR NLP ML LLM GPT TTS
    ASR STT ONNX CUDA RGB HDMI VGA AC DC PIN SIM ABC CBS NBC PBS NPR HBO MTV ESPN NFT CPI GDP IMF WTO NGO
    EST EDT CST CDT MST MDT PST PDT GMT UTC CET CEST BST IST JST KST AEST AEDT HST AKST WET EET SGT HKT ET PT
    CT MT PSI RPM RTX GTX CV HOA DOB SSN BPM MPG CIO VIN UAW
    LAX ORD LHR CDG DXB HND NRT PEK PVG HKG ICN SYD YYZ YVR ATL DFW IAD EWR LGA PHX MCO FRA AMS BCN FCO MUC ZRH DOH
    """.split()
) - {"PIN", "SIM", "ONNX", "CUDA"}

WORD_ACRONYMS = frozenset(
    """
    NASA NATO UNESCO UNICEF SCUBA RAM ROM LASER RADAR SONAR NASDAQ OPEC FIFA AIDS COVID JPEG PIN SIM FEMA
    NAFTA OSHA YOLO ZIP CAPTCHA IKEA MIDI LEGO SARS MERS ANSI POSIX RAID SWAT UNIX NIMBY DARPA INTERPOL
    FOREX APEC ASEAN CERN ISIS ONNX CUDA WASP TESOL GIF AWOL SEAL SNAFU ASAP
    """.split()
)

# Two-letter all-caps tokens that are ordinary words written in capitals ("I said NO").
SHORT_WORDS = frozenset("NO SO DO GO TO IN ON AT IS BE WE HE ME MY BY OF OR IF AS AN UP OH HI OX".split())

_ONSETS = frozenset(
    """
    B BL BR C CH CL CR D DR DW F FL FR G GL GN GR H J K KL KN KR L M N P PH PL PR PS Q QU R S SC SCH SCR SH
    SK SL SM SN SP SPL SPR SQU ST STR SW T TH THR TR TW V W WH WR Y Z
    """.split()
) | {""}
_CODAS = frozenset(
    """
    B CK CKS CT D F FT G GH GHT K L LD LF LK LL LM LP LT LTS M MB MP MPS N NCH ND NDS NG NGS NK NKS NS NT NTS P PT
    R RB RD RDS RG RK RL RM RN RNS RP RS RT RTS S SH SK SP SS ST STS T TCH TH THS TS W WN WS X Y Z
    """.split()
) | {""}
_VOWEL_GROUPS = frozenset(
    "A E I O U Y AI AU AY EA EE EI EU EY IA IE IO OA OE OI OO OU OY UA UE UI UO".split()
)
_CLUSTERS = re.compile(r"[AEIOU]+Y?|[^AEIOU]+")  # a Y after a vowel is part of it: "DAYS", "KEYS"


def is_pronounceable(word: str) -> bool:
    """True if an unknown all-caps ``word`` (A-Z only) looks readable as an English word ("FEMA", "NAFTA")."""
    if len(word) < 3 or not (word.isascii() and word.isalpha() and word.isupper()):
        return False
    if not any(c in "AEIOU" for c in word):
        return False  # NYC, BBC
    # Y after a consonant is a vowel ("GYM"); mark it as one.
    marked = "".join("U" if c == "Y" and i and word[i - 1] not in "AEIOU" else c for i, c in enumerate(word))
    parts = _CLUSTERS.findall(marked)
    first_vowel = parts[0][0] in "AEIOU"
    last_vowel = parts[-1][0] in "AEIOU"
    coda = parts[-1] if not last_vowel else ""
    if (parts[0] if not first_vowel else "") not in _ONSETS or (
        coda not in _CODAS and not (coda == "C" and len(word) >= 5)  # CIVIC, MAGIC; not SEC, DOC
    ):
        return False
    if len(word) == 3 and first_vowel and last_vowel:
        return False  # V-C-V initialisms: ETA, EPA, UFO
    if last_vowel and parts[-1] in ("I", "U") and len(word) <= 4:
        return False  # API, ACLU
    for p in parts:
        if p[0] in "AEIOU":
            if p not in _VOWEL_GROUPS:
                return False
        elif len(p) > 3 and p not in (parts[0], parts[-1]):
            return False
    return re.search(r"(.)\1\1", word) is None


def letters(word: str) -> str:
    """``"FBI"`` -> ``"F B I"``."""
    return " ".join(word)


def speak_caps(word: str) -> str:
    """How to write an all-caps token for the G2P: letters, a capitalized word, or a special reading.

    ``word`` may end in a plural ``s`` or possessive ``'s`` ("APIs" -> "A P Is", "NASA's" -> "Nasa's").
    """
    if word in SPECIAL:
        return SPECIAL[word]
    suffix = ""
    for s in ("'s", "’s", "s"):
        stem = word[: -len(s)]
        if word.endswith(s) and len(stem) >= 2 and stem.isupper() and (s != "s" or not word.isupper()):
            word, suffix = stem, s
            break
    if word in SPECIAL:
        return SPECIAL[word] + suffix
    if "&" in word:
        return " and ".join(letters(p) if p else "" for p in word.split("&")).strip() + suffix
    if word in WORD_ACRONYMS:
        return word.capitalize() + suffix
    if word in INITIALISMS:
        return letters(word) + suffix
    if word in SHORT_WORDS:
        return word.capitalize() + suffix
    if is_pronounceable(word):
        return word.capitalize() + suffix
    return letters(word) + suffix
