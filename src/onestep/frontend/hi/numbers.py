"""Hindi number reading in Devanagari (num2words 0.5.14 has no Hindi).

``cardinal(n)`` reads n >= 0 in the Indian system: 1..99 are single words (irregular, so a table),
then सौ (10²), हज़ार (10³), लाख (10⁵), करोड़ (10⁷); counts of crores above 99 are read recursively.
``year(n)`` reads 1100..1999 by hundreds, as years are spoken (1947 -> उन्नीस सौ सैंतालीस).
"""

from __future__ import annotations

from functools import lru_cache

# 0..99
WORDS: tuple[str, ...] = tuple("""
शून्य एक दो तीन चार पाँच छह सात आठ नौ
दस ग्यारह बारह तेरह चौदह पंद्रह सोलह सत्रह अठारह उन्नीस
बीस इक्कीस बाईस तेईस चौबीस पच्चीस छब्बीस सत्ताईस अट्ठाईस उनतीस
तीस इकतीस बत्तीस तैंतीस चौंतीस पैंतीस छत्तीस सैंतीस अड़तीस उनतालीस
चालीस इकतालीस बयालीस तैंतालीस चवालीस पैंतालीस छियालीस सैंतालीस अड़तालीस उनचास
पचास इक्यावन बावन तिरेपन चौवन पचपन छप्पन सत्तावन अट्ठावन उनसठ
साठ इकसठ बासठ तिरसठ चौंसठ पैंसठ छियासठ सड़सठ अड़सठ उनहत्तर
सत्तर इकहत्तर बहत्तर तिहत्तर चौहत्तर पचहत्तर छिहत्तर सतहत्तर अठहत्तर उन्यासी
अस्सी इक्यासी बयासी तिरासी चौरासी पचासी छियासी सत्तासी अट्ठासी नवासी
नब्बे इक्यानवे बानवे तिरानवे चौरानवे पचानवे छियानवे सत्तानवे अट्ठानवे निन्यानवे
""".split())
assert len(WORDS) == 100

_SCALES = ((10_000_000, "करोड़"), (100_000, "लाख"), (1000, "हज़ार"), (100, "सौ"))


@lru_cache(maxsize=4096)
def cardinal(n: int) -> str:
    """n >= 0 -> Hindi words: 2024 -> "दो हज़ार चौबीस", 150000 -> "एक लाख पचास हज़ार"."""
    if n < 100:
        return WORDS[n]
    parts: list[str] = []
    for value, name in _SCALES:
        count, n = divmod(n, value)
        if count:
            parts.append(f"{cardinal(count)} {name}")
    if n:
        parts.append(WORDS[n])
    return " ".join(parts)


def year(n: int) -> str:
    """A year: 1100..1999 by hundreds ("उन्नीस सौ सैंतालीस"), others as cardinals."""
    if 1100 <= n <= 1999:
        hundreds, rest = divmod(n, 100)
        return f"{WORDS[hundreds]} सौ" + (f" {WORDS[rest]}" if rest else "")
    return cardinal(n)
