"""Amounts of money the money class (``classify._money``: an amount after a currency sign, in every written form)
leaves: ranges ("$5-$10"), currency codes ("EUR 50"), cents and pence signs, pre-decimal pounds.

``"$12.50"`` -> ``"twelve dollars and fifty cents"``, ``"$0.99"`` / ``"$.99"`` -> ``"ninety-nine cents"``,
``"€1.5 million"`` -> ``"one point five million euros"``, ``"$5-$10"`` -> ``"five to ten dollars"``,
``"EUR 50"`` -> ``"fifty euros"``, ``"a $20 bill"`` -> ``"a twenty dollar bill"`` (singular before a noun).
"""

from __future__ import annotations

import re

from onestep.frontend.en import tables
from onestep.frontend.en.numbers import cardinal, number
from onestep.frontend.en.rules import NUM, Rule, alternation, next_word, previous_word, rule

_AMOUNT = rf"(?:{NUM}|\.\d{{1,2}})"
_CURRENCY = alternation(tables.CURRENCIES)
_CODE = alternation(tables.CURRENCY_CODES)


def _scale(name: str) -> str:
    return rf"(?: ?(?P<{name}>thousand|million|billion|trillion|lakh crore|lakh|crore|cr(?=\.?(?:\s|$)))\b|(?P<{name}_abbr>[KkMmBbTt]n?|bn)(?![A-Za-z]))?"


def _scale_word(m: re.Match[str], name: str) -> str | None:
    written = m.group(name) or m.group(name + "_abbr")
    return tables.SCALES[written] if written else None


# Words after an amount that show it is not used as an adjective ("a $5 fee" is; "a $5 increase in" is too).
_NOT_NOUNS = frozenset("of in for to and or per a an the each at on by from with is was".split())


def spoken_amount(amount: str, currency: tuple[str, str, str | None, str | None], scale: str | None,
                  attributive: bool = False) -> str:
    """``("12.50", dollars, None)`` -> ``"twelve dollars and fifty cents"``.

    Args:
        amount: the written number (commas and decimals allowed, ".99" too).
        currency: (singular, plural, minor singular, minor plural) as in ``tables.CURRENCIES``.
        scale: "million", "billion", ... or None.
        attributive: the amount qualifies a noun ("a twenty dollar bill"): the unit stays singular.
    """
    major, majors, minor, minors = currency
    if attributive and not (minor is not None and re.fullmatch(r"[\d,]*\.(?!00)\d\d", amount)):
        majors = major  # "a twenty dollar bill"; with cents the amount is said whole ("a nine dollars and ...")
    if scale:
        return f"{number(amount)} {scale} {majors}"
    whole, _, frac = amount.replace(",", "").partition(".")
    if frac and (len(frac) != 2 or minor is None):
        return f"{number(amount)} {majors}"
    units, cents = int(whole or 0), int(frac or 0)
    parts = []
    if units or not cents:
        parts.append(f"{cardinal(units)} {major if units == 1 else majors}")
    if cents and minor is not None and minors is not None:
        parts.append(f"{cardinal(cents)} {minor if cents == 1 else minors}")
    return " and ".join(parts)


# Nouns an amount qualifies after any determiner ("the $10-$20 range", "your $50 budget").
_HEAD_NOUNS = frozenset(
    "range bracket bill note coin budget limit fee voucher ticket contract deal loan grant package settlement fine"
    " prize jackpot bonus".split()
)
# Plural nouns priced by the amount before them with no article ("$5 drafts", "$20 bills"): "five dollar drafts".
_PRICED_PLURALS = frozenset(
    "drafts beers drinks cocktails shots wines pints margaritas tacos slices sliders appetizers apps entrees bills"
    " notes coins tickets coupons vouchers".split()
)
# "a 5-year, $200 million contract", "a new $5 fee": an article, then up to two modifiers before the amount
_POSSESSIVES = frozenset("its their our his".split())
_ARTICLE_BEFORE = re.compile(r"(?:^|\s)(?:[Aa]n?) ((?:[\w-]+,? ){0,2})$")


