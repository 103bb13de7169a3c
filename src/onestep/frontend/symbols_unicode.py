"""Pre-normalization of Unicode symbols and number forms, before any language's normalizer sees the text.

Every character that reaches the frontend is either read or reported: :func:`read_symbols` rewrites the
symbols and number forms a listener expects to hear (``½``, ``①``, ``²``, ``™``, ``℃``, ``‰``, ``㊿``,
``Ⅻ``, ``±``) into words of the sentence's language, and reports (and removes) the characters nobody can
read aloud: other symbols (emoji, dingbats, box drawing, private-use code points) and letters of scripts no
voice speaks (Cyrillic, Arabic, kana, ...; :func:`onestep.frontend.script.clean` removes those).

What each language's normalizer already reads (``$ % & + = @ # °``, currency signs; ``℃`` and ``‰`` after
a number in Chinese) is left for it: this module only handles what would otherwise be dropped silently.

Readings: number forms use their Unicode numeric value (``unicodedata.numeric``: ``①`` -> ``1``, ``㊿`` ->
``50``, ``Ⅻ`` -> ``12``), as separate words (``①②③`` -> ``1 2 3``); fractions and named symbols come from
:data:`READINGS`, in two sets of words: Han words for a language whose normalizer reads them (Mandarin), Latin
words for every other (read as a Latin run of the sentence). Which language a sentence is, and which words it
gets, the language registry answers (:func:`onestep.languages.detect_language`,
:attr:`onestep.languages.Language.han_symbol_words`): a Japanese (kana) or Hindi (Devanagari) sentence is its own
language here, spelled in Latin words.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

import regex

from onestep.languages import SPOKEN_SCRIPTS, detect_language, get_language

#: symbol -> (Han words, Latin words): the Mandarin and the English reading. A reading ending in ``{n}`` takes
#: the number written right before the symbol (``5‰`` -> ``千分之5``); the others replace the symbol in place.
READINGS: dict[str, tuple[str, str]] = {
    "½": ("二分之一", "one half"),
    "⅓": ("三分之一", "one third"),
    "⅔": ("三分之二", "two thirds"),
    "¼": ("四分之一", "one quarter"),
    "¾": ("四分之三", "three quarters"),
    "⅕": ("五分之一", "one fifth"),
    "⅖": ("五分之二", "two fifths"),
    "⅗": ("五分之三", "three fifths"),
    "⅘": ("五分之四", "four fifths"),
    "⅙": ("六分之一", "one sixth"),
    "⅚": ("六分之五", "five sixths"),
    "⅛": ("八分之一", "one eighth"),
    "⅜": ("八分之三", "three eighths"),
    "⅝": ("八分之五", "five eighths"),
    "⅞": ("八分之七", "seven eighths"),
    "⅐": ("七分之一", "one seventh"),
    "⅑": ("九分之一", "one ninth"),
    "⅒": ("十分之一", "one tenth"),
    "™": ("商标", "trademark"),
    "®": ("注册商标", "registered"),
    "©": ("版权", "copyright"),
    "℗": ("录音版权", "phonogram copyright"),
    "℃": ("摄氏度", "degrees Celsius"),
    "℉": ("华氏度", "degrees Fahrenheit"),
    "‰": ("千分之{n}", "{n} per mille"),
    "‱": ("万分之{n}", "{n} basis points"),
    "№": ("第", "number"),
    "§": ("第节", "section"),
    "±": ("正负", "plus or minus"),
    "∓": ("负正", "minus or plus"),
    "≈": ("约等于", "approximately"),
    "≠": ("不等于", "is not equal to"),
    "≤": ("小于等于", "is at most"),
    "≥": ("大于等于", "is at least"),
    "∞": ("无穷大", "infinity"),
    "√": ("根号", "the square root of"),
    "π": ("派", "pi"),
    "µ": ("微", "micro"),
    "Ω": ("欧姆", "ohms"),
    "→": ("到", "to"),
    "←": ("从", "from"),
}

#: Fractions the English normalizer reads itself after a digit (``1½`` -> one and one half).
EN_NORMALIZER_FRACTIONS = frozenset("½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞")

#: Symbols the language normalizers read themselves, next to a number (left alone here then).
NORMALIZER_SYMBOLS = frozenset("$%&+=@#°€£¥₩₹¢<>×÷~^*/\\|_`")

#: Readings of the normalizers' non-ASCII symbols where no number stands next to them (``"€"`` alone).
STANDALONE_READINGS: dict[str, tuple[str, str]] = {
    "°": ("度", "degrees"),
    "€": ("欧元", "euros"),
    "£": ("英镑", "pounds"),
    "¥": ("元", "yen"),
    "₩": ("韩元", "won"),
    "₹": ("卢比", "rupees"),
    "¢": ("美分", "cents"),
    "×": ("乘", "times"),
    "÷": ("除以", "divided by"),
}

#: Superscript two and three after a letter or digit: a power.
_POWERS = {"²": ("平方", "squared"), "³": ("立方", "cubed")}

# Letters of scripts no registered language reads (digits and punctuation are Common).
_UNSPEAKABLE_LETTER = regex.compile(
    rf"[[\p{{L}}\p{{M}}\p{{N}}]--[{SPOKEN_SCRIPTS}\p{{Common}}\p{{Inherited}}]]", flags=regex.V1
)
_EMOJI_TAIL = frozenset("\ufe0e\ufe0f\u20e3\u200d")  # variation selectors, keycap, joiner: part of an emoji
HAN_ZERO = "〇"  # a number letter that the Mandarin G2P reads itself (二〇二四)
_NUMBER_BEFORE = regex.compile(r"(\d+(?:[.,]\d+)?)\s*$")


def reading_language(sentence: str) -> str:
    """The registry's language of ``sentence``, by the first registered script it holds, else the default
    (:func:`onestep.languages.detect_language`: kana -> Japanese, Han -> Mandarin, Devanagari -> Hindi)."""
    return detect_language(sentence)


def read_symbols(sentence: str, lang: str | None = None) -> tuple[str, Counter[str]]:
    """Rewrite the readable symbols and number forms of ``sentence`` into words; remove and report the rest.

    Args:
        sentence: one sentence of raw text.
        lang: a registry code: the language the sentence is read in (default: :func:`reading_language`); its
            :attr:`~onestep.languages.Language.han_symbol_words` picks the words.
    Returns:
        the rewritten sentence, and each skipped character with its count (characters that cannot be spoken:
        they were removed, or are letters of an unsupported script that ``clean`` removes).
    """
    lang = lang or reading_language(sentence)
    language = get_language(lang)
    zh = language.han_symbol_words  # Han words for a Mandarin normalizer, else Latin words
    own_symbols = language.normalizer_symbols  # read by this language's normalizer beside a number (₽500, 3℃)
    out: list[str] = []
    skipped: Counter[str] = Counter()
    previous = ""
    exponent = False  # the previous character was a digit of an exponent
    for i, c in enumerate(sentence):
        in_exponent, exponent = exponent, False
        if (c == "$" or c in _FULL_WIDTH_PASS) and _lone_symbol(sentence, i):  # "$" or "＋" alone, "价格是＄"
            reading = _LONE_READINGS.get(unicodedata.normalize("NFKC", c))
            if reading is None:
                skipped[c] += 1  # "～", "｜" as decoration: removed, reported
            else:
                out.append(reading[0] if zh else f" {reading[1]} ")
        elif c.isascii() or "\u4e00" <= c <= "\u9fff":  # fast path: ASCII and common Chinese characters pass
            out.append(c)
        elif c in _EXPONENT_DIGITS and (previous.isascii() and previous.isdigit() or in_exponent):
            # an exponent after a number (10⁸, 6.02×10²³, 10⁻³): "^8" for the normalizers to read
            out.append(("" if in_exponent else "^") + _EXPONENT_DIGITS[c])
            exponent = True
        elif 0x3380 <= ord(c) <= 0x33DF and (unit := _unit_square(c)):  # ㎡ ㎞ ㎏: a unit the normalizers read
            out.append(unit)
        elif c == "∶" and zh and _next_to_digit(sentence, i):
            out.append(":")  # the ratio colon of Chinese typesetting (3∶2): the Mandarin normalizer reads it
        elif c in _FULL_WIDTH_PASS or (c in _NUMBER_FORMS_PASS and _normalizer_reads(sentence, i, c)):
            out.append("µ" if c == "μ" else c)  # the normalizers read these; µ (not Greek μ) survives clean()
        elif not zh and c in EN_NORMALIZER_FRACTIONS and regex.match(r" [A-Za-z]", sentence[i + 1 : i + 3]):
            out.append(c)  # "⅛ tsp", "½ cup": the English normalizer reads a fraction with the unit after it
        elif zh and c in _SUBSCRIPT_DIGITS and (
            previous.isascii() and previous.isalpha() or previous in _SUBSCRIPT_DIGITS
        ):
            out.append(_SUBSCRIPT_DIGITS[c])  # x₁, CO₂: a subscript glued to its letter (x1, read x一 in Mandarin)
        elif zh and c in "★☆" and previous.isascii() and previous.isdigit():
            out.append("星")  # 评分4.8★: stars of a rating
        elif c in STANDALONE_READINGS and not _next_to_digit(sentence, i) and not (
                not zh and c == "°" and regex.match(r"[CF]\b", sentence[i + 1 : i + 3])):  # "°F": the normalizer's
            reading = STANDALONE_READINGS[c][0 if zh else 1]
            out.append(reading if zh else f" {reading} ")
        elif not zh and c in EN_NORMALIZER_FRACTIONS and previous == " " and i >= 2 and sentence[i - 2].isdigit():
            out[-1] = c  # "2 ½ cups": the mixed number 2½, read by the English normalizer
        elif c.isascii() or c in NORMALIZER_SYMBOLS or (not zh and c in EN_NORMALIZER_FRACTIONS and previous.isdigit()) \
                or (c in own_symbols and _next_to_digit(sentence, i)):
            out.append(c)
        elif c in _POWERS and previous.isalnum() and unicodedata.category(previous) != "No":
            # Mandarin reads a variable's power with 的 (R² -> R的平方, like 3² -> 三的平方 in the normalizer)
            of = "的" if previous.isascii() and previous.isalpha() else ""
            out.append(of + _POWERS[c][0] if zh else " " + _POWERS[c][1] + " ")
        elif c == "§" and previous == "§":
            out.append("" if zh else "s ")  # "§§ 3–5": sections three to five
        elif c in READINGS:
            reading = READINGS[c][0 if zh else 1]
            if "{n}" in reading:
                text = "".join(out)
                m = _NUMBER_BEFORE.search(text)
                number = m.group(1) if m else ""
                out = [text[: m.start()] if m else text, " " if not zh else ""]
                reading = reading.replace("{n}", number)
            before = "".join(out[-16:])
            if not zh and c == "≈" and (_OPERAND_BEFORE.search(before) or _QUANTITY_BEFORE.search(before)):
                reading = "is approximately"  # "1/3 ≈ 0.333", "1 mile ≈ 1.609 km": between two quantities
            elif not zh and c in "≥≤" and not (_OPERAND_BEFORE.search(before) or _QUANTITY_BEFORE.search(before)):
                reading = reading.removeprefix("is ")  # "Use ≥ 8 characters": a bound with no quantity before it
            out.append(reading if zh or (c == "§" and sentence[i + 1 : i + 2] == "§") else f" {reading} ")
        elif c in _EMOJI_TAIL:
            pass  # part of an emoji already reported
        elif (number := _number_value(c)) is not None:
            out.append(f" {number} ")
        elif c in GREEK_LETTER_NAMES and not _in_greek_word(sentence, i):
            reading = GREEK_LETTER_NAMES[c][0 if zh else 1]  # a letter as a symbol: α粒子, β decay, Δt, σ = 2
            out.append(reading if zh else f" {reading} ")
        elif _UNSPEAKABLE_LETTER.match(c):
            skipped[c] += 1
            out.append(c)  # clean() replaces it by a space and logs its script
        elif c != HAN_ZERO and unicodedata.category(c) in ("So", "Sk", "Sm", "Sc", "No", "Nl", "Co", "Cn", "Cs"):
            skipped[c] += 1
            out.append(" ")
        else:
            out.append(c)
        previous = c
    return "".join(out), skipped


#: A quantity just before a symbol: a number, a lone letter (a variable) or a closing bracket ("1/3 ≈", "x ≈", "f(x) ≈").
_OPERAND_BEFORE = regex.compile(r"(?:(?<![\p{L}\p{N}])\p{L}|\p{N}|\))\s*$")
#: A number and its unit just before a symbol ("1 mile ≈", "6 ft ≈").
_QUANTITY_BEFORE = regex.compile(r"\p{N}\s*\p{L}{1,12}\s*$")


_GREEK_NAMES_ZH = (
    "阿尔法 贝塔 伽马 德尔塔 艾普西隆 泽塔 伊塔 西塔 约塔 卡帕 兰姆达 缪 纽 克西 奥米克戎 派 柔 西格玛 陶 宇普西隆 斐 希 普西 欧米伽"
).split()
_GREEK_NAMES_EN = (
    "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi "
    "psi omega"
).split()
#: A Greek letter on its own (a symbol in science and maths: α粒子, β decay, Δt) -> (Mandarin, English) name.
#: Greek words (two letters or more together) stay an unsupported script: skipped and reported.
GREEK_LETTER_NAMES: dict[str, tuple[str, str]] = {
    letter: names
    for case in ("αβγδεζηθικλμνξοπρστυφχψω", "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ")
    for letter, names in zip(case, zip(_GREEK_NAMES_ZH, _GREEK_NAMES_EN, strict=True), strict=True)
} | {"ς": ("西格玛", "sigma"), "ϑ": ("西塔", "theta"), "ϕ": ("斐", "phi"), "ϵ": ("艾普西隆", "epsilon")}


_GREEK = regex.compile(r"\p{Greek}")


def _in_greek_word(sentence: str, i: int) -> bool:
    """Whether the Greek letter at ``i`` has a Greek letter beside it (a word, not a symbol)."""
    return any(0 <= j < len(sentence) and _GREEK.match(sentence[j]) for j in (i - 1, i + 1))


#: Subscript digits (x₁, H₂O), which Mandarin reads glued to their letter.
_SUBSCRIPT_DIGITS = dict(zip("₀₁₂₃₄₅₆₇₈₉", "0123456789"))

#: Superscript digits (and minus) written right after a digit: an exponent, passed on as ``^N``.
_EXPONENT_DIGITS = dict(zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-"))

#: Full-width forms of the normalizers' symbols (``～`` in 3～5天, ``￥``, ``＄``, ``％``): both normalizers fold
#: them (NFKC / the Mandarin fold table), so they pass unchanged instead of being dropped.
_FULL_WIDTH_PASS = frozenset(
    chr(c) for c in range(0xFF01, 0xFF5F) if unicodedata.normalize("NFKC", chr(c)) in NORMALIZER_SYMBOLS
) | frozenset("￠￡￥￦")
#: Forms that the normalizers read in a measure or a signed number: ``−`` (minus sign) before a digit (``2⁵ − 1``)
#: or a currency sign and a digit (``−$13.20``);
#: ``²``/``³`` after a unit written right after a number (``20 m²``, ``9.8 m/s²``, ``4.2 million m³``) or after "in",
#: "per", 单位：
#: (``area in cm²``); ``µ``/``μ`` as the micro
#: prefix of a unit after a number (``10 µm``). Elsewhere they keep their readings here (``x²`` -> x squared).
_NUMBER_FORMS_PASS = frozenset("−²³µμ")
_UNIT_BEFORE_POWER = regex.compile(  # (a 万 or 亿 may come between: 180万km²)
    r"(?:\d[万亿]?|(?<![A-Za-z])(?:in|per)\s|(?:thousand|million|billion)\s|单位[:：])\s?(?:[A-Za-zµμ]{1,3}/)?[A-Za-zµμ]{1,3}$"
)


def _unit_square(c: str) -> str | None:
    """``㎡`` -> ``m²``, ``㎞`` -> ``km``: a CJK unit square as the unit it stands for (None if not a plain unit)."""
    unit = unicodedata.normalize("NFKC", c)
    if not unit.isascii() and "μ" not in unit:
        return None
    return unit[:-1] + {"2": "²", "3": "³"}[unit[-1]] if unit[-1] in "23" else unit


def _normalizer_reads(text: str, i: int, c: str) -> bool:
    if c == "−":  # before a number, or before a currency sign and a number ("−$13.20")
        after = text[i + 1 :].lstrip(" ")
        return after[:1].isdigit() or (after[:1] in "$€£¥₹" and after[1:2].isdigit())
    if c in "²³":
        return bool(_UNIT_BEFORE_POWER.search(text[max(0, i - 12) : i]))
    return text[i + 1 : i + 2].isascii() and text[i + 1 : i + 2].isalpha() and text[:i].rstrip()[-1:].isdigit()


#: Readings of a dollar sign or a full-width symbol with no number beside it (keyed by the ASCII form); the
#: symbols of ``_LONE_SILENT`` are removed and reported there, the rest pass (the normalizers read ``％``,
#: ``＆``, ``＠``, ``＃``, ``／`` alone or between words).
_LONE_READINGS: dict[str, tuple[str, str]] = {
    "$": ("美元", "dollars"),
    **{c: STANDALONE_READINGS[c] for c in "¢£¥₩"},
    "+": ("加", "plus"),
    "=": ("等于", "equals"),
    "<": ("小于", "less than"),
    ">": ("大于", "greater than"),
}
_LONE_SILENT = frozenset("^`|~")


def _lone_symbol(text: str, i: int) -> bool:
    """True when the symbol ``text[i]`` (a dollar sign or a full-width form) is one that no normalizer reads here:
    read by ``_LONE_READINGS`` or silent (``_LONE_SILENT``), with no digit beside it and no Latin letter or
    digit touching it (``x＋y``, ``US$``, ``$AAPL`` stay for the normalizers), and no ``${`` / ``$(`` (a shell's
    ``$HOME`` is the reader's)."""
    ascii_form = unicodedata.normalize("NFKC", text[i])
    if ascii_form not in _LONE_READINGS and ascii_form not in _LONE_SILENT:
        return False
    after = text[i + 1 : i + 2]
    if ascii_form == "$" and after in ("{", "("):
        return False
    touching = [side for side in (text[i - 1 : i], after) if side.isascii() and side.isalnum()]
    return not _next_to_digit(text, i) and not touching


def _next_to_digit(text: str, i: int) -> bool:
    """True when the nearest non-space character before or after ``text[i]`` is a digit, or a decimal point
    and a digit after it ("€.44")."""
    before = text[:i].rstrip()
    after = text[i + 1 :].lstrip()
    return bool(before and before[-1].isdigit()) or bool(after and (after[0].isdigit() or (
        after[0] == "." and after[1:2].isdigit())))


def _number_value(c: str) -> str | None:
    """The written value of a number-form character (circled, parenthesized, superscript, Roman, CJK enclosed):
    ``"①"`` -> ``"1"``; None for ordinary digits and letters, which the normalizers read."""
    if unicodedata.category(c) not in ("No", "Nl") or c == HAN_ZERO:
        return None
    try:
        value = unicodedata.numeric(c)
    except (TypeError, ValueError):
        return None
    if value != int(value):
        return None
    return str(int(value))
