"""The semiotic classes of the English normalizer (``classify``): a class found in every common written form,
read by its verbalizer, and the context rules that settle what the shape alone cannot."""

from __future__ import annotations

import pytest

from onestep.frontend.en.classify import (
    Date,
    Money,
    Telephone,
    month_number,
    verbalize_date,
    verbalize_money,
    verbalize_telephone,
)
from onestep.frontend.en.normalize import normalize_en


def test_verbalizers() -> None:
    assert verbalize_date(Date(7, 25, 2012, day_first=True)) == "the twenty-fifth of July, twenty twelve"
    assert verbalize_date(Date(7, 25, 2012, day_first=True), after_the=True) == "twenty-fifth of July, twenty twelve"
    assert verbalize_date(Date(1, 5, 2024)) == "January fifth, twenty twenty-four"
    assert verbalize_date(Date(5, None, 1932)) == "May nineteen thirty-two"
    assert verbalize_date(Date(3, 9, None, weekday="Tuesday")) == "Tuesday, March ninth"
    assert verbalize_money(Money("$", 20, 50)) == "twenty dollars and fifty cents"
    assert verbalize_money(Money("$", 0, 5)) == "five cents"
    assert verbalize_money(Money("£", 1, 1)) == "one pound and one penny"
    assert verbalize_money(Money("¥", 30, scale="billion")) == "thirty billion yen"
    assert verbalize_money(Money("$", None, digits="506")) == "point five zero six dollars"
    assert verbalize_money(Money("$", 0, 50, per="hour")) == "fifty cents per hour"
    assert verbalize_telephone(Telephone(("123", "45", "6789"))) == "one two three, four five, six seven eight nine"
    assert verbalize_telephone(Telephone(("10", "0", "0", "1"), joiner=" dot ")) == "one zero dot zero dot zero dot one"
    assert verbalize_telephone(Telephone(("555", "0100"), "12")) == "five five five, zero one zero zero, extension one two"


@pytest.mark.parametrize("written", ["SEPT.", "Sept", "sept.", "September", "SEPTEMBER", "september", "Sep", "SEP."])
def test_month_names_in_every_casing(written: str) -> None:
    assert month_number(written) == 9
    assert month_number("Mayday") is None


@pytest.mark.parametrize("written", [
    "JAN 15 2020", "Jan. 15, 2020", "jan 15, 2020", "January 15th, 2020", "JANUARY 15TH 2020", "january 15 2020",
])
def test_month_first_dates_read_alike(written: str) -> None:
    assert normalize_en(f"It was {written}.") == "It was January fifteenth, twenty twenty."


@pytest.mark.parametrize("written", ["15 Jan 2020", "15 JAN 2020", "15th jan. 2020", "15 of January, 2020",
                                     "15TH JANUARY 2020", "15 january 2020"])
def test_day_first_dates_read_alike(written: str) -> None:
    assert normalize_en(f"It was {written}.") == "It was the fifteenth of January, twenty twenty."


def test_dates_without_a_year_and_with_a_weekday() -> None:
    assert normalize_en("See you SEPT. 15") == "See you September fifteenth"
    assert normalize_en("See you 22 jul") == "See you the twenty-second of July"
    assert normalize_en("Tue, Mar 5, 2024") == "Tuesday, March fifth, twenty twenty-four"
    assert normalize_en("Prices in MARCH 2020 rose.") == "Prices in March twenty twenty rose."


def test_words_that_are_also_months_stay_words() -> None:
    assert normalize_en("Item 5 may be late.") == "Item five may be late."
    assert normalize_en("The 3 march on.") == "The three march on."
    assert normalize_en("in part i think") == "in part i think"


