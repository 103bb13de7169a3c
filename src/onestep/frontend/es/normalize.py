"""Spanish text normalization: numbers, dates, times, money, units and abbreviations spelled out.

``normalize_es("El 5 de marzo de 2024 a las 14:30 pagué 12,50 € (un 15 %).")`` ->
``"El cinco de marzo de dos mil veinticuatro a las catorce y treinta pagué doce euros con cincuenta céntimos
(un quince por ciento)."``

Numbers are read by num2words (``lang="es"``) with two fixes: "veintiuno mil" -> "veintiún mil" and the
agreement before a noun ("un libro", "veintiún años", "una casa", "doscientas personas"; the gender is guessed
from the noun's ending, "-a/-as" feminine but for a short list of masculine exceptions). Decimal comma "coma",
decimal point "punto". The spans are found by the shared rules of :mod:`onestep.frontend.numeric_norm`.
"""

from __future__ import annotations

from functools import lru_cache

import regex
from num2words import num2words

from onestep.frontend.numeric_norm import Currency, NumericLang, Normalizer, Unit

_MASC_IN_A = frozenset({"día", "días", "problema", "problemas", "mapa", "mapas", "programa", "programas",
                        "sistema", "sistemas", "tema", "temas", "idioma", "idiomas", "clima", "planeta",
                        "planetas", "poeta", "poetas", "mañana", "ganas"} - {"mañana", "ganas"})
_FEM_OTHER = frozenset({"vez", "veces", "mujer", "mujeres", "noche", "noches", "calle", "calles", "parte",
                        "partes", "gente", "ciudad", "ciudades", "razón", "razones", "canción", "canciones",
                        "edición", "ediciones", "flor", "flores", "clase", "clases", "llave", "llaves"})


@lru_cache(maxsize=4096)
def cardinal(n: int) -> str:
    """n >= 0 -> Spanish words (masculine, the form used for counting): 21000 -> "veintiún mil"."""
    words = num2words(n, lang="es")
    words = regex.sub(r"\bveintiuno(?= (?:mil|millones|billones)\b)", "veintiún", words)
    return regex.sub(r"\buno(?= (?:mil|millones|billones)\b)", "un", words)


def agree(words: str, n: int, feminine: bool, before_noun: bool) -> str:
    """Agreement of a cardinal with a following noun: "uno" -> "un"/"una", "doscientos" -> "doscientas"."""
    if not before_noun:
        return words
    if feminine:
        words = regex.sub(r"ientos\b", "ientas", words)
        words = regex.sub(r"\bveintiuno$", "veintiuna", words)
        return regex.sub(r"\buno$", "una", words)
    words = regex.sub(r"\bveintiuno$", "veintiún", words)
    return regex.sub(r"\buno$", "un", words)


def feminine_noun(word: str) -> bool:
    """A guess at the gender of a following Spanish noun from its ending."""
    w = word.lower()
    if w in _FEM_OTHER:
        return True
    if w in _MASC_IN_A or regex.search(r"(?:ista|istas|dálmata|dálmatas)$", w):
        return False  # -ista nouns name people of either sex: the masculine is the default
    return bool(regex.search(r"(?:a|as|ión|iones|dad|dades|tud|tudes)$", w))


def ordinal(n: int, feminine: bool) -> str:
    words = num2words(n, lang="es", to="ordinal")
    return regex.sub(r"o\b", "a", words) if feminine else words


def short_ordinal(n: int) -> str:
    return regex.sub(r"(primer|tercer)o$", r"\1", ordinal(n, False))


def time(h: int, m: int) -> str:
    hour = agree(cardinal(h), h, True, True)
    return f"{hour} en punto" if m == 0 else f"{hour} y {cardinal(m)}"


def fraction(a: int, b: int) -> str | None:
    """1/2 -> "un medio", 3/4 -> "tres cuartos" (proper fractions with a denominator up to 10)."""
    if not 1 <= a < b <= 10:
        return None
    one = {2: "medio", 3: "tercio"}.get(b) or ordinal(b, False)
    return f"{agree(cardinal(a), a, False, True)} {one if a == 1 else one + 's'}"


FUNCTION_WORDS = frozenset("a al de del y e o u en por para con que es son se entre hasta desde sobre".split())


def plural(written: str) -> bool:
    return written not in ("1", "1,0")


MONTHS = ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
          "noviembre", "diciembre")
_MONTH_ALIASES = {"ene": 1, "feb": 2, "mar": 3, "abr": 4, "may": 5, "jun": 6, "jul": 7, "ago": 8, "sep": 9,
                  "sept": 9, "setiembre": 9, "oct": 10, "nov": 11, "dic": 12}

