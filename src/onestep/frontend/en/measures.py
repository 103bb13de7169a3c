"""Measures: a number and a unit, compound units, areas and volumes, feet and inches, percentages, dimensions.

``"60 km/h"`` -> ``"sixty kilometers per hour"``, ``"20 m²"`` -> ``"twenty square meters"``, ``"9.8 m/s²"`` ->
``"nine point eight meters per second squared"``, ``"10 mg/kg"`` -> ``"ten milligrams per kilogram"``,
``"500 sq ft"`` -> ``"five hundred square feet"``, ``"5'11\\""`` -> ``"five foot eleven"``, ``"12\\""`` -> ``"twelve
inches"``, ``"30 x 20 cm"`` -> ``"thirty by twenty centimeters"``, ``"5-10%"`` -> ``"five to ten percent"``.
Units are case-sensitive ("MB" megabytes; "mb" is not read). Superscript powers arrive as ``^2``/``^3``
(see ``normalize._clean``).
"""

from __future__ import annotations

import re

from onestep.frontend.en import numbers, tables
from onestep.frontend.en.numbers import cardinal, model_number, number
from onestep.frontend.en.rules import NUM, SIGNED, Rule, alternation, ends_sentence, next_word, previous_word, rule

# "in" is a unit only with its period and a lower-case word after it ("2-4 in. of snow"), at the end of the
# text ("0.5 in", "12-18 in."), before "of" and a bare noun ("0.25 in of rain") or before a dimension ("10 in wide",
# "2 in x 4 in"): "5 in the box" is not.
_UNIT = alternation(tables.UNITS) + (
    r"|in(?=\. [a-z]|\.?\s*$|\)| of (?!(?:the|a|an|my|his|her|their|our|its|them|these|those|which)\b)[a-z]"
    r"| (?:wide|long|tall|high|deep|thick|across|in diameter)(?=\s*(?:[.,;:)!?]|$| (?:and|or|by|x|×|when|with|at|on|"
    r"but|so|from)\b))| (?:[x×]|by) \d)")
# Lengths after "per" with a power are read "per square meter" ("25 kg/m²"); other units "per second squared".
_LENGTHS = frozenset("m cm mm km ft in yd mi".split())
_INCH = ("inch", "inches")
_POWER = r"(?:\^[23]|(?<=[a-z])[23](?![\d.,]\d|\w))"
_RANGE_DASH = r"(?:-| ?[–—] ?)"
_POWER_WORDS = {"2": ("square", "squared"), "3": ("cubic", "cubed")}
# Unit abbreviations that may carry a period ("5 ft. tall", "1,200 sq. ft.").
_DOTTED_UNITS = frozenset("ft in yd mi oz lb lbs gal qt tsp tbsp hr hrs min mins sec secs sq cu mos wks yrs".split())


def _per(m: re.Match[str]) -> str:
    """"/month" after an amount, a unit or a counted noun ("$9.99/month", "5 mg/day", "1,000 requests/min")
    -> " per month"."""
    before = m.string[max(0, m.start() - 24) : m.start()]
    if not re.search(r"\d ?[A-Za-zµ]{0,4}$|\d [a-z]{2,12}s$", before):  # "1,000 requests/min" too
        return m.group(0)
    return f" per {tables.PER_WORDS[m.group(1)]}"


def _quantity(first: str, second: str | None) -> str:
    spoken = number(first)
    if second:
        spoken += " to " + number(second)
    return spoken


def _percent(m: re.Match[str]) -> str:
    return _quantity(m.group(1), m.group(2)) + " percent"


def _power(written: str | None) -> str | None:
    return written[-1] if written else None


