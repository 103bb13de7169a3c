"""Hindi normalizer and number reader: readings per class (exact output), and the reader against the case-table
generator's independent composition."""

import random

import pytest

from onestep_dev.eval.norm_case_gen import hi_words
from onestep.frontend.hi.normalize import normalize_hi
from onestep.frontend.hi.numbers import cardinal, year

CASES = [
    ("रेलगाड़ी में १५ डब्बे हैं।", "रेलगाड़ी में पंद्रह डब्बे हैं।"),
    ("भारत को १९४७ में स्वतंत्रता मिली।", "भारत को उन्नीस सौ सैंतालीस में स्वतंत्रता मिली।"),
    ("उसने ₹1,50,000 जमा किए।", "उसने एक लाख पचास हज़ार रुपये जमा किए।"),
    ("कीमत ₹1 है", "कीमत एक रुपया है"),
    ("कीमत ₹12.50 है", "कीमत बारह रुपये पचास पैसे है"),
    ("26/01/1950 को", "छब्बीस जनवरी उन्नीस सौ पचास को"),
    ("बैठक 10:30 बजे है।", "बैठक दस बजकर तीस मिनट है।"),
    ("गाड़ी 7:00 बजे आएगी।", "गाड़ी सात बजे आएगी।"),
    ("संभावना 60% है", "संभावना साठ प्रतिशत है"),
    ("तापमान 42°C है", "तापमान बयालीस डिग्री सेल्सियस है"),
    ("वह 3.5 किमी चला", "वह तीन दशमलव पाँच किलोमीटर चला"),
    ("21वीं सदी का 5वाँ साल", "इक्कीसवीं सदी का पाँचवाँ साल"),
    ("मेरा नंबर 98765 43210 है", "मेरा नंबर नौ आठ सात छह पाँच, चार तीन दो एक शून्य है"),
    ("डॉ. शर्मा आए", "डॉक्टर शर्मा आए"),
    ("1/2 किलो और 3/4 भाग", "आधा किलो और तीन चौथाई भाग"),
    ("1500 लोग, 1,500 लोग, ₹1,200", "पंद्रह सौ लोग, एक हज़ार पाँच सौ लोग, एक हज़ार दो सौ रुपये"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reading(text: str, expected: str) -> None:
    assert normalize_hi(text) == expected


def test_reader_agrees_with_the_generators_composition() -> None:
    r = random.Random(21)
    for n in [*range(0, 2000), *(r.randrange(10**12) for _ in range(2000))]:
        assert cardinal(n) == hi_words(n), n


def test_years_by_hundreds() -> None:
    assert year(1947) == "उन्नीस सौ सैंतालीस"
    assert year(1900) == "उन्नीस सौ"
    assert year(2024) == "दो हज़ार चौबीस"