@pytest.mark.parametrize(("text", "spoken"), [
    ("It happened in 1975.", "It happened in nineteen seventy-five."),
    ("Prices rose since 2012.", "Prices rose since twenty twelve."),
    ("Finish it by 1408.", "Finish it by fourteen oh eight."),
    ("A letter from 1823.", "A letter from eighteen twenty-three."),
    ("1975", "nineteen seventy-five"),  # alone on a line
    ("The 1980 s were loud.", "The nineteen eighties were loud."),
    ("The war lasted from 1861 to 1865.", "The war lasted from eighteen sixty-one to eighteen sixty-five."),
    ("It ran 1220 to 1272.", "It ran twelve twenty to twelve seventy-two."),
])
def test_years_by_context(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("It won by 1537 votes.", "It won by one thousand five hundred thirty-seven votes."),
    ("about 1085 items", "about one thousand eighty-five items"),
    ("from 1234 to 1567 people", "from one thousand two hundred thirty-four to one thousand five hundred sixty-seven "
                                 "people"),
    ("We sold 1975 units and 2-5 more.", "We sold one thousand nine hundred seventy-five units and two to five more."),
])
def test_counts_are_not_years(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


def test_telephone_shapes_read_digit_by_digit() -> None:
    assert normalize_en("SSN 123-45-6789") == "S S N one two three, four five, six seven eight nine"
    assert normalize_en("Ping 192.168.1.10") == "Ping one nine two dot one six eight dot one dot one zero"
    assert normalize_en("Call 555-123-4567 x 89.") == (
        "Call five five five, one two three, four five six seven, extension eight nine.")
    assert normalize_en("Install Build 1.2.3.4 first.") == "Install Build one point two point three point four first."


@pytest.mark.parametrize(("text", "spoken"), [
    ("$20.5", "twenty dollars and fifty cents"),
    ("$.506", "point five zero six dollars"),
    ("$0.5/hr", "fifty cents per hour"),
    ("$1/d", "one dollar per day"),
    ("£98/kg", "ninety-eight pounds per kilogram"),
    ("¥30 b", "thirty billion yen"),
    ("$5M", "five million dollars"),
    ("$1.5–2 million", "one point five to two million dollars"),
])
def test_money(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("12KG", "twelve kilograms"), ("833LBS", "eight hundred thirty-three pounds"),
    ("3 MBPS", "three megabits per second"), ("354gb", "three hundred fifty-four gigabytes"),
    ("12/kg", "twelve per kilogram"), ("26 - 55%", "twenty-six to fifty-five percent"),
    ("3 p.m. e.s.t", "three P M E S T"),
])
def test_units_and_zones_in_other_casings(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("PART XL", "Part forty"), ("Read vol. VIII now", "Read Volume eight now"),
    ("See chapter xiv", "See chapter fourteen"), ("Henry X died.", "Henry the tenth died."),
    ("Watch WrestleMania XXI", "Watch WrestleMania twenty-one"),
])
def test_roman_numerals_after_headings_and_names(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    ("See you JUNE 8-29!", "See you June eighth to twenty-ninth!"),
    ("Born 13-Apr-2016.", "Born the thirteenth of April, twenty sixteen."),
    ("Due JUN-07-1983", "Due June seventh, nineteen eighty-three"),
    ("Dial 0044 59 872 0184 now", "Dial zero zero four four, five nine, eight seven two, zero one eight four now"),
    ("at 672KM/H", "at six hundred seventy-two kilometers per hour"),
    ("It was 38°c.", "It was thirty-eight degrees Celsius."),
])
def test_round_3_forms(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "spoken"), [
    # words that only look like a class stay as they are
    ("We march 5 miles a day.", "We march five miles a day."),
    ("Troops march 20 km daily.", "Troops march twenty kilometers daily."),
    ("In the preceding chapter I have been tempted.", "In the preceding chapter I have been tempted."),
    ("Appendix C lists it.", "Appendix C lists it."),
    ("Part I of the series", "Part one of the series"),
    # a year before a noun after a year cue stays a year
    ("By 2030 emissions must fall.", "By twenty thirty emissions must fall."),
    ("from 1950 levels", "from nineteen fifty levels"),
    ("in 1999 dollars", "in nineteen ninety-nine dollars"),
])
def test_look_alikes(text: str, spoken: str) -> None:
    assert normalize_en(text) == spoken


@pytest.mark.parametrize(("text", "expected"), [
    # clock times with seconds: every part said (NeMo's reading); zero seconds add nothing
    ("14:10:30", "fourteen hours ten minutes and thirty seconds"),
    ("1:01:01", "one hour one minute and one second"),
    ("10:00:00 p.m.", "ten P M."),
    # a time zone after a meridiem in any casing, spaced or glued
    ("1:59 p.m. est", "one fifty-nine P M E S T"),
    ("1:59 p.m.est", "one fifty-nine P M E S T"),
    ("Logged 9:55 pm gmt.", "Logged nine fifty-five P M G M T."),
    # telephone groups: a dash after the area code in parentheses, a dashed last group
    ("(123)-123-5678", "one two three, one two three, five six seven eight"),
    ("123-123-5678-1111", "one two three, one two three, five six seven eight, one one one one"),
    ("Tel: 0044 98 460 0120", "telephone zero zero four four, nine eight, four six zero, zero one two zero"),
    # fractions: an ordinal suffix in any casing, a denominator of one
    ("1/4TH", "one quarter"),
    ("About 2/3RD of it.", "About two thirds of it."),
    ("142/1", "one hundred forty-two over one"),
    # serials of four or more letter/digit groups, character by character; three are names
    ("25d08A", "two five d zero eight A"),
    ("t-0t25d12-f", "t, zero t two five d one two, f"),
    ("a16z", "a sixteen z"),
    ("H2SO4", "H two S O four"),
    ("9am-5pm", "nine A M to five P M"),
    # decades with a stray space; seconds after a count stay seconds
    ("1980 s", "nineteen eighties"),
    ("a 1500 s exposure", "a one thousand five hundred second exposure"),
    # a rate in capitals, a season's two-digit second year
    ("508 GB/S", "five hundred eight gigabytes per second"),
    ("The 2002/03 season", "The two thousand two to oh three season"),
    ("the 2002-03 season", "the two thousand two to oh three season"),
])
def test_issue_24_round_4_classes(text: str, expected: str) -> None:
    assert normalize_en(text) == expected