_U = Unit
UNITS = {
    "km/h": _U("kilómetro por hora", "kilómetros por hora"), "m/s": _U("metro por segundo", "metros por segundo"),
    "km": _U("kilómetro", "kilómetros"), "m": _U("metro", "metros"), "cm": _U("centímetro", "centímetros"),
    "mm": _U("milímetro", "milímetros"), "km²": _U("kilómetro cuadrado", "kilómetros cuadrados"),
    "m²": _U("metro cuadrado", "metros cuadrados"), "m³": _U("metro cúbico", "metros cúbicos"),
    "kg": _U("kilo", "kilos"), "g": _U("gramo", "gramos"), "mg": _U("miligramo", "miligramos"),
    "t": _U("tonelada", "toneladas", True), "l": _U("litro", "litros"), "L": _U("litro", "litros"),
    "ml": _U("mililitro", "mililitros"), "mL": _U("mililitro", "mililitros"),
    "°C": _U("grado Celsius", "grados Celsius"), "ºC": _U("grado Celsius", "grados Celsius"),
    "°F": _U("grado Fahrenheit", "grados Fahrenheit"), "°": _U("grado", "grados"),
    "h": _U("hora", "horas", True), "min": _U("minuto", "minutos"), "s": _U("segundo", "segundos"),
    "ms": _U("milisegundo", "milisegundos"), "GB": _U("gigabyte", "gigabytes"), "MB": _U("megabyte", "megabytes"),
    "kB": _U("kilobyte", "kilobytes"), "TB": _U("terabyte", "terabytes"), "GHz": _U("gigahercio", "gigahercios"),
    "MHz": _U("megahercio", "megahercios"), "Hz": _U("hercio", "hercios"), "kW": _U("kilovatio", "kilovatios"),
    "kWh": _U("kilovatio hora", "kilovatios hora"), "W": _U("vatio", "vatios"), "V": _U("voltio", "voltios"),
}
_EUR = Currency("euro", "euros", "céntimo", "céntimos")
_USD = Currency("dólar", "dólares", "centavo", "centavos")
CURRENCIES = {"€": _EUR, "EUR": _EUR, "$": _USD, "US$": _USD, "USD": _USD,
              "R$": Currency("real", "reales", "centavo", "centavos"),
              "£": Currency("libra", "libras", "penique", "peniques", True),
              "¥": Currency("yen", "yenes", "sen", "sen"), "₹": Currency("rupia", "rupias", "paisa", "paisas", True)}
ABBREVIATIONS = {"Nº": "número", "N.º": "número", "Ud.": "usted", "Uds.": "ustedes", "Vd.": "usted", "Vds.": "ustedes", "etc.": "etcétera",
                 "pág.": "página", "págs.": "páginas", "núm.": "número", "n.º": "número", "nº": "número",
                 "aprox.": "aproximadamente", "EE. UU.": "Estados Unidos", "EE.UU.": "Estados Unidos",
                 "Avda.": "avenida", "Av.": "avenida", "tel.": "teléfono", "p. ej.": "por ejemplo",
                 "admón.": "administración", "dcha.": "derecha", "izq.": "izquierda", "S.A.": "sociedad anónima"}
TITLES = {"Sr.": "señor", "Sra.": "señora", "Srta.": "señorita", "Sres.": "señores", "Dr.": "doctor",
          "Dra.": "doctora", "Lic.": "licenciado", "Ing.": "ingeniero", "Prof.": "profesor", "Profa.": "profesora",
          "D.": "don", "Dña.": "doña", "Sto.": "santo", "Sta.": "santa", "Gral.": "general"}

SPEC = NumericLang(
    code="es", cardinal=cardinal, ordinal=ordinal, months=MONTHS, month_aliases=_MONTH_ALIASES,
    day=lambda d: "primero" if d == 1 else cardinal(d),
    date=lambda d, m, y: f"{d} de {m} de {y}" if y else f"{d} de {m}",
    time=time, decimal_comma="coma", decimal_point="punto", minus="menos", plus="más", percent="por ciento",
    times_word="por", range_word="a", and_word="y", currencies=CURRENCIES, money_join="con", units=UNITS, agree=agree,
    feminine_noun=feminine_noun, plural=plural, million_of="de", fraction=fraction, half=lambda fem: "media" if fem else "medio", function_words=FUNCTION_WORDS,
    ordinal_suffixes={"º": (False, False), ".º": (False, False), "ª": (True, False), ".ª": (True, False),
                      ".er": (False, True), "er": (False, True)},
    short_ordinal=short_ordinal, abbreviations=ABBREVIATIONS, titles=TITLES,
)

_NORMALIZER = Normalizer(SPEC)


def normalize_es(text: str) -> str:
    """Spanish text -> the same text with numbers, dates, times, money, units and abbreviations in words.

    Args:
        text: raw Spanish text, any length.
    Returns:
        the text with every recognized span spelled out, whitespace collapsed, punctuation kept.
    """
    return _NORMALIZER(text)
