"""The classes that were still weak on the external suite (issue 24), by class: street addresses,
ranges, slash look-alikes, measures, codes, each checked in several written forms."""

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
    ("3065 N. Washington Ter., Apt. 13B", "thirty sixty-five North Washington Terrace, Apartment thirteen B"),
    ("We moved to 11339 N Park St, Ste 28C last year.",
     "We moved to one one three three nine North Park Street, Suite twenty-eight C last year."),
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


@pytest.mark.parametrize(("text", "spoken"), [
    ("Wait 36~53 days.", "Wait thirty-six to fifty-three days."),
    ("1.5~2.0 mm", "one point five to two point zero millimeters"),
    ("~5 people", "about five people"),  # a tilde before one number is still "about"
    ("from 34kg-61kg", "from thirty-four kilograms to sixty-one kilograms"),
    ("10%-20%", "ten percent to twenty percent"),
    ("5 km – 10 km", "five kilometers to ten kilometers"),
    ("The 1920s–30s saw growth.", "The nineteen twenties to thirties saw growth."),  # decades, not seconds
])
def test_ranges_with_a_tilde_or_the_unit_on_both_ends(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("She scored 5/20 on the test.", "She scored five out of twenty on the test."),
    ("got 12/25", "got twelve out of twenty-five"),
    ("He got 3/4 of the vote", "He got three quarters of the vote"),  # "of": a fraction
    ("born 1850/51", "born eighteen fifty to fifty-one"),
    ("the 2023/24 season", "the twenty twenty-three to twenty-four season"),
    ("in 2023/2024", "in twenty twenty-three to twenty twenty-four"),
    ("He was born in 1536 / 1537.", "He was born in fifteen thirty-six or fifteen thirty-seven."),
    ("1795 / 1805", "seventeen ninety-five or eighteen oh five"),
    ("Send it c/o Jane Doe.", "Send it care of Jane Doe."),
])
def test_slash_look_alikes(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("40.5 Kg", "forty point five kilograms"),
    ("12 Km away", "twelve kilometers away"),
    ("It is 911 million kg.", "It is nine hundred eleven million kilograms."),
    ("Call 911 now.", "Call nine one one now."),
    ("Porsche 911", "Porsche nine eleven"),
])
def test_measures_in_title_case_and_a_quantity_of_911(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("Serial no. RL-8896", "Serial number R L eight eight nine six"),
    ("Part No. XJ-220", "Part number X J two two zero"),
    ("the F-16", "the F sixteen"),  # a model, in pairs
    ("part A-12 of the plan", "part A twelve of the plan"),
])
def test_identifiers_after_a_naming_word_digit_by_digit(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("978-0-306-40615-7", "nine seven eight, zero, three zero six, four zero six one five, seven"),
    ("ISBN: 979-10-90636-07-1", "I S B N: nine seven nine, one zero, nine zero six three six, zero seven, one"),
    ("978-0", "nine seven eight, zero"),  # the EAN prefix alone
    ("pages 978-990", "pages nine hundred seventy-eight to nine hundred ninety"),  # a range stays a range
])
def test_isbn_without_its_cue(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("email is a-1.b3_c&-d@gma4i-l.com test",
     "email is a dash one dot b three underscore c ampersand dash d at gma four i dash l dot com test"),
    ("Write to john.smith@example.com.", "Write to john dot smith at example dot com."),
    ("mail hr@acme.com", "mail H R at acme dot com"),
])
def test_email_local_parts_with_dashes_and_ampersands(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


def test_a_stray_dot_before_an_email_is_not_read_into_it() -> None:
    assert "dot b" not in normalize_en("test .b@gmail.com")


# ------------------------------------------------------------------ years: one owner (classify.year_at)

@pytest.mark.parametrize(("text", "spoken"), [
    ("It happened in 1975.", "It happened in nineteen seventy-five."),
    ("Prices have risen since 2012.", "Prices have risen since twenty twelve."),
    ("Finish it by 2030.", "Finish it by twenty thirty."),
    ("A letter from 1905.", "A letter from nineteen oh five."),
    ("In 1066, the king died.", "In ten sixty-six, the king died."),  # a cue word reads 1000-2199 as a year
    ("by 1537 votes", "by one thousand five hundred thirty-seven votes"),  # a count
    ("about 1085 items", "about one thousand eighty-five items"),
    ("in 1903 and 1911", "in nineteen oh three and nineteen eleven"),
    ("There were 1975 people.", "There were one thousand nine hundred seventy-five people."),  # no cue
])
def test_years_after_a_cue_word(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("line", "spoken"), [
    ("1975", "nineteen seventy-five"), ("2012.", "twenty twelve."), ("1100", "eleven hundred"),
    ("2099", "twenty ninety-nine"),
    ("1099", "one thousand ninety-nine"), ("2100", "two thousand one hundred"),  # outside 1100-2099: a number
])
def test_a_four_digit_line_is_a_year_within_1100_to_2099(line: str, spoken: str) -> None:
    assert normalize_en(line) == spoken


def test_the_year_class_owns_the_year_decision() -> None:
    from onestep.frontend.en import classify, normalize

    assert classify.year_at("in 1975", 3, 7) and not classify.year_at("about 1085 items", 6, 10)
    assert classify.year_at("1100", 0, 4) and not classify.year_at("1099", 0, 4)
    assert not classify.year_at("2100", 0, 4) and classify.year_at("by 2150", 3, 7)
    assert not hasattr(normalize, "_year_context") and not hasattr(classify, "_cued_year")


@pytest.mark.parametrize(("text", "spoken"), [
    ("Check the A/C settings.", "Check the A C settings."),
    ("A/B testing", "A B testing"),
    ("N/A", "N A"),
    ("Lows of -3 to -1°C.", "Lows of minus three to minus one degrees Celsius."),  # a range's unit is plural
    ("up to 1 Gbps", "up to one gigabit per second"),  # "up to" is not a range
    ("It was -1°C.", "It was minus one degree Celsius."),
])
def test_letters_joined_by_a_slash_and_a_range_ending_in_one(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("The F-16s flew over.", "The F sixteens flew over."),
    ("two B-52s", "two B fifty-twos"),
    ("MiG-29s", "MiG twenty-nines"),
    ("a T-60s model", "a T sixties model"),
    ("Wait 5s", "Wait five seconds"),  # a number alone before "s" is still seconds
])
def test_a_models_plural_is_not_seconds(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("the 747s", "the seven forty-sevens"),
    ("Boeing 737s and 747s", "Boeing seven thirty-sevens and seven forty-sevens"),
    ("We flew Airbus 321s.", "We flew Airbus three twenty-ones."),
    ("Three 827s are parked.", "Three eight twenty-sevens are parked."),
    ("their 45s", "their forty-fives"),
    # round numbers stay decades and ages, seconds stay seconds after a duration word or an imperative
    ("the 1990s", "the nineteen nineties"),
    ("the 20s", "the twenties"),
    ("in his 40s", "in his forties"),
    ("in the 1800s", "in the eighteen hundreds"),
    ("hold for 45s", "hold for forty-five seconds"),
    ("Sprint 45s, rest 15s.", "Sprint forty-five seconds, rest fifteen seconds."),
    ("Time 58s", "Time fifty-eight seconds"),
    ("a lap of 58s", "a lap of fifty-eight seconds"),
])
def test_a_number_used_as_a_name_has_a_plural(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("12 May St Mary's", "the twelfth of May Saint Mary's"),
    ("On Sunday St. Paul's was full.", "On Sunday Saint Paul's was full."),
    ("St Mary's", "Saint Mary's"),
    ("St. John", "Saint John"),
    ("5 High St", "five High Street"),
    ("Walk from 5 High St to St. Mary's now.", "Walk from five High Street to Saint Mary's now."),
    ("He lives on Main St.", "He lives on Main Street."),
])
def test_st_is_saint_before_a_name_and_street_after_one(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken
