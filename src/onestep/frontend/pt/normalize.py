"""Brazilian Portuguese text normalization: numbers, dates, times, money, units and abbreviations spelled out.

``normalize_pt("Em 1º de maio de 2024, às 14h30, o Sr. Silva pagou R$ 12,50 (15%).")`` ->
``"Em primeiro de maio de dois mil e vinte e quatro, às catorze e trinta, o senhor Silva pagou doze reais e
cinquenta centavos (quinze por cento)."``

Numbers are read by num2words (``lang="pt_BR"``, its commas between groups dropped); before a feminine noun
"um"/"dois" and the hundreds agree ("uma casa", "duas horas", "duzentas pessoas"; the gender is guessed from
the noun's ending). Decimals use "vírgula". Times written 14h30 or 14:30. The spans are found by the shared
rules of :mod:`onestep.frontend.numeric_norm`.
"""

from __future__ import annotations

from functools import lru_cache

import regex
from num2words import num2words

from onestep.frontend.numeric_norm import Currency, NumericLang, Normalizer, Unit

_MASC_IN_A = frozenset({"dia", "dias", "problema", "problemas", "sistema", "sistemas", "tema", "temas",
                        "programa", "programas", "mapa", "mapas", "idioma", "idiomas", "clima", "planeta",
                        "planetas", "poeta", "poetas", "cinema"})
_FEM_OTHER = frozenset({"vez", "vezes", "mulher", "mulheres", "noite", "noites", "parte", "partes", "gente",
                        "cidade", "cidades", "flor", "flores", "classe", "classes", "chave", "chaves"})


@lru_cache(maxsize=4096)
def cardinal(n: int) -> str:
    """n >= 0 -> Brazilian Portuguese words (num2words pt_BR, without its commas)."""
    return num2words(n, lang="pt_BR").replace(",", "")


def feminine_noun(word: str) -> bool:
    w = word.lower()
    if w in _FEM_OTHER:
        return True
    if w in _MASC_IN_A:
        return False
    return bool(regex.search(r"(?:a|as|ção|ções|dade|dades|gem|gens)$", w))


def agree(words: str, n: int, feminine: bool, before_noun: bool) -> str:
    """Feminine agreement: "um" -> "uma", "dois" -> "duas", "duzentos" -> "duzentas"."""
    if not (feminine and before_noun):
        return words
    words = regex.sub(r"\bum\b(?! (?:milhão|milhões|bilhão|bilhões)\b)", "uma", words)
    words = regex.sub(r"\bdois\b(?! (?:milhões|bilhões)\b)", "duas", words)
    return regex.sub(r"entos\b", "entas", words)


def ordinal(n: int, feminine: bool) -> str:
    words = num2words(n, lang="pt_BR", to="ordinal")
    return regex.sub(r"o\b", "a", words) if feminine else words


def fraction(a: int, b: int) -> str | None:
    """1/2 -> "um meio", 3/4 -> "três quartos" (denominator up to 10)."""
    if not 1 <= a < b <= 10:
        return None
    one = {2: "meio", 3: "terço"}.get(b) or ordinal(b, False)
    return f"{cardinal(a)} {one if a == 1 else one + 's'}"


FUNCTION_WORDS = frozenset("a ao à as aos de do da dos das e ou em no na nos nas por para com que é são até entre".split())


def time(h: int, m: int) -> str:
    hour = agree(cardinal(h), h, True, True)
    if m == 0:
        return f"{hour} {'hora' if h == 1 else 'horas'}"
    return f"{hour} e {cardinal(m)}"


MONTHS = ("janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro",
          "novembro", "dezembro")
_MONTH_ALIASES = {"jan": 1, "fev": 2, "mar": 3, "abr": 4, "mai": 5, "jun": 6, "jul": 7, "ago": 8, "set": 9,
                  "out": 10, "nov": 11, "dez": 12, "marco": 3}

_U = Unit
UNITS = {
    "km/h": _U("quilômetro por hora", "quilômetros por hora"), "m/s": _U("metro por segundo", "metros por segundo"),
    "km": _U("quilômetro", "quilômetros"), "m": _U("metro", "metros"), "cm": _U("centímetro", "centímetros"),
    "mm": _U("milímetro", "milímetros"), "km²": _U("quilômetro quadrado", "quilômetros quadrados"),
    "m²": _U("metro quadrado", "metros quadrados"), "m³": _U("metro cúbico", "metros cúbicos"),
    "kg": _U("quilo", "quilos"), "g": _U("grama", "gramas"), "mg": _U("miligrama", "miligramas"),
    "t": _U("tonelada", "toneladas", True), "l": _U("litro", "litros"), "L": _U("litro", "litros"),
    "ml": _U("mililitro", "mililitros"), "mL": _U("mililitro", "mililitros"),
    "°C": _U("grau Celsius", "graus Celsius"), "ºC": _U("grau Celsius", "graus Celsius"),
    "°F": _U("grau Fahrenheit", "graus Fahrenheit"), "°": _U("grau", "graus"),
    "min": _U("minuto", "minutos"), "s": _U("segundo", "segundos"),
    "ms": _U("milissegundo", "milissegundos"), "GB": _U("gigabyte", "gigabytes"), "MB": _U("megabyte", "megabytes"),
    "kB": _U("kilobyte", "kilobytes"), "TB": _U("terabyte", "terabytes"), "GHz": _U("giga-hertz", "giga-hertz"),
    "MHz": _U("mega-hertz", "mega-hertz"), "Hz": _U("hertz", "hertz"), "kW": _U("quilowatt", "quilowatts"),
    "kWh": _U("quilowatt-hora", "quilowatts-hora"), "W": _U("watt", "watts"), "V": _U("volt", "volts"),
}
_BRL = Currency("real", "reais", "centavo", "centavos")
_USD = Currency("dólar", "dólares", "centavo", "centavos")
_EUR = Currency("euro", "euros", "centavo", "centavos")
CURRENCIES = {"R$": _BRL, "BRL": _BRL, "€": _EUR, "EUR": _EUR, "US$": _USD, "USD": _USD, "$": _USD,
              "£": Currency("libra", "libras", "pêni", "pence", True), "¥": Currency("iene", "ienes", "sen", "sen"),
              "₹": Currency("rupia", "rupias", "paisa", "paisas", True)}
ABBREVIATIONS = {"etc.": "et cetera", "pág.": "página", "págs.": "páginas", "nº": "número", "n.º": "número",
                 "n°": "número", "tel.": "telefone", "aprox.": "aproximadamente", "Av.": "avenida",
                 "Ltda.": "limitada", "S.A.": "sociedade anônima", "a.C.": "antes de Cristo",
                 "d.C.": "depois de Cristo", "V.Exa.": "vossa excelência", "p.ex.": "por exemplo"}
TITLES = {"Sr.": "senhor", "Sra.": "senhora", "Srta.": "senhorita", "Srs.": "senhores", "Dr.": "doutor",
          "Dra.": "doutora", "Prof.": "professor", "Profa.": "professora", "Sto.": "santo", "Sta.": "santa",
          "Eng.": "engenheiro", "Gen.": "general"}

SPEC = NumericLang(
    code="pt", cardinal=cardinal, ordinal=ordinal, months=MONTHS, month_aliases=_MONTH_ALIASES,
    day=lambda d: "primeiro" if d == 1 else cardinal(d),
    date=lambda d, m, y: f"{d} de {m} de {y}" if y else f"{d} de {m}",
    time=time, h_times=True, decimal_comma="vírgula", decimal_point="ponto", minus="menos", plus="mais",
    percent="por cento", times_word="por", range_word="a", and_word="e", currencies=CURRENCIES, money_join="e", units=UNITS,
    agree=agree, feminine_noun=feminine_noun, million_of="de", fraction=fraction, half=lambda fem: "meia" if fem else "meio", function_words=FUNCTION_WORDS,
    ordinal_suffixes={"º": (False, False), "ª": (True, False), ".º": (False, False), ".ª": (True, False)},
    abbreviations=ABBREVIATIONS, titles=TITLES,
)

_NORMALIZER = Normalizer(SPEC)


def normalize_pt(text: str) -> str:
    """Brazilian Portuguese text -> the same text with numbers, dates, times, money, units and abbreviations in
    words.

    Args:
        text: raw Portuguese text, any length.
    Returns:
        the text with every recognized span spelled out, whitespace collapsed, punctuation kept.
    """
    return _NORMALIZER(text)
