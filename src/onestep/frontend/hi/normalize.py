"""Hindi text normalization: numbers (Latin digits 0-9 and Devanagari digits ०-९), dates, times, money, units
and abbreviations spelled out in Devanagari.

``normalize_hi("15 अगस्त 1947 को सुबह 9:30 बजे ₹500 और 25% छूट।")`` ->
``"पंद्रह अगस्त उन्नीस सौ सैंतालीस को सुबह नौ बजकर तीस मिनट बजे पाँच सौ रुपये और पच्चीस प्रतिशत छूट।"``

Numbers are read by :mod:`onestep.frontend.hi.numbers` (our own reader in the Indian system: सौ, हज़ार, लाख,
करोड़; num2words 0.5.14 has no Hindi); four-digit numbers 1100..1999 are read by hundreds as Hindi speakers
say years and round sums (1947 -> उन्नीस सौ सैंतालीस). Digits may be grouped the Indian way (1,00,000) or the
Western way; "." is the decimal point ("दशमलव", digits read one by one). The spans are found by the shared
rules of :mod:`onestep.frontend.numeric_norm`.
"""

from __future__ import annotations

from onestep.frontend.hi.numbers import WORDS, cardinal, year
from onestep.frontend.numeric_norm import Currency, NumericLang, Normalizer, Unit

DEVANAGARI_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")
_IRREGULAR = {1: ("पहला", "पहली", "पहले"), 2: ("दूसरा", "दूसरी", "दूसरे"), 3: ("तीसरा", "तीसरी", "तीसरे"),
              4: ("चौथा", "चौथी", "चौथे"), 6: ("छठा", "छठी", "छठे")}


def agree(words: str, n: int, feminine: bool, before_noun: bool) -> str:
    """1100..1999 by hundreds (years, round sums); every other number as :func:`cardinal` reads it."""
    return year(n) if 1100 <= n <= 1999 else words


def ordinal(n: int, feminine: bool, oblique: bool = False) -> str:
    """5 -> पाँचवाँ / पाँचवीं (feminine) / पाँचवें (oblique); 1..4 and 6 irregular (पहला, दूसरा, ...)."""
    form = 2 if oblique else int(feminine)
    if n in _IRREGULAR:
        return _IRREGULAR[n][form]
    return cardinal(n) + ("वाँ", "वीं", "वें")[form]


def fraction(a: int, b: int) -> str | None:
    """1/2 -> आधा, 3/4 -> तीन चौथाई, otherwise "a बटा b"."""
    if (a, b) == (1, 2):
        return "आधा"
    if b == 4 and a in (1, 3):
        return f"{cardinal(a)} चौथाई"
    return f"{cardinal(a)} बटा {cardinal(b)}" if 1 <= a < b else None


def time(h: int, m: int) -> str:
    return f"{cardinal(h)} बजे" if m == 0 else f"{cardinal(h)} बजकर {cardinal(m)} मिनट"


MONTHS = ("जनवरी", "फ़रवरी", "मार्च", "अप्रैल", "मई", "जून", "जुलाई", "अगस्त", "सितंबर", "अक्टूबर", "नवंबर",
          "दिसंबर")
_MONTH_ALIASES = {"फरवरी": 2, "सितम्बर": 9, "अक्तूबर": 10, "नवम्बर": 11, "दिसम्बर": 12, "अप्रेल": 4}

