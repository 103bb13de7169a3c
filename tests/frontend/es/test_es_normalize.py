"""Spanish normalizer: readings per class (exact output)."""

import pytest

from onestep.frontend.es.normalize import normalize_es

CASES = [
    # cardinals and agreement
    ("Tengo 21 años.", "Tengo veintiún años."),
    ("Vinieron 21 personas.", "Vinieron veintiuna personas."),
    ("Hay 200 casas.", "Hay doscientas casas."),
    ("Son 21000 habitantes.", "Son veintiún mil habitantes."),
    ("Pagó 1.000.000 €.", "Pagó un millón de euros."),
    # decimals, percent
    ("Mide 3,14 metros.", "Mide tres coma catorce metros."),
    ("Sube un 0,05 %.", "Sube un cero coma cero cinco por ciento."),
    # ordinals
    ("el 3.er piso y la 2ª planta", "el tercer piso y la segunda planta"),
    # dates
    ("el 1 de mayo de 1990", "el primero de mayo de mil novecientos noventa"),
    ("el 15/08/2024", "el quince de agosto de dos mil veinticuatro"),
    # times
    ("a las 13:05", "a las trece y cinco"),
    ("a la 1:00", "a la una en punto"),
    # money
    ("cuesta 12,50 €", "cuesta doce euros con cincuenta céntimos"),
    ("cuesta $1", "cuesta un dólar"),
    # units
    ("a 120 km/h y -2 °C", "a ciento veinte kilómetros por hora y menos dos grados Celsius"),
    # phone
    ("al 612 345 678", "al seis uno dos, tres cuatro cinco, seis siete ocho"),
    # abbreviations and titles
    ("El Sr. Pérez, la Dra. Gil, etc.", "El señor Pérez, la doctora Gil, etcétera."),
    ("Peras, etc. Luego, la pág. 5.", "Peras, etcétera. Luego, la página cinco."),
    # ranges, fractions, a number before a function word does not agree with it
    ("de 10-20 km", "de diez a veinte kilómetros"),
    ("3/4 de taza y 1/2 hora", "tres cuartos de taza y media hora"),
    ("del 1 al 10 de junio", "del uno al diez de junio"),
    ("101 dálmatas y 21 turistas", "ciento un dálmatas y veintiún turistas"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reading(text: str, expected: str) -> None:
    assert normalize_es(text) == expected


def test_words_are_kept_and_digits_glued_to_letters_are_spaced() -> None:
    assert normalize_es("El MP3 del año 2020.") == "El MP tres del año dos mil veinte."


def test_spans_point_into_the_original_text() -> None:
    from onestep.frontend.es.normalize import _NORMALIZER

    text = "Pagó 12,50 € el 5 de marzo."
    out, spans = _NORMALIZER.spans(text)
    assert [(text[s.start:s.end], s.rule) for s in spans] == [("12,50 €", "money"), ("5 de marzo.", "date")]
    assert out == "Pagó doce euros con cincuenta céntimos el cinco de marzo."