def spoken_unit(unit: str, plural: bool, power: str | None = None, per: str | None = None,
                per_power: str | None = None) -> str:
    """``("m", True, "2")`` -> ``"square meters"``; ``("m", True, per="s", per_power="2")`` ->
    ``"meters per second squared"``; ``("mg", True, per="kg")`` -> ``"milligrams per kilogram"``."""
    singular, plurals = tables.UNITS[unit] if unit != "in" else _INCH
    spoken = plurals if plural else singular
    if power:
        spoken = f"{_POWER_WORDS[power][0]} {spoken}"
    if per:
        last = per.split("/")[-1]
        for each in per.split("/"):  # "µg/kg/min": micrograms per kilogram per minute
            name = tables.UNITS[each][0] if each != "in" else _INCH[0]
            if per_power and each == last and each in _LENGTHS:
                name = f"{_POWER_WORDS[per_power][0]} {name}"  # "kg/m²": per square meter
            spoken += " per " + name
        if per_power and last not in _LENGTHS:
            spoken += " " + _POWER_WORDS[per_power][1]
    return spoken


# Words after "a 10 kg ..." that show the measure is not an adjective before a noun.
_NOT_NOUNS = frozenset("of in for to and or per a an the each at on by from with is was away long".split())


def _attributive(m: re.Match[str]) -> bool:
    """"a 10 kg bag", "the 100 m sprint", "the 4 by 100 m relay": the unit stays singular before a noun."""
    start = m.start()
    while (by := re.search(r"\d by $", m.string[max(0, start - 12) : start])) is not None:  # "the 4 by 100m relay"
        start = start - len(by.group(0)) + 1
        while start > 0 and (m.string[start - 1].isdigit() or m.string[start - 1] in ".,"):
            start -= 1
    before = previous_word(m.string, start).lower()
    after = next_word(m.string, m.end())
    if after in _ATTRIBUTIVE_NOUNS or after in tables.CONTAINERS:
        return True  # "65 W charging", "a 3 nm process"
    if m.string.startswith(")", m.end()) and next_word(m.string, m.end() + 1) in _BRACKETED_CONTAINERS:
        return True  # "1 (14.5 oz) can of tomatoes": the size of the can in brackets
    if after in _DURATION_NOUNS and m.group("unit") in _TIME_UNITS:
        return True  # "2 hr limit", "a 30 min drive"
    if before in ("a", "an") and after[:1].isupper():
        return True  # "a 3.5L EcoBoost V6", "a 5.0L V8"
    return before in ("a", "an", "the", "one") and (
        (after.islower() and after not in _NOT_NOUNS) or (2 <= len(after) <= 5 and after.isupper())  # "a 2 TB SSD"
    )


# Nouns that a measure before them describes even without an article ("supports 65 W charging").
_ATTRIBUTIVE_NOUNS = frozenset(
    "charging charger chargers adapter adapters bulb bulbs process node fast wireless"
    # doses and portions sold by their size: "200 mg tablets", "an 8 oz. sirloin"
    " tablets capsules caplets softgels pills vials lozenges sachets steak steaks sirloin ribeye filet fillet"
    " tenderloin burger burgers patty patties".split()
)  # "65W fast charging"


# Containers named after a size in brackets ("1 (14.5 oz) can"), singular or plural.
_BRACKETED_CONTAINERS = tables.CONTAINERS | frozenset(
    "can jar pack bag box carton tub tube pouch packet bottle jug tin bar package container stick".split()
)
# Time units written short, and nouns that a duration before them describes ("2 hr limit", "45 min walk").
_TIME_UNITS = frozenset("h hr hrs min mins sec secs s wk wks".split())
_DURATION_NOUNS = frozenset(
    "limit wait drive walk ride delay break shift window session trip layover commute nap workout class lecture"
    " meeting flight run timer stay lunch cycle bake".split()
)


def _fraction_quantity(m: re.Match[str]) -> tuple[str, bool]:
    """"3/4 tsp" -> ("three quarters", singular), "1 1/2 cups" -> ("one and a half", plural)."""
    num, den = int(m.group("num")), int(m.group("den"))
    if m.group("whole"):
        return numbers.mixed_number(int(m.group("whole")), num, den, before_noun=True), False
    return numbers.fraction(num, den, before_noun=m.group("fhyphen") is not None), num < den


