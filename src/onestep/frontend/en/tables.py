"""Word tables for English normalization: abbreviations, units, currencies, months, symbols."""

from __future__ import annotations

MONTHS = (
    "January February March April May June July August September October November December".split()
)
MONTH_BY_ABBREVIATION: dict[str, str] = {
    **{m[:3]: m for m in MONTHS},
    "Sept": "September",
}

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

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
    "Fr": "Father",
    "Maj": "Major",
    "Adm": "Admiral",
    "Cmdr": "Commander",
    "Cpl": "Corporal",
    "Pvt": "Private",
    "Brig": "Brigadier",
    "Det": "Detective",
    "Insp": "Inspector",
    "Supt": "Superintendent",
    "Msgr": "Monsignor",
    "Pres": "President",
    "Amb": "Ambassador",
    "Atty": "Attorney",
}
#: Weekdays as written short ("Tues", "Sat"), for every rule that reads them.
WEEKDAY_ABBREVIATIONS: dict[str, str] = {
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
}
#: Street types as written short after a name or an ordinal ("Pennsylvania Ave", "3rd St").
STREET_ABBREVIATIONS: dict[str, str] = {
    "St": "Street", "Ave": "Avenue", "Rd": "Road", "Blvd": "Boulevard", "Dr": "Drive",
    "Ln": "Lane", "Pkwy": "Parkway", "Ct": "Court", "Pl": "Place", "Hwy": "Highway",
}  # fmt: skip
#: Compass points as written in addresses ("King St W", "NW"), in lower case.
COMPASS: dict[str, str] = {
    "N": "north", "S": "south", "E": "east", "W": "west", "NE": "northeast", "NW": "northwest",
    "SE": "southeast", "SW": "southwest", "NNE": "north-northeast", "ENE": "east-northeast",
    "ESE": "east-southeast", "SSE": "south-southeast", "SSW": "south-southwest",
    "WSW": "west-southwest", "WNW": "west-northwest", "NNW": "north-northwest",
}  # fmt: skip
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
    "Bros": "Brothers",
    "Apt": "Apartment",
    "Bldg": "Building",
    "Hwy": "Highway",
    "misc": "miscellaneous",
    "Esq": "Esquire",
    "govt": "government",
    "yrs": "years",
    "Intl": "International",
    "Natl": "National",
    "Mfg": "Manufacturing",
    "Pkg": "Package",
    "pkg": "package",
    "approx": "approximately",
    "incl": "including",
    "excl": "excluding",
    "dept": "department",
    "est": "established",
    "etc": "et cetera",
    "vs": "versus",
    "cf": "compare",
    "viz": "namely",
    "ca": "circa",
    **WEEKDAY_ABBREVIATIONS,
    **MONTH_BY_ABBREVIATION,
}
DOTTED_PHRASES: dict[str, str] = {
    "e.g.": "for example",
    "i.e.": "that is",
    "a.k.a.": "also known as",
    "et al.": "and others",
    "w/o": "without",
    "b.sc.": "B S C",
    "m.sc.": "M S C",
}

