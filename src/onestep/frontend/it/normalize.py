"""Italian text normalization: numbers, dates, times, money, units and abbreviations spelled out.

``normalize_it("Il 1º maggio 2024 alle 14:30 il Sig. Rossi ha pagato 12,50 € (15%).")`` ->
``"Il primo maggio duemilaventiquattro alle quattordici e trenta il signor Rossi ha pagato dodici euro e
cinquanta centesimi (quindici per cento)."``

Numbers are read by num2words (``lang="it"``); "uno" becomes "un"/"una" before a noun (the gender guessed
from the noun's ending, "-a" feminine but for a short list of masculine exceptions). Decimals use "virgola".
The spans are found by the shared rules of :mod:`onestep.frontend.numeric_norm`.
"""

from __future__ import annotations

from functools import lru_cache

import regex
from num2words import num2words

from onestep.frontend.numeric_norm import Currency, NumericLang, Normalizer, Unit

_MASC_IN_A = frozenset({"problema", "sistema", "tema", "programa", "clima", "pianeta", "poeta", "papa",
                        "cinema", "dramma", "schema"})
_FEM_OTHER = frozenset({"volta", "notte", "parte", "gente", "città", "chiave", "classe", "canzone", "nave",
                        "fine", "sede", "madre", "moglie", "arte", "mente", "lezione", "stazione", "edizione"})


@lru_cache(maxsize=4096)
def cardinal(n: int) -> str:
    """n >= 0 -> Italian words (num2words, without its optional "e" after milioni/miliardi, and with the accent of
    a compound's final -tré that num2words 0.5.14 drops in some numbers: 123, 2023)."""
    words = regex.sub(r"\b(milion[ei]|miliard[oi]) e ", r"\1 ", num2words(n, lang="it"))
    return regex.sub(r"\Btre\b", "tré", words)


def feminine_noun(word: str) -> bool:
    w = word.lower()
    if w in _FEM_OTHER or regex.search(r"(?:zione|sione|tà|tù)$", w):
        return True
    return w.endswith("a") and w not in _MASC_IN_A


def agree(words: str, n: int, feminine: bool, before_noun: bool) -> str:
    """"uno" -> "un"/"una" before a noun (only the number one itself: "ventuno anni" stays)."""
    if before_noun and words == "uno":
        return "una" if feminine else "un"
    return words


def ordinal(n: int, feminine: bool) -> str:
    words = num2words(n, lang="it", to="ordinal")
    return regex.sub(r"o$", "a", words) if feminine else words


def fraction(a: int, b: int) -> str | None:
    """1/2 -> "un mezzo", 3/4 -> "tre quarti" (denominator up to 10)."""
    if not 1 <= a < b <= 10:
        return None
    one = "mezzo" if b == 2 else ordinal(b, False)
    return f"{agree(cardinal(a), a, False, True)} {one if a == 1 else one[:-1] + 'i'}"


FUNCTION_WORDS = frozenset("a al alla ai di del della dei e o in per con su da dal che è".split())


def time(h: int, m: int) -> str:
    hour = "una" if h == 1 else cardinal(h)
    return hour if m == 0 else f"{hour} e {cardinal(m)}"


MONTHS = ("gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre",
          "ottobre", "novembre", "dicembre")
_MONTH_ALIASES = {"gen": 1, "feb": 2, "mar": 3, "apr": 4, "mag": 5, "giu": 6, "lug": 7, "ago": 8, "set": 9,
                  "sett": 9, "ott": 10, "nov": 11, "dic": 12}