_NAUTICAL = re.compile(r"\b(?:flew|fly|flies|flight|nonstop|sail(?:s|ed|ing)?|ship|vessel|boat|yacht|aircraft|jet|"
                       r"plane|offshore|knots|nautical|voyage)\b")


# "a 1/2 lb burger", "our 1/2 lb burger": a determiner before a measure of one half (or quarter) makes it "half"
_DETERMINER_BEFORE = re.compile(r"\b(?:[Aa]n?|[Oo]ur|[Tt]he|[Mm]y|[Yy]our|[Tt]his|[Tt]hat|[Ee]ach) $")


# "minus three to -1°C": the end of a range before its unit, which is plural for the whole range
_RANGE_END_BEFORE = re.compile(r"(?:\d|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
                               r"\w+teen|\w+ty|hundred|thousand)) to $")


def _unit(m: re.Match[str]) -> str:
    if m.group("unit") == "K" and (m.group("low") is None or not m.group(0)[len(m.group("low")):].startswith(" ")):
        return m.group(0)  # "100K" is a hundred thousand; "1,200 K" is kelvin
    hyphen = m.group("hyphen") is not None or m.group("fhyphen") is not None  # "a 5-km run": five-kilometer
    if m.group("den"):
        quantity, one = _fraction_quantity(m)
        one = one or hyphen
        if not m.group("whole") and m.group("num") == "1" and (
            m.group("fhyphen") or _DETERMINER_BEFORE.search(m.string, max(0, m.start() - 6), m.start())
        ):
            quantity = quantity.removeprefix("one ")  # "a 1/4-inch bit" -> "a quarter inch bit", "1/2-inch" -> "half inch"
    else:
        quantity = _quantity(m.group("low"), m.group("high"))
        one = hyphen or m.group("low").lstrip("-−") == "1" and m.group("high") is None and not (
            _RANGE_END_BEFORE.search(m.string, max(0, m.start() - 16), m.start()))  # "-3 to -1°C": degrees
    one = one or _attributive(m)
    power = _power(m.group("power"))
    prefix = (m.group("prefix") or "").strip(" .-").lower()
    if prefix in ("sq", "square"):
        power = "2"
    elif prefix in ("cu", "cubic"):
        power = "3"
    unit = m.group("unit")
    if unit == "nm" and _NAUTICAL.search(m.string):
        unit = "nmi"  # "flew 8,500 nm nonstop": nautical miles, not nanometers
    spoken = spoken_unit(unit, not one, power, m.group("per"), _power(m.group("per_power")))
    spoken = f"{quantity}{'-' if hyphen else ' '}{spoken}"
    dot = m.group("dot")
    if dot and (m.group("unit") not in _DOTTED_UNITS or ends_sentence(m.string, m.end())):
        spoken += "."
    return spoken


def _feet_inches(m: re.Match[str]) -> str:
    """"5'11\"" -> "five foot eleven"; "6 ft 2 in" -> "six feet two inches"."""
    if m.group("ft"):
        feet = m.group("ft_word") if m.group("ft_word") in ("foot", "feet") else "feet"
        inches = m.group("in_word") if m.group("in_word") in ("inch", "inches") else "inches"
        return f"{number(m.group('ft'))} {feet} {number(m.group('inch'))} {inches}"
    return f"{number(m.group('feet'))} foot {number(m.group('inches'))}"


def _feet(m: re.Match[str]) -> str:
    """"a 10' pole" -> "a ten foot pole"; "8' tall" -> "eight feet tall"."""
    attributive = previous_word(m.string, m.start()).lower() in ("a", "an")
    if not attributive and not m.group("dim"):
        return m.group(0)  # more likely a closing quote: "give me 5' and left"
    n = m.group(1)
    return f"{number(n)} {'foot' if attributive or n == '1' else 'feet'}"