def attributive_at(text: str, start: int, end: int, scaled: bool = False) -> bool:
    """Whether the amount at ``text[start:end]`` qualifies the noun after it ("a $20 bill", "the $10-$20 range",
    "$5 drafts", "its $28B acquisition"): its unit is then said in the singular."""
    after = next_word(text, end)
    if after in _HEAD_NOUNS or after in _PRICED_PLURALS:
        return True
    if not after.islower() or after in _NOT_NOUNS:
        return False
    if scaled and previous_word(text, start) in _POSSESSIVES and not after.endswith("ly"):
        return True  # "its $28B acquisition": a scaled amount after a possessive qualifies the noun after it
    article = _ARTICLE_BEFORE.search(text[max(0, start - 40) : start])
    # the words in between must be modifiers with a digit or hyphen ("5-year,"), not "A shirt costs $24 after"
    return article is not None and all(re.search(r"[\d-]", w) for w in article.group(1).split())


def _attributive(m: re.Match[str]) -> bool:
    return attributive_at(m.string, m.start(), m.end(), any(v for k, v in m.groupdict().items() if "scale" in k))


def _money_range(m: re.Match[str]) -> str:
    """"$5-$10" -> "five to ten dollars"; "$1-2 million" -> "one to two million dollars"; "$1M-$2M" -> "one
    million to two million dollars" (a scale written on both ends is said on both)."""
    currency = tables.CURRENCIES[m.group("cur")]
    low, high = m.group("low"), m.group("high")
    low_scale, high_scale = _scale_word(m, "low_scale"), _scale_word(m, "high_scale")
    if "." in low and len(low.partition(".")[2]) == 2:
        first = spoken_amount(low, currency, low_scale)
    else:
        first = number(low) + (f" {low_scale}" if low_scale else "")
    return f"{first} to {spoken_amount(high, currency, high_scale, _attributive(m))}"


def _code_amount(m: re.Match[str]) -> str:
    """"EUR 50" / "50 EUR" -> "fifty euros"."""
    currency = tables.CURRENCY_CODES[m.group("code") or m.group("code2")]
    amount = m.group("amount") or m.group("amount2")
    return spoken_amount(amount, currency, _scale_word(m, "scale") or _scale_word(m, "scale2"))


def _pence(m: re.Match[str]) -> str:
    """"50p" -> "fifty pence" (one or two digits: "1080p" is a video format)."""
    return f"{cardinal(int(m.group(1)))} {'penny' if m.group(1) == '1' else 'pence'}"


def _cents(m: re.Match[str]) -> str:
    amount = m.group(1)
    return f"{number(amount)} {'cent' if amount == '1' else 'cents'}"


def _pounds_shillings(m: re.Match[str]) -> str:
    """"£2 10s 6d" -> "two pounds ten shillings six pence": pre-decimal British money."""
    pounds, shillings, pence = m.group(1), m.group(2), m.group(3)
    spoken = f"{cardinal(int(pounds))} {'pound' if pounds == '1' else 'pounds'} "
    spoken += f"{cardinal(int(shillings))} {'shilling' if shillings == '1' else 'shillings'}"
    if pence:
        spoken += f" {cardinal(int(pence))} {'penny' if pence == '1' else 'pence'}"
    return spoken


#: Runs before the decades ("10s") and the other money passes.
SHILLINGS_RULE = rule(r"£(\d{1,4}) (1?\d)s(?:\.(?= \d))?(?: (1?\d)d\b)?(?![\w'’-])", _pounds_shillings, "£")

RULES: list[Rule] = [
    rule(
        rf"(?<![\w$])(?P<cur>{_CURRENCY}) ?(?P<low>{_AMOUNT}){_scale('low_scale')} ?[-–—] ?(?:(?P=cur) ?)?"
        rf"(?P<high>{_AMOUNT}){_scale('high_scale')}",
        _money_range,
        *tables.CURRENCY_SIGNS,
    ),
    rule(rf"({NUM}) ?¢", _cents, "¢"),
    rule(r"(?=\d)(?<![\w.£])(\d{1,2})p\b(?![-'’])", _pence, "p"),
    rule(
        rf"\b(?P<code>{_CODE}) ?(?P<amount>{NUM}){_scale('scale')}|"
        rf"(?<![\w.])(?P<amount2>{NUM}){_scale('scale2')} ?(?P<code2>{_CODE})\b",
        _code_amount,
        *tables.CURRENCY_CODES,
    ),
]
