"""Brazilian Portuguese normalizer: readings per class (exact output)."""

import pytest

from onestep.frontend.pt.normalize import normalize_pt

CASES = [
    ("Ela tem 2 filhas e 300 pessoas vieram.", "Ela tem duas filhas e trezentas pessoas vieram."),
    ("São 1.234 km.", "São mil duzentos e trinta e quatro quilômetros."),
    ("A taxa é de 13,75%.", "A taxa é de treze vírgula setenta e cinco por cento."),
    ("no 5º andar, a 1ª vez", "no quinto andar, a primeira vez"),
    ("em 1º de janeiro de 2025", "em primeiro de janeiro de dois mil e vinte e cinco"),
    ("em 07/09/1822", "em sete de setembro de mil oitocentos e vinte e dois"),
    ("às 8h, às 14h30 e às 21:15", "às oito horas, às catorze e trinta e às vinte e uma e quinze"),
    ("custa R$ 5,50", "custa cinco reais e cinquenta centavos"),
    ("ganhou R$ 1.000.000,00", "ganhou um milhão de reais"),
    ("faz 40 °C", "faz quarenta graus Celsius"),
    ("Ligue (11) 98765-4321", "Ligue um um, nove oito sete seis cinco, quatro três dois um"),
    ("O Sr. Almeida e a Sra. Costa", "O senhor Almeida e a senhora Costa"),
    ("às 9h15min, de 1 a 10", "às nove e quinze, de um a dez"),
    ("1/2 xícara e 3/4 do bolo", "meia xícara e três quartos do bolo"),
    ("CEP 01310-100", "CEP zero um três um zero-cem"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reading(text: str, expected: str) -> None:
    assert normalize_pt(text) == expected
