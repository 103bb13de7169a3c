"""Word tables for English normalization: abbreviations, units, currencies, months, symbols."""

from __future__ import annotations

MONTHS = (
    "January February March April May June July August September October November December".split()
)
MONTH_BY_ABBREVIATION: dict[str, str] = {
    **{m[:3]: m for m in MONTHS},
    "Sept": "September",
}

# Abbreviation (without its period) -> expansion. Titles never end a sentence; the others may.
TITLES: dict[str, str] = {
    "Mr": "Mister",
    "Mrs": "Missus",
    "Ms": "Miz",
    "Dr": "Doctor",
    "Prof": "Professor",
    "Gen": "General",
    "Col": "Colonel",
    "Lt": "Lieutenant",
    "Sgt": "Sergeant",
    "Capt": "Captain",
    "Gov": "Governor",
    "Sen": "Senator",
    "Rep": "Representative",
    "Rev": "Reverend",
    "Hon": "Honorable",
    "Mt": "Mount",
    "Ft": "Fort",
    "Fig": "Figure",
    "Vol": "Volume",
    "Ch": "Chapter",
}
ABBREVIATIONS: dict[str, str] = {
    "Jr": "Junior",
    "Sr": "Senior",
    "Ave": "Avenue",
    "Blvd": "Boulevard",
    "Rd": "Road",
    "Ln": "Lane",
    "Inc": "Incorporated",
    "Ltd": "Limited",
    "Corp": "Corporation",
    "Co": "Company",
    "Dept": "Department",
    "Univ": "University",
    "Assn": "Association",
    "approx": "approximately",
    "dept": "department",
    "est": "established",
    "etc": "et cetera",
    "vs": "versus",
    "cf": "compare",
    "viz": "namely",
    "ca": "circa",
    "Mon": "Monday",
    "Tue": "Tuesday",
    "Tues": "Tuesday",
    "Wed": "Wednesday",
    "Thu": "Thursday",
    "Thur": "Thursday",
    "Thurs": "Thursday",
    "Fri": "Friday",
    "Sat": "Saturday",
    "Sun": "Sunday",
    **MONTH_BY_ABBREVIATION,
}
DOTTED_PHRASES: dict[str, str] = {
    "e.g.": "for example",
    "i.e.": "that is",
    "a.k.a.": "also known as",
    "et al.": "and others",
    "w/o": "without",
}

# Currency symbol -> (singular, plural, minor singular, minor plural); minor None: no minor unit read.
CURRENCIES: dict[str, tuple[str, str, str | None, str | None]] = {
    "$": ("dollar", "dollars", "cent", "cents"),
    "US$": ("U S dollar", "U S dollars", "cent", "cents"),
    "£": ("pound", "pounds", "penny", "pence"),
    "€": ("euro", "euros", "cent", "cents"),
    "¥": ("yen", "yen", None, None),
    "₹": ("rupee", "rupees", "paisa", "paise"),
    "₩": ("won", "won", None, None),
    "₽": ("ruble", "rubles", "kopek", "kopeks"),
}
SCALES: dict[str, str] = {
    "k": "thousand",
    "K": "thousand",
    "thousand": "thousand",
    "m": "million",
    "M": "million",
    "mn": "million",
    "million": "million",
    "b": "billion",
    "B": "billion",
    "bn": "billion",
    "billion": "billion",
    "t": "trillion",
    "T": "trillion",
    "tn": "trillion",
    "trillion": "trillion",
}