_U = Unit
UNITS = {
    "km/h": _U("chilometro orario", "chilometri orari"), "m/s": _U("metro al secondo", "metri al secondo"),
    "km": _U("chilometro", "chilometri"), "m": _U("metro", "metri"), "cm": _U("centimetro", "centimetri"),
    "mm": _U("millimetro", "millimetri"), "km²": _U("chilometro quadrato", "chilometri quadrati"),
    "m²": _U("metro quadrato", "metri quadrati"), "m³": _U("metro cubo", "metri cubi"),
    "kg": _U("chilo", "chili"), "g": _U("grammo", "grammi"), "mg": _U("milligrammo", "milligrammi"),
    "t": _U("tonnellata", "tonnellate", True), "l": _U("litro", "litri"), "L": _U("litro", "litri"),
    "ml": _U("millilitro", "millilitri"), "mL": _U("millilitro", "millilitri"),
    "°C": _U("grado Celsius", "gradi Celsius"), "ºC": _U("grado Celsius", "gradi Celsius"),
    "°F": _U("grado Fahrenheit", "gradi Fahrenheit"),
    "h": _U("ora", "ore", True), "min": _U("minuto", "minuti"), "s": _U("secondo", "secondi"),
    "ms": _U("millisecondo", "millisecondi"), "GB": _U("gigabyte", "gigabyte"), "MB": _U("megabyte", "megabyte"),
    "kB": _U("kilobyte", "kilobyte"), "TB": _U("terabyte", "terabyte"), "GHz": _U("gigahertz", "gigahertz"),
    "MHz": _U("megahertz", "megahertz"), "Hz": _U("hertz", "hertz"), "kW": _U("chilowatt", "chilowatt"),
    "kWh": _U("chilowattora", "chilowattora"), "W": _U("watt", "watt"), "V": _U("volt", "volt"),
}
_EUR = Currency("euro", "euro", "centesimo", "centesimi")
_USD = Currency("dollaro", "dollari", "centesimo", "centesimi")
CURRENCIES = {"€": _EUR, "EUR": _EUR, "$": _USD, "US$": _USD, "USD": _USD,
              "R$": Currency("real", "real", "centavo", "centavos"),
              "£": Currency("sterlina", "sterline", "penny", "pence", True), "¥": Currency("yen", "yen", "sen", "sen"),
              "₹": Currency("rupia", "rupie", "paisa", "paise", True)}
ABBREVIATIONS = {"ecc.": "eccetera", "pag.": "pagina", "pagg.": "pagine", "n.": "numero", "nº": "numero",
                 "n°": "numero", "tel.": "telefono", "ca.": "circa", "es.": "esempio", "cfr.": "confronta",
                 "a.C.": "avanti Cristo", "d.C.": "dopo Cristo", "S.p.A.": "società per azioni"}
TITLES = {"Sig.": "signor", "Sig.ra": "signora", "Sig.na": "signorina", "Sigg.": "signori", "Dott.": "dottor",
          "Dott.ssa": "dottoressa", "Prof.": "professor", "Prof.ssa": "professoressa", "Avv.": "avvocato",
          "Ing.": "ingegner", "Arch.": "architetto", "On.": "onorevole", "S.": "san", "Geom.": "geometra"}

SPEC = NumericLang(
    code="it", cardinal=cardinal, ordinal=ordinal, months=MONTHS, month_aliases=_MONTH_ALIASES,
    day=lambda d: "primo" if d == 1 else cardinal(d),
    date=lambda d, m, y: f"{d} {m} {y}" if y else f"{d} {m}",
    time=time, decimal_comma="virgola", decimal_point="punto", minus="meno", plus="più", percent="per cento",
    times_word="per", range_word="a", and_word="e", currencies=CURRENCIES, money_join="e", units=UNITS, agree=agree,
    feminine_noun=feminine_noun, million_of="di", fraction=fraction, half=lambda fem: "mezza" if fem else "mezzo", function_words=FUNCTION_WORDS,
    ordinal_suffixes={"º": (False, False), "ª": (True, False), ".º": (False, False), ".ª": (True, False)},
    abbreviations=ABBREVIATIONS, titles=TITLES,
)

_NORMALIZER = Normalizer(SPEC)


def normalize_it(text: str) -> str:
    """Italian text -> the same text with numbers, dates, times, money, units and abbreviations in words.

    Args:
        text: raw Italian text, any length.
    Returns:
        the text with every recognized span spelled out, whitespace collapsed, punctuation kept.
    """
    return _NORMALIZER(text)
