"""French text normalization: numbers, dates, times, money, units and abbreviations spelled out.

``normalize_fr("Le 1er mars 2024 à 9h30, M. Dupont a payé 12,50 € (15 %).")`` ->
``"Le premier mars deux mille vingt-quatre à neuf heures trente, monsieur Dupont a payé douze euros et
cinquante centimes (quinze pour cent)."``

Numbers are read by num2words (``lang="fr"``); "un" becomes "une" before a few common feminine nouns (heures,
minutes, secondes, fois, personnes, ...) and in clock times. Thousands may be grouped with spaces (``10 000``),
decimals use "virgule". Phone numbers are read in pairs ("zéro six, douze, ..."). The spans are found by the
shared rules of :mod:`onestep.frontend.numeric_norm`.
"""

from __future__ import annotations

from functools import lru_cache

import regex
from num2words import num2words

from onestep.frontend.numeric_norm import Currency, NumericLang, Normalizer, Unit

_FEMININE = frozenset({"heure", "heures", "minute", "minutes", "seconde", "secondes", "fois", "personne",
                       "personnes", "semaine", "semaines", "année", "années", "page", "pages", "femme", "femmes",
                       "fille", "filles", "place", "places", "voiture", "voitures", "journée", "journées",
                       "étoile", "étoiles", "maison", "maisons", "ville", "villes", "tonne", "tonnes"})


@lru_cache(maxsize=4096)
def cardinal(n: int) -> str:
    """n >= 0 -> French words (num2words; hyphens as the 1990 spelling writes them)."""
    return num2words(n, lang="fr")


def agree(words: str, n: int, feminine: bool, before_noun: bool) -> str:
    """"un" -> "une" (also in "vingt et une") before a feminine noun."""
    return regex.sub(r"\bun$", "une", words) if feminine and before_noun else words


def ordinal(n: int, feminine: bool) -> str:
    if n == 1:
        return "première" if feminine else "premier"
    return num2words(n, lang="fr", to="ordinal")


def fraction(a: int, b: int) -> str | None:
    """1/2 -> "un demi", 3/4 -> "trois quarts", 2/3 -> "deux tiers" (denominator up to 10)."""
    if not 1 <= a < b <= 10:
        return None
    one = {2: "demi", 3: "tiers", 4: "quart"}.get(b) or ordinal(b, False)
    return f"{cardinal(a)} {one if a == 1 or one.endswith('s') else one + 's'}"


def time(h: int, m: int) -> str:
    hours = f"{agree(cardinal(h), h, True, True)} {'heure' if h < 2 else 'heures'}"
    return hours if m == 0 else f"{hours} {agree(cardinal(m), m, True, True)}"


def plural(written: str) -> bool:
    """French takes the plural from 2 on (1,5 kilomètre)."""
    try:
        return abs(float(written.replace(",", ".").replace(" ", "").replace("\u202f", "").replace("\u00a0", ""))) >= 2
    except ValueError:
        return True


MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
          "novembre", "décembre")
_MONTH_ALIASES = {"janv": 1, "févr": 2, "fév": 2, "fevrier": 2, "avr": 4, "juil": 7, "aout": 8, "sept": 9,
                  "oct": 10, "nov": 11, "déc": 12, "dec": 12, "decembre": 12}

