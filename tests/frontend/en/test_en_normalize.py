"""English normalization: every category spelled out, table-driven (input -> exact normalized text)."""

from __future__ import annotations

import pytest

from onestep.frontend.en.normalize import normalize_en

CASES: list[tuple[str, str]] = [
    # cardinals, ordinals, decimals, negatives
    ("1,234 people", "one thousand two hundred thirty-four people"),
    ("I have 3 cats.", "I have three cats."),
    ("0", "zero"),
    ("1000000", "one million"),
    ("The 1st, 22nd, 3rd and 101st.", "The first, twenty-second, third and one hundred first."),
    ("pi is 3.14", "pi is three point one four"),
    ("0.5", "zero point five"),
    (".5 liters", "point five liters"),
    ("-5", "minus five"),
    ("\u22127", "minus seven"),
    ("007", "zero zero seven"),
    ("1,2,3", "one, two, three"),
    # years
    ("in 1998", "in nineteen ninety-eight"),
    ("in 2005", "in two thousand five"),
    ("in 2024", "in twenty twenty-four"),
    ("since 1905", "since nineteen oh five"),
    ("the 2024 election", "the twenty twenty-four election"),
    ("In 1800 and 1500 soldiers", "In eighteen hundred and one thousand five hundred soldiers"),
    ("between 1990 and 1995", "between nineteen ninety and nineteen ninety-five"),
    ("1963, almost.", "nineteen sixty-three, almost."),
    ("the 1990s", "the nineteen nineties"),
    ("the '80s", "the eighties"),
    # times
    ("3:30 pm", "three thirty P M"),
    ("10:05", "ten oh five"),
    ("at 7 a.m.", "at seven A M."),
    ("15:00", "fifteen hundred"),
    ("12:00 pm", "twelve P M"),
    ("at 9am", "at nine A M"),
    ("11:45 P.M. Then", "eleven forty-five P M. Then"),
    ("ratio 3:2", "ratio three to two"),
    # dates
    ("Jan. 5, 2024", "January fifth, twenty twenty-four"),
    ("2024-01-05", "January fifth, twenty twenty-four"),
    ("5 January 2024", "the fifth of January, twenty twenty-four"),
    ("12/25/2023", "December twenty-fifth, twenty twenty-three"),
    ("on May 5th", "on May fifth"),
    ("on the 9th May", "on the ninth of May"),
    ("March 2024", "March twenty twenty-four"),
    # money
    ("$12.50", "twelve dollars and fifty cents"),
    ("\u00a35", "five pounds"),
    ("\u20ac3.20", "three euros and twenty cents"),
    ("$1.2M", "one point two million dollars"),
    ("50\u00a2", "fifty cents"),
    ("$1", "one dollar"),
    ("$0.99", "ninety-nine cents"),
    ("$5 billion", "five billion dollars"),
    ("\u00a30.50", "fifty pence"),
    ("-$20", "minus twenty dollars"),
    ("\u00a5100", "one hundred yen"),
    ("100 USD", "one hundred U S dollars"),
    # percent
    ("50%", "fifty percent"),
    ("3.5%", "three point five percent"),
    ("5-10%", "five to ten percent"),
    # units: singular for exactly one
    ("1 km", "one kilometer"),
    ("5 km", "five kilometers"),
    ("2.5 kg", "two point five kilograms"),
    ("30\u00b0C", "thirty degrees Celsius"),
    ("-5\u00b0C", "minus five degrees Celsius"),
    ("1 mph", "one mile per hour"),
    ("100 km/h", "one hundred kilometers per hour"),
    ("16 GB", "sixteen gigabytes"),
    ("250 ms", "two hundred fifty milliseconds"),
    ("3 s", "three seconds"),
    ("2 h", "two hours"),
    ("6 ft", "six feet"),
    ("1 lb", "one pound"),
    ("98.6 \u00b0F", "ninety-eight point six degrees Fahrenheit"),
    ("90\u00b0", "ninety degrees"),
    ("5-10 km", "five to ten kilometers"),
    ("5 m\u00b2", "five square meters"),
    # fractions, ranges, multiplication
    ("1/2", "one half"),
    ("3/4", "three quarters"),
    ("2/3", "two thirds"),
    ("2 1/2", "two and a half"),
    ("\u00bd cup", "one half cup"),
    ("1/100", "one hundredth"),
    ("24/7", "twenty-four seven"),
    ("5-10", "five to ten"),
    ("1990\u20131995", "nineteen ninety to nineteen ninety-five"),
    ("pages 10-20", "pages ten to twenty"),
    ("the 2019-20 season", "the twenty nineteen to twenty season"),
    ("3x faster", "three times faster"),
    ("a 4x4 truck", "a four by four truck"),
    # abbreviations
    ("Dr. Smith", "Doctor Smith"),
    ("Visit St. Louis.", "Visit Saint Louis."),
    ("on Main St.", "on Main Street."),
    ("Take Mulholland Dr. to get there.", "Take Mulholland Drive to get there."),
    ("Mr. and Mrs. Jones", "Mister and Missus Jones"),
    ("Ms. Lee and Prof. Xu", "Miz Lee and Professor Xu"),
    ("e.g. this", "for example this"),
    ("i.e. that", "that is that"),
    ("apples, pears, etc.", "apples, pears, et cetera."),
    ("It has cats etc. The end.", "It has cats et cetera. The end."),
    ("cats vs. dogs", "cats versus dogs"),
    ("Jan. and Feb.", "January and February."),
    ("No. 5", "number five"),
    ("John L. Quigley", "John L. Quigley"),
    # initialisms (letter by letter) and acronyms (words)
    ("the FBI", "the F B I"),
    ("an API", "an A P I"),
    ("a USB port", "a U S B port"),
    ("HTTP and HTTPS", "H T T P and H T T P S"),
    ("the CPU", "the C P U"),
    ("AI", "A I"),
    ("APIs and CPUs", "A P Is and C P Us"),
    ("in the U.S.", "in the U S."),
    ("NASA", "Nasa"),
    ("NATO", "Nato"),
    ("UNESCO", "Unesco"),
    ("SCUBA", "Scuba"),
    ("RAM", "Ram"),
    ("FEMA", "Fema"),
    ("I said NO!", "I said No!"),
    ("AT&T", "A T and T"),
    ("OK", "okay"),
    ("R&D", "R and D"),
    ("NASA's budget", "Nasa's budget"),
    # emergency and phone numbers, digit by digit
    ("call 911", "call nine one one"),
    ("(555) 123-4567", "five five five, one two three, four five six seven"),
    ("+1 800 555 0199", "plus one, eight hundred, five five five, zero one nine nine"),
    ("call 555-1234", "call five five five, one two three four"),
    ("1-800-555-0199", "one, eight hundred, five five five, zero one nine nine"),
    # versions and addresses
    ("v2.0", "version two point zero"),
    ("v1.2.3", "version one point two point three"),
    ("192.168.0.1", "one nine two dot one six eight dot zero dot one"),  # round 6: octets of three digits one by one
    ("1.2.3", "one point two point three"),
    # symbols
    ("Tom & Jerry", "Tom and Jerry"),
    ("me@home", "me at home"),
    ("#1", "number one"),
    ("#tag", "hashtag tag"),
    ("1+1=2", "one plus one equals two"),
    ("C++ and C#", "C plus plus and C sharp"),
    # URLs and e-mail addresses
    ("https://www.example.com/docs", "W W W dot example dot com slash docs"),
    ("john.doe@gmail.com", "john dot doe at gmail dot com"),
    ("github.com/user", "github dot com slash user"),
    ("See www.google.com. Then", "See W W W dot google dot com. Then"),
    # letters glued to digits, roman numerals
    ("B2B", "B to B"),
    ("MP3", "M P three"),
    ("H2O", "H two O"),
    ("World War II", "World War two"),
    ("Henry VIII", "Henry the eighth"),
    ("Louis XIV.", "Louis the fourteenth."),
    ("He said -- no.", "He said — no."),
    (
        "12345678901234567890",
        "one two three four, five six seven eight, nine zero one two, three four five six, seven eight nine zero",
    ),
    # untouched text, cleanup
    ("Hello, world!", "Hello, world!"),
    ("Hello \U0001f600 world", "Hello world"),
    ("tab\there\x07", "tab here"),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_normalize_en(text: str, expected: str) -> None:
    assert normalize_en(text) == expected


def test_normalized_corpus_has_no_digits_or_symbols() -> None:
    sample = "It cost $3.50 (about 20% more) at 5:45 pm on 3/4/2021 -- see www.shop.com & call 911."
    out = normalize_en(sample)
    assert not any(c.isdigit() for c in out)
    assert not set("$%&@#") & set(out)