# Currency symbol -> (singular, plural, minor singular, minor plural); minor None: no minor unit read.
CURRENCIES: dict[str, tuple[str, str, str | None, str | None]] = {
    "$": ("dollar", "dollars", "cent", "cents"),
    "US$": ("U S dollar", "U S dollars", "cent", "cents"),
    "C$": ("Canadian dollar", "Canadian dollars", "cent", "cents"),
    "CA$": ("Canadian dollar", "Canadian dollars", "cent", "cents"),
    "A$": ("Australian dollar", "Australian dollars", "cent", "cents"),
    "AU$": ("Australian dollar", "Australian dollars", "cent", "cents"),
    "NZ$": ("New Zealand dollar", "New Zealand dollars", "cent", "cents"),
    "HK$": ("Hong Kong dollar", "Hong Kong dollars", "cent", "cents"),
    "S$": ("Singapore dollar", "Singapore dollars", "cent", "cents"),
    "£": ("pound", "pounds", "penny", "pence"),
    "€": ("euro", "euros", "cent", "cents"),
    "¥": ("yen", "yen", None, None),
    "₹": ("rupee", "rupees", "paisa", "paise"),
    "Rs.": ("rupee", "rupees", "paisa", "paise"),
    "Rs": ("rupee", "rupees", "paisa", "paise"),
    "₩": ("won", "won", None, None),
    "₽": ("ruble", "rubles", "kopek", "kopeks"),
}
CURRENCY_SIGNS = ("$", "£", "€", "¥", "₹", "₩", "₽", "Rs")
# ISO code -> (singular, plural, minor singular, minor plural) as in CURRENCIES, read after the amount wherever
# the code stands ("EUR 50", "50 EUR").
CURRENCY_CODES: dict[str, tuple[str, str, str | None, str | None]] = {
    "USD": ("U S dollar", "U S dollars", "cent", "cents"),
    "EUR": ("euro", "euros", "cent", "cents"),
    "GBP": ("pound", "pounds", "penny", "pence"),
    "JPY": ("yen", "yen", None, None),
    "CNY": ("yuan", "yuan", None, None),
    "RMB": ("yuan", "yuan", None, None),
    "CAD": ("Canadian dollar", "Canadian dollars", "cent", "cents"),
    "AUD": ("Australian dollar", "Australian dollars", "cent", "cents"),
    "NZD": ("New Zealand dollar", "New Zealand dollars", "cent", "cents"),
    "HKD": ("Hong Kong dollar", "Hong Kong dollars", "cent", "cents"),
    "SGD": ("Singapore dollar", "Singapore dollars", "cent", "cents"),
    "CHF": ("Swiss franc", "Swiss francs", "centime", "centimes"),
    "INR": ("rupee", "rupees", "paisa", "paise"),
    "MXN": ("peso", "pesos", "centavo", "centavos"),
    "KRW": ("won", "won", None, None),
    "BTC": ("bitcoin", "bitcoins", None, None),
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
    "lakh": "lakh",
    "crore": "crore",
    "lakh crore": "lakh crore",
    "cr": "crore",
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
    "yds": ("yard", "yards"),
    "ft": ("foot", "feet"),
    "kg": ("kilogram", "kilograms"),
    "g": ("gram", "grams"),
    "mg": ("milligram", "milligrams"),
    "µg": ("microgram", "micrograms"),
    "lb": ("pound", "pounds"),
    "lbs": ("pound", "pounds"),
    "oz": ("ounce", "ounces"),
    "fl oz": ("fluid ounce", "fluid ounces"),
    "fl. oz": ("fluid ounce", "fluid ounces"),
    "hp": ("horsepower", "horsepower"),
    "dpi": ("D P I", "D P I"),
    "mph": ("mile per hour", "miles per hour"),
    "kph": ("kilometer per hour", "kilometers per hour"),
    "°C": ("degree Celsius", "degrees Celsius"),
    "°F": ("degree Fahrenheit", "degrees Fahrenheit"),
    "°": ("degree", "degrees"),
    "KB": ("kilobyte", "kilobytes"),
    "kB": ("kilobyte", "kilobytes"),
    "MB": ("megabyte", "megabytes"),
    "GB": ("gigabyte", "gigabytes"),
    "TB": ("terabyte", "terabytes"),
    "KiB": ("kibibyte", "kibibytes"),
    "MiB": ("mebibyte", "mebibytes"),
    "GiB": ("gibibyte", "gibibytes"),
    "TiB": ("tebibyte", "tebibytes"),
    "Mbps": ("megabit per second", "megabits per second"),
    "Gbps": ("gigabit per second", "gigabits per second"),
    "ms": ("millisecond", "milliseconds"),
    "req/s": ("request per second", "requests per second"),
    "µs": ("microsecond", "microseconds"),
    "ns": ("nanosecond", "nanoseconds"),
    "s": ("second", "seconds"),
    "sec": ("second", "seconds"),
    "secs": ("second", "seconds"),
    "min": ("minute", "minutes"),
    "mins": ("minute", "minutes"),
    "h": ("hour", "hours"),
    "yr": ("year", "years"),
    "yrs": ("year", "years"),
    "wk": ("week", "weeks"),
    "wks": ("week", "weeks"),
    "mos": ("month", "months"),
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
    "Nm": ("newton meter", "newton meters"),
    "N·m": ("newton meter", "newton meters"),
    "mAh": ("milliamp hour", "milliamp hours"),
    "ml": ("milliliter", "milliliters"),
    "mL": ("milliliter", "milliliters"),
    "L": ("liter", "liters"),
    "kcal": ("kilocalorie", "kilocalories"),
    "cal": ("calorie", "calories"),
    "px": ("pixel", "pixels"),
    "dB": ("decibel", "decibels"),
    "tbsp": ("tablespoon", "tablespoons"),
    "Tbsp": ("tablespoon", "tablespoons"),
    "tsp": ("teaspoon", "teaspoons"),
    "gal": ("gallon", "gallons"),
    "qt": ("quart", "quarts"),
    "mpg": ("mile per gallon", "miles per gallon"),
    "ha": ("hectare", "hectares"),
    "psi": ("P S I", "P S I"),
    "rpm": ("R P M", "R P M"),
    "fps": ("frame per second", "frames per second"),
    "bpm": ("beat per minute", "beats per minute"),
    "BPM": ("beat per minute", "beats per minute"),
    "MPG": ("mile per gallon", "miles per gallon"),
    "inHg": ("inch of mercury", "inches of mercury"),
    "kt": ("knot", "knots"),
    "kts": ("knot", "knots"),
    "nmi": ("nautical mile", "nautical miles"),
    "lb-ft": ("pound-foot", "pound-feet"),
    "ft-lb": ("foot-pound", "foot-pounds"),
    "ft-lbs": ("foot-pound", "foot-pounds"),
    "Pa": ("pascal", "pascals"),
    "kPa": ("kilopascal", "kilopascals"),
    "MPa": ("megapascal", "megapascals"),
    "hPa": ("hectopascal", "hectopascals"),
    "mcg": ("microgram", "micrograms"),
    "mmHg": ("millimeter of mercury", "millimeters of mercury"),
    "kb": ("kilobit", "kilobits"),
    "Mb": ("megabit", "megabits"),
    "kbps": ("kilobit per second", "kilobits per second"),
    "mA": ("milliamp", "milliamps"),
    "kJ": ("kilojoule", "kilojoules"),
    "MW": ("megawatt", "megawatts"),
    "GW": ("gigawatt", "gigawatts"),
    "cc": ("C C", "C C"),
    "\u03bcg": ("microgram", "micrograms"),
    "dL": ("deciliter", "deciliters"),
    "mmol": ("millimole", "millimoles"),
    "\u00b5mol": ("micromole", "micromoles"),
    "\u03bcmol": ("micromole", "micromoles"),
    "mol": ("mole", "moles"),
    "K": ("kelvin", "kelvin"),  # only after a space ("1,200 K"): "100K" is a scale (see measures._unit)
    "ppm": ("part per million", "parts per million"),
    "ppb": ("part per billion", "parts per billion"),
    "bps": ("basis point", "basis points"),
    "pts": ("point", "points"),
    "ppg": ("point per game", "points per game"),
    "rpg": ("rebound per game", "rebounds per game"),
    "apg": ("assist per game", "assists per game"),
    "kN": ("kilonewton", "kilonewtons"),
    "GPa": ("gigapascal", "gigapascals"),
    "kV": ("kilovolt", "kilovolts"),
    "mV": ("millivolt", "millivolts"),
    "\u03a9": ("ohm", "ohms"),
    "k\u03a9": ("kilohm", "kilohms"),
    "M\u03a9": ("megohm", "megohms"),
}