_U = Unit
UNITS = {
    "km/h": _U("kilomètre heure", "kilomètres heure"), "m/s": _U("mètre par seconde", "mètres par seconde"),
    "km": _U("kilomètre", "kilomètres"), "m": _U("mètre", "mètres"), "cm": _U("centimètre", "centimètres"),
    "mm": _U("millimètre", "millimètres"), "km²": _U("kilomètre carré", "kilomètres carrés"),
    "m²": _U("mètre carré", "mètres carrés"), "m³": _U("mètre cube", "mètres cubes"),
    "kg": _U("kilo", "kilos"), "g": _U("gramme", "grammes"), "mg": _U("milligramme", "milligrammes"),
    "t": _U("tonne", "tonnes", True), "l": _U("litre", "litres"), "L": _U("litre", "litres"),
    "ml": _U("millilitre", "millilitres"), "mL": _U("millilitre", "millilitres"), "cl": _U("centilitre", "centilitres"),
    "°C": _U("degré Celsius", "degrés Celsius"), "ºC": _U("degré Celsius", "degrés Celsius"),
    "°F": _U("degré Fahrenheit", "degrés Fahrenheit"), "°": _U("degré", "degrés"),
    "min": _U("minute", "minutes", True), "s": _U("seconde", "secondes", True),
    "ms": _U("milliseconde", "millisecondes", True), "Go": _U("gigaoctet", "gigaoctets"),
    "Mo": _U("mégaoctet", "mégaoctets"), "Ko": _U("kilooctet", "kilooctets"), "To": _U("téraoctet", "téraoctets"),
    "GB": _U("gigaoctet", "gigaoctets"), "MB": _U("mégaoctet", "mégaoctets"), "GHz": _U("gigahertz", "gigahertz"),
    "MHz": _U("mégahertz", "mégahertz"), "Hz": _U("hertz", "hertz"), "kW": _U("kilowatt", "kilowatts"),
    "kWh": _U("kilowattheure", "kilowattheures"), "W": _U("watt", "watts"), "V": _U("volt", "volts"),
}
_EUR = Currency("euro", "euros", "centime", "centimes")
_USD = Currency("dollar", "dollars", "cent", "cents")
CURRENCIES = {"€": _EUR, "EUR": _EUR, "$": _USD, "US$": _USD, "USD": _USD,
              "R$": Currency("réal", "réaux", "centavo", "centavos"),
              "£": Currency("livre", "livres", "penny", "pence", True), "¥": Currency("yen", "yens", "sen", "sen"),
              "₹": Currency("roupie", "roupies", "paisa", "paisas", True), "CHF": Currency("franc", "francs",
                                                                                          "centime", "centimes")}
ABBREVIATIONS = {"Tél.": "téléphone", "etc.": "et cetera", "n°": "numéro", "nº": "numéro", "N°": "numéro", "av.": "avenue",
                 "bd": "boulevard", "bd.": "boulevard", "env.": "environ", "p.": "page", "cf.": "confer",
                 "c.-à-d.": "c'est-à-dire", "tél.": "téléphone", "apr. J.-C.": "après Jésus-Christ",
                 "av. J.-C.": "avant Jésus-Christ", "Mme": "madame", "Mmes": "mesdames", "Mlle": "mademoiselle",
                 "Mlles": "mesdemoiselles", "Me": "maître"}
TITLES = {"M.": "monsieur", "MM.": "messieurs", "Dr": "docteur", "Dr.": "docteur", "Pr": "professeur",
          "Pr.": "professeur", "St": "saint", "Ste": "sainte", "Mgr": "monseigneur"}

SPEC = NumericLang(
    code="fr", cardinal=cardinal, ordinal=ordinal, months=MONTHS, month_aliases=_MONTH_ALIASES,
    day=lambda d: "premier" if d == 1 else cardinal(d),
    date=lambda d, m, y: f"{d} {m} {y}" if y else f"{d} {m}",
    time=time, h_times=True, decimal_comma="virgule", decimal_point="point", minus="moins", plus="plus",
    percent="pour cent", times_word="fois", range_word="à", and_word="et", currencies=CURRENCIES, money_join="et", units=UNITS,
    agree=agree, feminine_noun=lambda w: w.lower() in _FEMININE, plural=plural, thousands=" ",
    digits_by_pairs=True, fraction=fraction, million_of=lambda unit: "d'" if unit[:1] in "aeiouéè" else "de",
    ordinal_suffixes={"er": (False, False), "re": (True, False), "ère": (True, False), "e": (False, False),
                      "ème": (False, False), "eme": (False, False), "ᵉ": (False, False), "ᵉʳ": (False, False)},
    abbreviations=ABBREVIATIONS, titles=TITLES,
)

_NORMALIZER = Normalizer(SPEC)


def normalize_fr(text: str) -> str:
    """French text -> the same text with numbers, dates, times, money, units and abbreviations in words.

    Args:
        text: raw French text, any length.
    Returns:
        the text with every recognized span spelled out, whitespace collapsed, punctuation kept.
    """
    return _NORMALIZER(text)