def _feet_by_feet(m: re.Match[str]) -> str:
    """"a 12' x 16' deck" -> "a twelve foot by sixteen foot deck"; "the room is 12' x 16'." -> "... feet by ... feet"."""
    after = next_word(m.string, m.end())
    unit = "foot" if after.islower() and after not in _NOT_INCH_NOUNS else "feet"
    return f"{number(m.group(1))} {unit} by {number(m.group(2))} {unit}"


_OPENING_QUOTE = re.compile(r'(?<!\d)"')  # a quote mark, not an inch mark ('24" by 36"')


# Words after an inch mark that show it does not qualify a noun ('36" each', '26" long', '12" of snow').
_NOT_INCH_NOUNS = _NOT_NOUNS | frozenset(
    "tall wide high deep thick apart across diameter square are were will would can could may might should must has"
    " have had be been".split()
)
_BY_INCHES = re.compile(r'(?: by [\d./-]{1,12} ?(?:"|″|inch(?:es)?\b))+')


def _inch_noun_after(text: str, end: int) -> bool:
    """True if a noun follows an inch measure, also after more dimensions ('a 5" x 7" frame': by then
    "5\" by 7\" frame")."""
    by = _BY_INCHES.match(text, end)
    after = next_word(text, by.end() if by else end)
    return after.islower() and after not in _NOT_INCH_NOUNS


def _inches(m: re.Match[str]) -> str:
    """'12"' -> "twelve inches", '6–10"' -> "six to ten inches", '26" wheels' -> "twenty-six inch wheels",
    '3/16"' -> "three sixteenths inch", '2-1/2" long' -> "two and a half inches long", unless the quote mark
    closes a quotation."""
    if len(_OPENING_QUOTE.findall(m.string, 0, m.start())) % 2 == 1 and m.group(0).endswith('"'):
        return m.group(0)
    before = previous_word(m.string, m.start()).lower()
    attributive = before in ("a", "an") or _inch_noun_after(m.string, m.end())
    if m.group("den"):
        num, den = int(m.group("num")), int(m.group("den"))
        if m.group("whole"):
            return f"{numbers.mixed_number(int(m.group('whole')), num, den, True)} {'inch' if attributive else 'inches'}"
        quantity = numbers.fraction(num, den, True)
        if num == 1 and before in ("a", "an"):
            quantity = quantity.removeprefix("one ")  # 'a 1/2" chuck' -> "a half inch chuck"
        return f"{quantity} {'inch' if attributive or num < den else 'inches'}"
    n, high = m.group("low"), m.group("high")
    return f"{_quantity(n, high)} {'inch' if attributive or (n == '1' and not high) else 'inches'}"


_UNIT_AFTER = re.compile(rf" ?(?:{_UNIT})\b")


def _dimensions(m: re.Match[str]) -> str:
    """"30 cm x 20 cm" -> "30 cm by 20 cm" (units read later); "1920x1080" -> "nineteen twenty by ten eighty"."""
    if m.group("a2"):
        return f"{m.group('a2')} by {m.group('b2')}"  # "4x100m relay": the unit is read with the second number
    a, unit, b = m.group("a"), m.group("u") or "", m.group("b")
    if "=" in m.string:
        return f"{a}{unit} times {b}"  # "5 x 3 = 15"
    if (not unit and a.isdigit() and b.isdigit() and 3 <= len(a) <= 4 and 3 <= len(b) <= 4
            and _UNIT_AFTER.match(m.string, m.end()) is None):  # "600 x 600 mm" is a size, not a resolution
        return f"{model_number(a)} by {model_number(b)}"
    return f"{a}{unit} by {b}"