_U = Unit
UNITS = {
    "km/h": _U("किलोमीटर प्रति घंटा", "किलोमीटर प्रति घंटा"), "किमी/घंटा": _U("किलोमीटर प्रति घंटा",
                                                                         "किलोमीटर प्रति घंटा"),
    "km": _U("किलोमीटर", "किलोमीटर"), "किमी": _U("किलोमीटर", "किलोमीटर"), "कि.मी.": _U("किलोमीटर", "किलोमीटर"),
    "m": _U("मीटर", "मीटर"), "cm": _U("सेंटीमीटर", "सेंटीमीटर"), "mm": _U("मिलीमीटर", "मिलीमीटर"),
    "kg": _U("किलोग्राम", "किलोग्राम"), "किग्रा": _U("किलोग्राम", "किलोग्राम"),
    "कि.ग्रा.": _U("किलोग्राम", "किलोग्राम"),
    "g": _U("ग्राम", "ग्राम"), "mg": _U("मिलीग्राम", "मिलीग्राम"), "l": _U("लीटर", "लीटर"), "L": _U("लीटर", "लीटर"),
    "ml": _U("मिलीलीटर", "मिलीलीटर"), "°C": _U("डिग्री सेल्सियस", "डिग्री सेल्सियस"),
    "ºC": _U("डिग्री सेल्सियस", "डिग्री सेल्सियस"), "°F": _U("डिग्री फ़ारेनहाइट", "डिग्री फ़ारेनहाइट"),
    "°": _U("डिग्री", "डिग्री"), "h": _U("घंटा", "घंटे"), "min": _U("मिनट", "मिनट"), "s": _U("सेकंड", "सेकंड"),
    "GB": _U("जीबी", "जीबी"), "MB": _U("एमबी", "एमबी"), "m²": _U("वर्ग मीटर", "वर्ग मीटर"),
    "km²": _U("वर्ग किलोमीटर", "वर्ग किलोमीटर"), "t": _U("टन", "टन"), "W": _U("वॉट", "वॉट"),
}
_INR = Currency("रुपया", "रुपये", "पैसा", "पैसे")
_USD = Currency("डॉलर", "डॉलर", "सेंट", "सेंट")
_EUR = Currency("यूरो", "यूरो", "सेंट", "सेंट")
CURRENCIES = {"₹": _INR, "Rs.": _INR, "Rs": _INR, "रु.": _INR, "रु": _INR, "INR": _INR, "$": _USD, "US$": _USD,
              "USD": _USD, "€": _EUR, "EUR": _EUR, "£": Currency("पाउंड", "पाउंड", "पेंस", "पेंस"),
              "¥": Currency("येन", "येन", "सेन", "सेन")}
ABBREVIATIONS = {"डॉ.": "डॉक्टर", "प्रो.": "प्रोफ़ेसर", "सं.": "संख्या", "पृ.": "पृष्ठ", "ई.पू.": "ईसा पूर्व",
                 "ई.": "ईसवी", "Dr.": "डॉक्टर", "Mr.": "मिस्टर", "Mrs.": "मिसेज़"}

SPEC = NumericLang(
    code="hi", cardinal=cardinal, ordinal=ordinal, months=MONTHS, month_aliases=_MONTH_ALIASES,
    year=year, date=lambda d, m, y: f"{d} {m} {y}" if y else f"{d} {m}",
    time=time, decimal_comma="दशमलव", decimal_point="दशमलव", minus="माइनस", plus="प्लस", percent="प्रतिशत",
    times_word="गुणा", range_word="से", and_word="और", currencies=CURRENCIES, money_join="", units=UNITS, agree=agree,
    indian_grouping=True, agree_grouped=False, fraction=fraction, time_tail=r"\s*बजे(?![\p{L}\p{M}])", frac_by_digits=True, fix_digits=DEVANAGARI_DIGITS,
    ordinal_suffixes={"वाँ": (False, False), "वां": (False, False), "वीं": (True, False), "वी": (True, False),
                      "वें": (False, True), "वे": (False, True), "ला": (False, False), "रा": (False, False),
                      "था": (False, False), "ठा": (False, False)},
    short_ordinal=lambda n: ordinal(n, False, oblique=True),
    abbreviations=ABBREVIATIONS,
)

_NORMALIZER = Normalizer(SPEC)
assert WORDS[0] == cardinal(0)


def normalize_hi(text: str) -> str:
    """Hindi text -> the same text with numbers, dates, times, money, units and abbreviations in words.

    Args:
        text: raw Hindi text (Devanagari, possibly with Latin or Devanagari digits), any length.
    Returns:
        the text with every recognized span spelled out, whitespace collapsed, punctuation (। too) kept.
    """
    return _NORMALIZER(text)