#: Words before a dotted number that make it a version ("firmware 10.0.0.1"), not an IPv4 address.
DOTTED_VERSION_CUES = frozenset({"version", "v", "build", "release", "ver", "firmware", "patch"})

#: Units read only right after a power of ten ("1.602 × 10^-19 C"): elsewhere these letters are names or labels.
SCIENCE_UNITS: dict[str, tuple[str, str]] = {
    "C": ("coulomb", "coulombs"),
    "J": ("joule", "joules"),
    "N": ("newton", "newtons"),
    "eV": ("electron volt", "electron volts"),
    "Gy": ("gray", "grays"),
    "Sv": ("sievert", "sieverts"),
}

#: Chat shorthand with digits in it, and a few common clippings; read as the word they stand for.
CHAT_WORDS: dict[str, str] = {
    "2nite": "tonight", "2night": "tonight", "2day": "today", "2moro": "tomorrow", "2morrow": "tomorrow",
    "gr8": "great", "b4": "before", "l8r": "later", "l8": "late", "m8": "mate", "w8": "wait", "str8": "straight",
    "any1": "anyone", "some1": "someone", "no1": "no one", "4ever": "forever", "tix": "tickets",
    "tmrw": "tomorrow", "tmw": "tomorrow", "ppl": "people", "b/c": "because", "lol": "L O L",
    "eod": "end of day", "acct": "account",
}

