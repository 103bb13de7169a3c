"""Issue 24, session 12: the classes still weak on the external suite, fixed by class (street addresses,
ranges, slash look-alikes, measures, codes), each checked in several written forms."""

from __future__ import annotations

import pytest

from onestep.frontend.en.classify import house_number
from onestep.frontend.en.normalize import normalize_en


@pytest.mark.parametrize(("written", "spoken"), [
    ("7", "seven"), ("42", "forty-two"), ("300", "three hundred"), ("481", "four eighty-one"),
    ("708", "seven oh eight"), ("1211", "twelve eleven"), ("4103", "forty-one oh three"),
    ("1200", "twelve hundred"), ("6000", "six thousand"), ("6006", "sixty oh six"), ("2788", "twenty-seven eighty-eight"),
    ("13655", "one three six five five"), ("0123", "zero one two three"),
])
def test_house_numbers_in_pairs_or_digits(written: str, spoken: str) -> None:
    assert house_number(written) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("2788 San Tomas Expy, Santa Clara, CA 95051",
     "twenty-seven eighty-eight San Tomas Expressway, Santa Clara, California nine five zero five one"),
    ("Address: 5385 W Spring Ter, Denver, AZ 42105",
     "Address: fifty-three eighty-five West Spring Terrace, Denver, Arizona four two one zero five"),
    ("Ship to 13655 N. 78th St.", "Ship to one three six five five North seventy-eighth Street."),
    ("3065 N. Washington Ter., Apt. 13B", "thirty sixty-five North Washington Terrace, apartment thirteen B"),
    ("We moved to 11339 N Park St, Ste 28C last year.",
     "We moved to one one three three nine North Park Street, suite twenty-eight C last year."),
    ("443 Spring Cir., Dayton, MA", "four forty-three Spring Circle, Dayton, Massachusetts"),
    ("1211 E Arques Ave", "twelve eleven East Arques Avenue"),
    ("Springfield, IL 62701", "Springfield, Illinois six two seven zero one"),
    ("Washington, DC 20500", "Washington, D C two zero five zero zero"),  # the District stays letters
    ("He lives at No. 10 Downing Street.", "He lives at number ten Downing Street."),
])
def test_street_addresses(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


def test_a_state_code_alone_is_not_a_state() -> None:
    assert "Oklahoma" not in normalize_en("Thanks, OK.")
    assert "Oregon" not in normalize_en("Tea, OR coffee 12345 times")
