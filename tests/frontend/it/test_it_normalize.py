"""Italian normalizer: readings per class (exact output)."""

import pytest

from onestep.frontend.it.normalize import normalize_it

CASES = [
    ("Nel 1941 l'Operazione.", "Nel millenovecentoquarantuno l'Operazione."),
    ("Ho 1 sorella e 1 fratello.", "Ho una sorella e un fratello."),
    ("2.300.000 abitanti", "due milioni trecentomila abitanti"),
    ("pesa 2,5 kg", "pesa due virgola cinque chili"),
    ("uno sconto del 30%", "uno sconto del trenta per cento"),
    ("il 3º piano, la 2ª volta", "il terzo piano, la seconda volta"),
    ("il 1º maggio 2024", "il primo maggio duemilaventiquattro"),
    ("il 02/06/1946", "il due giugno millenovecentoquarantasei"),
    ("alle 20:30 e alle 1:15", "alle venti e trenta e alle una e quindici"),
    ("costa 4,50 €", "costa quattro euro e cinquanta centesimi"),
    ("ha vinto 1.000.000 €", "ha vinto un milione di euro"),
    ("35 °C e 10 km", "trentacinque gradi Celsius e dieci chilometri"),
    ("tel. 02 1234 5678", "telefono zero due, uno due tre quattro, cinque sei sette otto"),
    ("il Sig. Rossi e la Dott.ssa Bianchi", "il signor Rossi e la dottoressa Bianchi"),
    ("nel '59 la staffetta 4x100", "nel cinquantanove la staffetta quattro per cento"),
    ("3/4 della torta", "tre quarti della torta"),
    ("nel 2023 e 123 volte", "nel duemilaventitré e centoventitré volte"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reading(text: str, expected: str) -> None:
    assert normalize_it(text) == expected