# Unit written after a number -> (singular, plural). Case matters ("MB" megabytes, "mb" is not listed).
UNITS: dict[str, tuple[str, str]] = {
    "km": ("kilometer", "kilometers"),
    "m": ("meter", "meters"),
    "cm": ("centimeter", "centimeters"),
    "mm": ("millimeter", "millimeters"),
    "µm": ("micrometer", "micrometers"),
    "μm": ("micrometer", "micrometers"),
    "nm": ("nanometer", "nanometers"),
    "mi": ("mile", "miles"),
    "yd": ("yard", "yards"),
    "ft": ("foot", "feet"),
    "kg": ("kilogram", "kilograms"),
    "g": ("gram", "grams"),
    "mg": ("milligram", "milligrams"),
    "µg": ("microgram", "micrograms"),
    "lb": ("pound", "pounds"),
    "lbs": ("pound", "pounds"),
    "oz": ("ounce", "ounces"),
    "mph": ("mile per hour", "miles per hour"),
    "km/h": ("kilometer per hour", "kilometers per hour"),
    "kph": ("kilometer per hour", "kilometers per hour"),
    "m/s": ("meter per second", "meters per second"),
    "°C": ("degree Celsius", "degrees Celsius"),
    "°F": ("degree Fahrenheit", "degrees Fahrenheit"),
    "°": ("degree", "degrees"),
    "KB": ("kilobyte", "kilobytes"),
    "kB": ("kilobyte", "kilobytes"),
    "MB": ("megabyte", "megabytes"),
    "GB": ("gigabyte", "gigabytes"),
    "TB": ("terabyte", "terabytes"),
    "Mbps": ("megabit per second", "megabits per second"),
    "Gbps": ("gigabit per second", "gigabits per second"),
    "ms": ("millisecond", "milliseconds"),
    "µs": ("microsecond", "microseconds"),
    "ns": ("nanosecond", "nanoseconds"),
    "s": ("second", "seconds"),
    "sec": ("second", "seconds"),
    "secs": ("second", "seconds"),
    "min": ("minute", "minutes"),
    "mins": ("minute", "minutes"),
    "h": ("hour", "hours"),
    "hr": ("hour", "hours"),
    "hrs": ("hour", "hours"),
    "Hz": ("hertz", "hertz"),
    "kHz": ("kilohertz", "kilohertz"),
    "MHz": ("megahertz", "megahertz"),
    "GHz": ("gigahertz", "gigahertz"),
    "W": ("watt", "watts"),
    "kW": ("kilowatt", "kilowatts"),
    "kWh": ("kilowatt hour", "kilowatt hours"),
    "V": ("volt", "volts"),
    "mAh": ("milliamp hour", "milliamp hours"),
    "ml": ("milliliter", "milliliters"),
    "mL": ("milliliter", "milliliters"),
    "L": ("liter", "liters"),
    "kcal": ("kilocalorie", "kilocalories"),
    "cal": ("calorie", "calories"),
    "px": ("pixel", "pixels"),
    "dB": ("decibel", "decibels"),
    "m²": ("square meter", "square meters"),
    "km²": ("square kilometer", "square kilometers"),
    "ft²": ("square foot", "square feet"),
    "m³": ("cubic meter", "cubic meters"),
}

SYMBOLS: dict[str, str] = {
    "&": "and",
    "@": "at",
    "+": "plus",
    "=": "equals",
    "%": "percent",
    "×": "times",
    "÷": "divided by",
    "±": "plus or minus",
    "<": "less than",
    ">": "greater than",
    "≤": "less than or equal to",
    "≥": "greater than or equal to",
    "≠": "not equal to",
    "≈": "approximately",
    "°": "degrees",
    "§": "section",
    "$": "dollars",
    "€": "euros",
    "£": "pounds",
    "¥": "yen",
    "#": "number",
    "/": "slash",
    "\\": "backslash",
}
DROPPED_SYMBOLS = "*_^|~`¶†‡•·"

# Words before a bare 4-digit number that make it a year ("in 1998", "since 2005").
YEAR_CUES = frozenset(
    """
    in since by from until till during of year circa before after around early late mid spring summer autumn
    fall winter between through c ca born died about date dated
    """.split()
) | {m.lower() for m in MONTHS}
YEAR_SUFFIXES = frozenset("BC AD BCE CE".split())

# Words before a roman numeral: cardinal ("World War II" -> two) or regnal ordinal ("Henry VIII" -> the eighth).
ROMAN_CARDINAL_CUES = frozenset(
    "War Chapter Part Volume Act Book Phase Type Class Level Section Article Appendix Round Episode Stage "
    "Step Title Bowl Mark Vatican Apollo Gen Season".split()
)
REGNAL_NAMES = frozenset(
    """
    Henry Louis Elizabeth George Charles Edward William Richard James John Mary Anne Victoria Pius Benedict
    Gregory Leo Innocent Clement Alexander Peter Catherine Frederick Philip Ferdinand Napoleon Nicholas Paul
    Constantine Ramses Rameses Ptolemy Otto Gustav Carl Felipe Juan Alfonso Harald Olaf Haakon Christian
    """.split()
)
ROMAN_TITLES = frozenset("King Queen Pope Emperor Tsar Czar Prince Princess Duke Sultan Pharaoh".split())

SENTENCE_STARTERS = frozenset(
    "The It I We He She They This That There But And So A An In On My Our Your His Her Its Then When If".split()
)