_TEMPERATURE_CUES = re.compile(
    r"\b(?:oven|bake|baking|roast|roasting|preheat|heat|grill|fry|cook|temperature|temp|degrees|high of|low of|"
    r"fever|weather|warm|cool|hot|cold)\b", re.IGNORECASE)


def _bare_degrees(m: re.Match[str]) -> str:
    """"Roast at 220C" -> "two hundred twenty degrees Celsius": a C or F glued to a number, in a sentence about
    heat or weather (elsewhere "14C" is a seat and "12F" a code)."""
    if not _TEMPERATURE_CUES.search(m.string[max(0, m.start() - 60) : m.start()]):
        return m.group(0)
    return f"{number(m.group(1))} {tables.UNITS['°' + m.group(2)][1]}"


def _coordinate(m: re.Match[str]) -> str:
    """"39.7°N" -> "thirty-nine point seven degrees north", "40°42′N" -> "forty degrees forty-two minutes north"."""
    spoken = f"{number(m.group('deg'))} degrees"
    if m.group("min"):
        spoken += f" {number(m.group('min'))} {'minute' if m.group('min') == '1' else 'minutes'}"
    if m.group("sec"):
        spoken += f" {number(m.group('sec'))} {'second' if m.group('sec') == '1' else 'seconds'}"
    return f"{spoken} {tables.COMPASS[m.group('dir')]}"


def _times(m: re.Match[str]) -> str:
    """"3x faster" -> "three times faster" (in an equation "2x" is two x: "2x minus 4 = 10")."""
    if "=" in m.string:
        return m.group(0)
    return f"{number(m.group(1))} times"


def _half(written: str) -> str:
    """"2.5" -> "two and a half", "3" -> "three" (bathrooms and storeys are counted in halves)."""
    whole, _, rest = written.partition(".")
    return f"{number(whole)} and a half" if rest == "5" else number(written)


def _per_unit(m: re.Match[str]) -> str:
    """"per kg" -> "per kilogram", "per km²" -> "per square kilometer", "per s²" -> "per second squared"."""
    unit, power = m.group(1), _power(m.group(2))
    if power is None:
        return f"per {tables.UNITS[unit][0]}"
    if unit in _LENGTHS:
        return f"per {spoken_unit(unit, False, power)}"
    return f"per {tables.UNITS[unit][0]} {_POWER_WORDS[power][1]}"


# "per kg" -> "per kilogram" (a unit after "per" with no number before it).
PER_UNIT_RULE = rule(rf"\bper ({alternation(tables.UNITS)})({_POWER})?(?![\w/]|\.\w)", _per_unit, "per")

# "$9.99/month", "5 mg/day": runs before money and units, which then read the amount.
PER_RULE = rule(rf"(?<=[\dA-Za-zµ])/({alternation(tables.PER_WORDS)})\b(?:\.(?=[,;:]))?", _per, "/")  # "$3.49/gal., down"

def _scaled_unit(m: re.Match[str]) -> str:
    """"4.2 million m³" -> "four point two million cubic meters"."""
    prefix = (m.group(3) or "").strip(" .-").lower()
    power = {"sq": "2", "square": "2", "cu": "3", "cubic": "3"}.get(prefix) or _power(m.group(5))
    return f"{number(m.group(1))} {m.group(2)} {spoken_unit(m.group(4), True, power)}"


def _amps(m: re.Match[str]) -> str:
    """"a 15 A circuit" -> "fifteen amp circuit", "5 V, 2 A input" -> "two amps input": a capital A after a number
    is amperes only before an electrical word (groups 1, 2) or after volts (group 3); elsewhere "2 A" is a grade or
    a group."""
    n = m.group(1) or m.group(3)
    return f"{number(n)} {'amp' if m.group(2) in _AMP_NOUNS or n == '1' else 'amps'}"


_AMP_NOUNS = frozenset("circuit circuits fuse fuses breaker breakers charger chargers plug socket outlet".split())

