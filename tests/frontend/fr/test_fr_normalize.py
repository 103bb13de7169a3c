"""French normalizer: readings per class (exact output)."""

import pytest

from onestep.frontend.fr.normalize import normalize_fr

CASES = [
    ("Il a 71 ans.", "Il a soixante et onze ans."),
    ("Il a attendu 21 minutes.", "Il a attendu vingt et une minutes."),
    ("La ville a 10 000 habitants.", "La ville a dix mille habitants."),
    ("Un gain de 2 000 000 €.", "Un gain de deux millions d'euros."),
    ("Il mesure 1,85 m.", "Il mesure un virgule quatre-vingt-cinq mètre."),
    ("Une hausse de 12,5 %.", "Une hausse de douze virgule cinq pour cent."),
    ("au 2e étage, la 1re fois", "au deuxième étage, la première fois"),
    ("le 1er mars 2024", "le premier mars deux mille vingt-quatre"),
    ("le 14/07/1789", "le quatorze juillet mille sept cent quatre-vingt-neuf"),
    ("à 9h30", "à neuf heures trente"),
    ("à 21:00", "à vingt et une heures"),
    ("à 1h", "à une heure"),
    ("ça coûte 3,99 €", "ça coûte trois euros et quatre-vingt-dix-neuf centimes"),
    ("il fait -5 °C", "il fait moins cinq degrés Celsius"),
    ("Appelez le 06 12 34 56 78.", "Appelez le zéro six, douze, trente-quatre, cinquante-six, soixante-dix-huit."),
    ("M. Dupont et Mme Durand", "monsieur Dupont et madame Durand"),
    ("Voir p. 12, etc.", "Voir page douze, et cetera."),
    ("les 2/3 des voix", "les deux tiers des voix"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reading(text: str, expected: str) -> None:
    assert normalize_fr(text) == expected


def test_elided_article_after_a_number_is_not_a_unit() -> None:
    assert normalize_fr("en 1990 l'équipe") == "en mille neuf cent quatre-vingt-dix l'équipe"