#: Latin dosing abbreviations of prescriptions (lower case, dotted), as a pharmacist reads them to a patient.
DOSING: dict[str, str] = {
    "q.d.": "once daily", "b.i.d.": "twice daily", "t.i.d.": "three times daily", "q.i.d.": "four times daily",
    "p.r.n.": "as needed", "q.h.s.": "at bedtime", "q.o.d.": "every other day",
}

#: Chemical element symbols, for formulas written with counts ("H2SO4", "CH4", "NO2").
ELEMENTS = frozenset(
    """H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Ti Cr Mn Fe Co Ni Cu Zn Br Kr Ag Sn I Xe Ba Pt Au Hg
    Pb U Se As Li""".split()
)

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
    fall winter between through c ca born died about date dated est established founded copyright built
    begun completed reigned flourished consecrated crowned
    """.split()
) | {m.lower() for m in MONTHS}
YEAR_SUFFIXES = frozenset("BC AD BCE CE".split())

# Words before a roman numeral: cardinal ("World War II" -> two) or regnal ordinal ("Henry VIII" -> the eighth).
ROMAN_CARDINAL_CUES = frozenset(
    "War Chapter Part Volume Act Book Phase Type Class Level Section Article Appendix Round Episode Stage "
    "Step Title Bowl Mark Vatican Apollo Season Rocky Fantasy Scene Grade Tier Division Category Schedule "
    "Amendment Canto Psalm Plate Figure Table".split()
)
REGNAL_NAMES = frozenset(
    """
    Henry Louis Elizabeth George Charles Edward William Richard James John Mary Anne Victoria Pius Benedict
    Gregory Leo Innocent Clement Alexander Peter Catherine Frederick Philip Ferdinand Napoleon Nicholas Paul
    Constantine Ramses Rameses Ptolemy Otto Gustav Carl Felipe Juan Alfonso Harald Olaf Haakon Christian
    Ramesses Amenhotep Thutmose Darius Xerxes Antiochus Seleucus Cleopatra Ivan Casimir Sigismund Wilhelm
    Ludwig Friedrich Maximilian Rudolf Umberto Emmanuel Manuel Pedro Carlos Baldwin Robert David Harold
    Edmund Stephen Hugh Philippe Gustavus Eric Magnus Valdemar Frederik Willem Albert Leopold Baudouin Rainier
    Selim Suleiman Mehmed Murad Bayezid Osman Urban Sixtus Julius Adrian Boniface Celestine Honorius Hadrian
    """.split()
)
# Given names before a surname and a generational numeral ("Tom Smith III", "Martin Luther King III" -> "the
# third"); rulers' names (REGNAL_NAMES) count too.
GIVEN_NAMES = frozenset(
    """
    Tom Thomas Bill Bob Jim Joe Joseph Jack Michael Mike Martin Luther Daniel Dan Mark Matthew Andrew Anthony Kevin
    Brian Steven Steve Donald Kenneth Ken Timothy Tim Ronald Jason Jeffrey Jeff Ryan Gary Eric Scott Frank Larry
    Jerry Dennis Walter Arthur Roger Howard Ralph Samuel Sam Benjamin Ben Harry Ted Edward Teddy Hank Chris
    Christopher Jonathan Nathan Kyle Adam Patrick Sean Gregory Jesse Ray Raymond Carl Douglas Willard Winthrop
    Cornelius Marshall Nelson Franklin Lloyd Earl Jay Lee
    """.split()
)
ROMAN_TITLES = frozenset("King Queen Pope Emperor Tsar Czar Prince Princess Duke Sultan Pharaoh".split())

SENTENCE_STARTERS = frozenset(
    "The It I We He She They This That There But And So A An In On My Our Your His Her Its Then When If".split()
)

# Words after which "N.NN" is a version ("release 4.10" -> "four point ten"), lowercased; and product names
# (matched as written) that take versions. Any capitalized word inside a sentence marks a version too.
VERSION_WORDS = frozenset("version release update build patch firmware kernel api sdk os".split())
VERSION_NAMES = frozenset(
    """
    Python Java Ruby Perl PHP Rust Go Swift Kotlin Scala Julia Node Django Rails React Angular Vue Kubernetes
    Docker Ubuntu Debian Fedora Linux Windows Android iOS macOS OS Firefox Chrome Safari Edge Bluetooth USB HTTP
    TLS SSL GPT Llama Gemini Claude Qwen Wi-Fi WiFi Unicode IPv HTML CSS
    """.split()
)
# Car makes: a 19xx/20xx number right before one is a model year ("2015 Honda Civic").
CAR_MAKES = frozenset(
    """
    Honda Toyota Ford Chevy Chevrolet Nissan Subaru Mazda Hyundai Kia Volkswagen VW BMW Audi Mercedes Lexus
    Acura Infiniti Jeep Dodge Ram GMC Buick Cadillac Chrysler Lincoln Tesla Volvo Porsche Jaguar Mitsubishi
    Fiat Rivian Saab Pontiac Saturn
    """.split()
)
# Names before which a three- or four-digit number is a model number read in pairs ("Boeing 737").
MODEL_NAMES = frozenset(
    """
    Boeing Airbus Cessna Embraer Bombardier Porsche Peugeot Ferrari Xbox Firefox Chrome RTX GTX RX Radeon
    GeForce Nokia Route Highway Interstate SR US Flight flight Room room Suite Model Form Forms Train train Bus bus
    """.split()
)
#: Road designators before a route number ("I-95 N", "Hwy 101 S", "SR 520 W"): a compass letter after the
#: number is the direction of travel.
ROAD_DESIGNATORS = ("I", "US", "SR", "CA", "Hwy", "Highway", "Route", "Rte", "Interstate")
#: Screen positions "Page 3/10" -> "page three of ten" (not a fraction or a date).
POSITION_WORDS = frozenset(
    """
    Page page Question question Step step Slide slide Image image Photo photo Item item Card card Tab tab
    Track track Episode episode Part part Chapter chapter Lesson lesson Screen screen Tip tip Result result
    """.split()
)
#: Plural container nouns after an amount with a unit ("16.9 fl oz bottles"): the unit is attributive, singular.
CONTAINERS = frozenset(
    """
    bottles cans jars packs bags boxes cartons tubs tubes pouches packets cups glasses jugs kegs tins bars
    """.split()
)
#: Two-letter airline codes of large carriers: "UA 857" in a sentence about a flight is a flight number.
AIRLINE_CODES = frozenset(
    """
    AA UA DL WN AS B6 NK F9 HA BA LH AF KL EK QR QF AC NH JL SQ CX EY TK IB AZ LX OS SK AY EI VS WS VA NZ
    """.split()
)
# Words before a number-and-letter label ("Exit 14B", "Gate 23B"): the letter is said, not read as billion.
LABEL_WORDS = frozenset(
    """
    Exit exit Gate gate Seat seat Row row Platform platform Terminal terminal Apt Apartment apartment Suite suite
    Unit unit Room room Bay bay Pier pier Level level Floor floor Lot lot Hall hall Building building Block block
    Stand stand Track track Locker locker Box box Bus bus Route route Highway Interstate Flat flat Cabin cabin
    Berth berth Zone zone Door door Dock dock Aisle aisle Section section Shelf shelf Bin bin Stall stall
    """.split()
)
#: Words before a building-and-room number ("Rm 4-102", "Suite 3-210"): the hyphen joins parts of one number.
ROOM_WORDS = ("Room", "room", "Rm", "Suite", "suite", "Ste", "Unit", "unit", "Apt", "Apartment", "apartment")
# Street-type words after "<number> <Name>" that make the number an address, read in pairs.
STREET_WORDS = frozenset(
    """
    St Street Ave Avenue Rd Road Blvd Boulevard Lane Ln Drive Dr Way Place Pl Court Ct Terrace Parkway Pkwy
    Highway Hwy Square Sq
    """.split()
)
# Abbreviations read out only before a number ("p. 12" -> "page twelve", "Hwy 101" -> "Highway 101").
NUMBERED_ABBREVIATIONS: dict[str, str] = {
    "c": "circa",
    "p": "page",
    "pp": "pages",
    "pg": "page",
    "Fig": "Figure",
    "fig": "figure",
    "Figs": "Figures",
    "Vol": "Volume",
    "vol": "volume",
    "Vols": "Volumes",
    "Ch": "Chapter",
    "ch": "chapter",
    "Chap": "Chapter",
    "Sec": "Section",
    "sec": "section",
    "Ex": "Exhibit",
    "Eq": "Equation",
    "eq": "equation",
    "Pt": "Part",
    "Hwy": "Highway",
    "Rte": "Route",
    "Apt": "Apartment",
    "apt": "apartment",
    "Bldg": "Building",
    "Ste": "Suite",
    "Rm": "Room",
    "Sect": "Section",
    "Sc": "Scene",
    "sc": "scene",
    "para": "paragraph",
    "Para": "Paragraph",
    "Art": "Article",
    "Arts": "Articles",
    "Max": "Maximum",  # with its period only ("Max. 4 persons"; "Max 4" may be a name)
    "max": "maximum",
    "Min": "Minimum",
    "Op": "Opus",  # with its period only ("Op. 27 No. 2")
    "Prop": "Proposition",  # with its period only ("Prop 22" is said "prop")
    "Cat": "Category",  # with its period only ("Cat 6 cable" is said "cat")
    "lvl": "level",
    "Lvl": "Level",
    "Wk": "Week",
    "wk": "week",
    "Ep": "Episode",  # with its period only ("Ep. 47")
    "Pub": "Publication",  # with its period only ("Pub. 17")
    "chs": "chapters",
    "Chs": "Chapters",
}

# US state and territory postal codes: a five-digit number after one is a ZIP code ("Washington, DC 20500").
US_STATES = frozenset(
    """
    AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK
    OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR
    """.split()
)
#: US state and territory postal codes as said in an address ("Santa Clara, CA 95051" -> "California"); DC stays
#: letters ("Washington, D C").
US_STATE_NAMES: dict[str, str] = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California", "CO": "Colorado",
    "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho",
    "IL": "Illinois", "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota",
    "MS": "Mississippi", "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York", "NC": "North Carolina",
    "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas",
    "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington", "WV": "West Virginia",
    "WI": "Wisconsin", "WY": "Wyoming", "PR": "Puerto Rico", "DC": "D C",
}  # fmt: skip
#: Street types as written in a street address, short or in full, and how they are said.
STREET_TYPES: dict[str, str] = {
    **{k: v for k, v in STREET_ABBREVIATIONS.items()},
    **{v: v for v in STREET_ABBREVIATIONS.values()},
    "Expy": "Expressway", "Expwy": "Expressway", "Expressway": "Expressway", "Fwy": "Freeway", "Freeway": "Freeway",
    "Ter": "Terrace", "Terr": "Terrace", "Terrace": "Terrace", "Cir": "Circle", "Circle": "Circle", "Way": "Way",
    "Sq": "Square", "Square": "Square", "Trl": "Trail", "Trail": "Trail", "Aly": "Alley", "Crt": "Court",
    "Cres": "Crescent", "Crescent": "Crescent", "Plz": "Plaza", "Plaza": "Plaza", "Pike": "Pike", "Row": "Row",
    "Tpke": "Turnpike", "Turnpike": "Turnpike", "Hts": "Heights", "Loop": "Loop", "Walk": "Walk",
}  # fmt: skip
#: Books of the Bible: "Genesis 1:1", "John 4:8" are a chapter and a verse before a colon pair (not a ratio).
BIBLE_BOOKS = frozenset(
    """
    Genesis Exodus Leviticus Numbers Deuteronomy Joshua Judges Ruth Samuel Kings Chronicles Ezra Nehemiah Esther
    Job Psalm Psalms Proverbs Ecclesiastes Isaiah Jeremiah Lamentations Ezekiel Daniel Hosea Joel Amos Obadiah
    Jonah Micah Nahum Habakkuk Zephaniah Haggai Zechariah Malachi Matthew Mark Luke John Acts Romans Corinthians
    Galatians Ephesians Philippians Colossians Thessalonians Timothy Titus Philemon Hebrews James Peter Jude
    Revelation
    """.split()
)
#: Books of the Bible as abbreviated in citations ("1 Cor. 13:4", "Matt. 5:3"): read by their names.
BIBLE_ABBREVIATIONS: dict[str, str] = {
    "Gen": "Genesis", "Exod": "Exodus", "Lev": "Leviticus", "Num": "Numbers", "Deut": "Deuteronomy",
    "Josh": "Joshua", "Judg": "Judges", "Sam": "Samuel", "Kgs": "Kings", "Chron": "Chronicles", "Neh": "Nehemiah",
    "Esth": "Esther", "Ps": "Psalm", "Psa": "Psalm", "Prov": "Proverbs", "Eccl": "Ecclesiastes", "Isa": "Isaiah",
    "Jer": "Jeremiah", "Lam": "Lamentations", "Ezek": "Ezekiel", "Dan": "Daniel", "Hos": "Hosea", "Obad": "Obadiah",
    "Mic": "Micah", "Hab": "Habakkuk", "Zeph": "Zephaniah", "Zech": "Zechariah", "Mal": "Malachi", "Matt": "Matthew",
    "Mt": "Matthew", "Mk": "Mark", "Lk": "Luke", "Jn": "John", "Rom": "Romans", "Cor": "Corinthians",
    "Gal": "Galatians", "Eph": "Ephesians", "Phil": "Philippians", "Col": "Colossians", "Thess": "Thessalonians",
    "Tim": "Timothy", "Philem": "Philemon", "Heb": "Hebrews", "Jas": "James", "Pet": "Peter", "Rev": "Revelation",
}
#: AP-style state abbreviations after a party letter in news ("Sen. Warren (D-Mass.)").
AP_STATES: dict[str, str] = {
    "Ala": "Alabama", "Ariz": "Arizona", "Ark": "Arkansas", "Calif": "California", "Colo": "Colorado",
    "Conn": "Connecticut", "Del": "Delaware", "Fla": "Florida", "Ga": "Georgia", "Ill": "Illinois", "Ind": "Indiana",
    "Kan": "Kansas", "Ky": "Kentucky", "La": "Louisiana", "Md": "Maryland", "Mass": "Massachusetts",
    "Mich": "Michigan", "Minn": "Minnesota", "Miss": "Mississippi", "Mo": "Missouri", "Mont": "Montana",
    "Neb": "Nebraska", "Nev": "Nevada", "N.H": "New Hampshire", "N.J": "New Jersey", "N.M": "New Mexico",
    "N.Y": "New York", "N.C": "North Carolina", "N.D": "North Dakota", "Okla": "Oklahoma", "Ore": "Oregon",
    "Pa": "Pennsylvania", "R.I": "Rhode Island", "S.C": "South Carolina", "S.D": "South Dakota",
    "Tenn": "Tennessee", "Tex": "Texas", "Vt": "Vermont", "Va": "Virginia", "Wash": "Washington",
    "W.Va": "West Virginia", "Wis": "Wisconsin", "Wyo": "Wyoming",
}  # fmt: skip
# Words after "<amount>/" read "per": "$9.99/month", "5 mg/day".
#: Keys of a keyboard shortcut as said aloud ("Ctrl+Shift+P" -> "control shift P").
KEY_NAMES: dict[str, str] = {
    "Ctrl": "control", "Control": "control", "Cmd": "command", "Command": "command", "Alt": "alt", "Shift": "shift",
    "Opt": "option", "Option": "option", "Win": "windows", "Fn": "function", "Esc": "escape", "Tab": "tab",
    "Enter": "enter", "Del": "delete", "Delete": "delete", "Space": "space",
}

PER_WORDS: dict[str, str] = {
    "mo": "month", "month": "month", "yr": "year", "year": "year", "day": "day", "week": "week", "wk": "week",
    "hour": "hour", "hr": "hour", "night": "night", "person": "person", "head": "head", "unit": "unit",
    "piece": "piece", "item": "item", "share": "share", "serving": "serving", "dose": "dose", "user": "user",
    "seat": "seat", "page": "page", "word": "word", "minute": "minute", "min": "minute", "sec": "second",
    "gal": "gallon", "lb": "pound", "oz": "ounce",
}

# File extensions read after "name." ("report.pdf" -> "report dot P D F"); missing ones are spelled.
FILE_EXTENSIONS: dict[str, str] = {
    "pdf": "P D F", "doc": "doc", "docx": "doc X", "xls": "X L S", "xlsx": "X L S X", "ppt": "P P T",
    "pptx": "P P T X", "txt": "T X T", "csv": "C S V", "jpg": "J P G", "jpeg": "J peg", "png": "P N G",
    "gif": "gif", "svg": "S V G", "mp3": "M P three", "mp4": "M P four", "wav": "wave", "zip": "zip",
    "exe": "E X E", "py": "P Y", "js": "J S", "ts": "T S", "html": "H T M L", "htm": "H T M", "css": "C S S",
    "json": "Jason", "xml": "X M L", "md": "M D", "yaml": "yaml", "yml": "Y M L", "toml": "toml",
    "ipynb": "I P Y N B", "onnx": "onnx", "sh": "S H", "tar": "tar", "gz": "G Z", "log": "log", "ini": "I N I",
}


# Titles only when written capitalized and before a capitalized name ("Sec. Blinken"; "30 sec. Then" ends a
# sentence): read by the title pass, and kept from ending a sentence by frontend.segment in that case only.
CASED_TITLES: dict[str, str] = {"Sec": "Secretary"}

# Sentence splitting (frontend.segment): a "." after these words does not end a sentence: titles before a name
# ("Gov. Newsom"), and abbreviations read out before a number when a digit follows ("No. 5", "Vol. 2").
TITLES_BEFORE_NAMES = frozenset(
    w.lower() for w in (*TITLES, "St", "Mt", "Ft", "vs", "approx", "incl", "excl", "dept", "fig", "jr", "sr", "sq", "cu",
                        "apt", "pkg", "mk")
)
BEFORE_NUMBERS = frozenset(
    w.lower() for w in (*NUMBERED_ABBREVIATIONS, *MONTH_BY_ABBREVIATION, *WEEKDAY_ABBREVIATIONS, "No", "Nos", "ext", "tel",
                        "est", "ca", "Rs", "Rd", *BIBLE_ABBREVIATIONS)
)