# "in km/h", "area in cm²": a unit named with no number before it ("per kg" is PER_UNIT_RULE)
_BARE_UNITS = "km|cm|mm|kg|mg|mL|ml|km/h|m/s|mph|kph|kWh|mAh|m\\^2|cm\\^2|km\\^2|m\\^3|cm\\^3"


def _bare_unit(m: re.Match[str]) -> str:
    unit, power = m.group(2).split("^") if "^" in m.group(2) else (m.group(2), None)
    per = None
    if "/" in unit:
        unit, per = unit.split("/")
    return f"{m.group(1)} {spoken_unit(unit, True, power, per)}"


BARE_UNIT_RULE = rule(rf"\b(in|into|to) ({_BARE_UNITS})(?=[?.,;:!)]|\s*$)", _bare_unit, "in ", "to ")

def _lumber(m: re.Match[str]) -> str:
    """"2x4s" -> "two by fours": pieces of lumber named by their size."""
    last = cardinal(int(m.group(2)))
    return f"{cardinal(int(m.group(1)))} by {last + ('es' if last.endswith('x') else 's')}"


_PRESSURE_CUES = re.compile(r"\b(?:pressure|barometer|barometric|millibars?|hPa|storm|hurricane|typhoon|cyclone|low|high)\b")


def _millibars(m: re.Match[str]) -> str:
    """"1013 mb" -> "one thousand thirteen millibars" in a sentence about air pressure (elsewhere "mb" is not read)."""
    if not _PRESSURE_CUES.search(m.string):
        return m.group(0)
    return f"{number(m.group(1))} millibars"


_GEM_WORDS = re.compile(r"\b(?:diamonds?|gold|carats?|gems?|stones?|ring|sapphires?|rubies|ruby|emeralds?)\b", re.I)


def _count(m: re.Match[str]) -> str:
    """"90 ct." -> "ninety count" (a pack size); "1.5 ct" of a gem is carats and is left alone."""
    if _GEM_WORDS.search(m.string):
        return m.group(0)
    return f"{number(m.group(1))} count" + ("." if m.group(2) and ends_sentence(m.string, m.end()) else "")


_RECIPE_LETTER_UNITS = {"C": ("cup", "cups"), "c": ("cup", "cups"), "T": ("tablespoon", "tablespoons"),
                        "t": ("teaspoon", "teaspoons")}
_INGREDIENTS = (
    "flour|sugar|butter|milk|water|oil|olive oil|salt|broth|stock|cream|sour cream|rice|oats|honey|cheese|vinegar|"
    "juice|lemon juice|yogurt|cocoa|pepper|cinnamon|vanilla|baking soda|baking powder|yeast|mayonnaise|ketchup|"
    "mustard|soy sauce|sauce|syrup|maple syrup|chopped|minced|diced|grated|melted|softened|brown sugar|powdered"
)


def _recipe_letter_unit(m: re.Match[str]) -> str:
    """"1 C of flour" -> "1 cup of flour", "2 T butter" -> "2 tablespoons butter" (a recipe's one-letter units: C
    or c a cup, T a tablespoon, t a teaspoon); the amount is read by the unit pass after."""
    amount = m.group(1)
    one = amount == "1" or ("/" in amount and " " not in amount) or amount.startswith("0.")
    return f"{amount} {_RECIPE_LETTER_UNITS[m.group(2)][0 if one else 1]}"


RULES: list[Rule] = [
    rule(rf"(?=\d)(?<![\w./])((?:\d{{1,2}} )?\d{{1,2}}/\d{{1,2}}|\d{{1,3}}(?:\.\d{{1,2}})?) ([CcTt])\.?"
         rf"(?= (?:of )?(?:the )?(?:{_INGREDIENTS})\b)", _recipe_letter_unit, " C", " c", " T", " t"),
    # "2x4s": lumber; "3-4x a day": a range of times; "20°-25°C": the first degree sign of a range unsaid
    rule(r"(?<![\w.])([1-9]) ?[x×] ?(4|6|8|10|12)s\b", _lumber, "s"),
    rule(r"(?=\d)(?<![\w.])(\d{1,2}) ?[-–] ?(\d{1,2})x(?= [a-z])",
         lambda m: f"{number(m.group(1))} to {number(m.group(2))} times", "x"),
    rule(r"(?=[\d−-])(?<![\w.])([-−]?\d{1,3})° ?[-–] ?(?=[-−]?\d{1,3} ?°[CF]\b)", lambda m: f"{m.group(1)} to ", "°"),
    rule(r"(?=\d)(?<![\w.])(\d{3,4}(?:\.\d)?) ?mb\b", _millibars, "mb"),
    rule(r"(?=\d)(?<![\w.])(\d{2,4}) ?ct\b(\.)?", _count, "ct"),
    # a latitude or longitude: "39.7°N 104.9°W", "40°42′51″N" (degrees, minutes, seconds and a compass point)
    rule(r"(?=\d)(?<![\w.])(?P<deg>\d{1,3}(?:\.\d{1,6})?) ?°(?: ?(?P<min>\d{1,2}(?:\.\d{1,3})?) ?['′]"
         r"(?: ?(?P<sec>\d{1,2}(?:\.\d{1,3})?) ?(?:″|\"|′′|''))?)? ?(?P<dir>[NSEW])\b(?![\w'’-])", _coordinate, "°"),
    # "50/60Hz", "110/220V": two ratings of one electrical unit, read "fifty or sixty hertz" (not a fraction)
    # "2.4/5 GHz": the two bands of a dual-band radio, read the same way
    rule(r"(?<![\w./])(\d{2,4}|\d\.\d)/(?=(?:\d{1,4}|\d\.\d) ?(?:[kMG]?Hz|V|VAC|VDC|kW|W|mA|A)\b)",
         lambda m: f"{m.group(1)} or ", "/"),
    # "1.5k req/s": a number with a thousand (or million) scale before a unit
    rule(rf"(?=\d)(?<![\w.])({NUM})([kKM]) ({_UNIT})(?![\w/])",
         lambda m: f"{number(m.group(1))} {tables.SCALES[m.group(2)]} {spoken_unit(m.group(3), True)}", "k ", "K ", "M "),
    # "4.2 million m³", "1.2 billion km": a number with a scale word before a unit
    rule(rf"(?=\d)(?<![\w.])({NUM}) (thousand|million|billion|trillion) ((?:sq|cu)[.-]? ?|square |cubic )?"
         rf"({_UNIT})({_POWER})?(?![\w/^])", _scaled_unit, "thousand", "million", "billion", "trillion"),
    PER_UNIT_RULE,
    rule(rf"(?=\d)(?<![\w.])({NUM}) ?A\b(?= ({'|'.join(_AMP_NOUNS)}|input|output|max|current|load)\b)"
         r"|(?<=\d V, )(\d{1,3}(?:\.\d)?) A\b", _amps, "A "),
    rule(
        r"(?=\d)(?<![\w.'’])(?P<feet>\d{1,2}) ?['′’] ?(?P<inches>\d{1,2}(?:\.\d)?) ?(?:\"|″|”|'')"
        r"|(?<![\w.])(?P<ft>\d{1,3}(?:,\d{3})?) ?(?P<ft_word>ft|feet|foot)\.? (?P<inch>\d{1,2}) ?(?P<in_word>in|inches|inch)\b\.?",
        _feet_inches,
        "'", "′", "’", "ft", "feet", "foot",
    ),
    rule(r"(?=\d)(?<![\w.'’])(\d{1,3}) ?['′] ?[x×] ?(\d{1,3}) ?['′](?![\w'’])", _feet_by_feet, "'", "′"),
    *[rule(  # twice: "120 x 60 x 75 cm" -> "120 by 60 by 75 cm"
        rf"(?=\d)(?<![\w.])(?P<a>{NUM})(?P<u> ?(?:{_UNIT})|[\"″])? ?[x×] ?(?P<b>{NUM})(?![\w.]|\.\d)(?! ?[x×] ?\d{{1,4}}[a-z])"
        rf"|(?=\d)(?<![\w.])(?P<a2>{NUM}) ?[x×] ?(?P<b2>{NUM})(?=(?:{_UNIT})\b)",
        _dimensions,
        "x", "×",
    )] * 2,
    rule(r"(?=\d)(?<![\w.])(\d{2,3}) ?([CF])\b(?![-'’.]\w)", _bare_degrees, "C", "F"),  # "Roast at 220C", "350 F"
    rule(r"(?<=\d%) ?[-–] ?(?=\d[\d.]*%)", lambda m: " to ", "%"),  # "51.2%-48.8%": a result, not a minus
    # "3BR/2BA", "4 bd/2.5 ba": bedrooms and bathrooms in a listing
    rule(r"(?<![\w.])(\d{1,2}) ?(?:BR|bd|BD|bed)s? ?/ ?(\d{1,2}(?:\.5)?) ?(?:BA|ba|bath)s?\b",
         lambda m: f"{number(m.group(1))} bedroom, {_half(m.group(2))} bath", "/"),
    rule(r"(?<![\w.])(\d{1,2}\.5)(?=[- ](?:bath|baths|bathroom|bathrooms|story|stories)\b)",
         lambda m: _half(m.group(1)), ".5"),  # "a 2.5-bath home" -> "two and a half bath"
    rule(r"(?=\d)(?<![\w.])(\d{1,3}) (\d{1,2})/(\d{1,2}) ?%",
         lambda m: numbers.mixed_number(*map(int, m.groups())) + " percent", "%"),  # "3½%"
    rule(rf"(?=[\d−-])(?<![\w.])({SIGNED})(?:{_RANGE_DASH}({SIGNED}))? ?%", _percent, "%"),
    rule(
        rf"(?=[\d−-])(?<![\w./])(?:(?:(?P<whole>\d{{1,3}}) )?(?P<num>\d{{1,3}})/(?P<den>\d{{1,3}})(?:(?P<fhyphen>-)| ?)|"
        rf"(?P<low>{SIGNED})(?:{_RANGE_DASH}(?P<high>{SIGNED}))?(?:(?P<hyphen>-)| ?))"
        rf"(?P<prefix>(?:sq|cu)[.-]? ?|square |cubic )?(?P<unit>{_UNIT})(?P<power>{_POWER})?"
        rf"(?:/(?P<per>(?:{_UNIT})(?:/(?:{_UNIT})){{0,2}})(?P<per_power>{_POWER})?)?"
        rf"(?P<dot>\.(?!\w))?(?![\w/²³^])",
        _unit,
    ),
    rule(
        r"(?=\d)(?<![\w.'’])(\d{1,3}) ?['′](?= (?P<dim>tall|long|wide|high|deep|x|by)\b| [a-z])", _feet, "'", "′"
    ),
    rule(rf"(?=\d)(?<![\w./-])(?:(?:(?P<whole>\d{{1,2}})[- ])?(?P<num>\d{{1,2}})/(?P<den>\d{{1,2}})"
         rf"|(?P<low>\d{{1,3}}(?:\.\d{{1,3}})?)(?:{_RANGE_DASH}(?P<high>\d{{1,3}}(?:\.\d{{1,3}})?))?) ?(?:\"|″)(?![\w\"])",
         _inches, '"', "″"),
    rule(rf"(?=\d)(?<![\w.])({NUM})x(?= [a-z])", _times, "x"),
    rule(r"(?=\d)(?<![\w.])(\d{3,4})p\b(?![-'’])", lambda m: f"{model_number(m.group(1))} p", "p"),  # 1080p video
]
