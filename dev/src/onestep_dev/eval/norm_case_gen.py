"""Generator of normalization case tables for es, fr, it, pt, hi and ja: random values per class, each with the
reading a native speaker gives, written by an oracle that does not call the normalizers.

    python -m onestep_dev.eval.norm_case_gen --lang es --seed 7 --per-class 12 --name fresh-7

writes ``frontend_cases/es-norm-fresh-7.tsv`` (one table, every class; the class is the note column). The oracle's
number words come from num2words (es, fr, it, pt_BR; ja with ``reading=True``) and, for Hindi, from an
independent composition over a 0..99 table checked against espeak-ng's own Hindi number reading (same words,
phonetic variants only); the surrounding words (dates, times, money, units, agreement) are the oracle's own
statement of each language's conventions, documented in docs/LANGUAGE_NORMALIZATION.md. Where the
normalizer and this oracle share a source (num2words), a table tests everything around the number words.
"""

from __future__ import annotations

import argparse
import random
import re
from collections.abc import Callable
from pathlib import Path

from num2words import num2words

Case = tuple[str, str, str]  # input, expected, class
Gen = Callable[[random.Random], tuple[str, str]]

# ---------------------------------------------------------------- number words of the oracle ----------------

_N2W = {"es": "es", "fr": "fr", "it": "it", "pt": "pt_BR"}


def words(lang: str, n: int) -> str:
    """Cardinal words of the oracle (Latin-script languages)."""
    w = num2words(n, lang=_N2W[lang])
    if lang == "pt":
        w = w.replace(",", "")
    if lang == "it":  # "due milioni trecentomila", not num2words' optional "e"
        w = re.sub(r"\b(milion[ei]|miliard[oi]) e ", r"\1 ", w)
        w = re.sub(r"\Btre\b", "tré", w)  # ventitré, centoventitré: num2words drops the accent in some numbers
    if lang == "es":  # apocope before mil/millones ("veintiún mil", "ciento un mil")
        w = re.sub(r"veintiuno (mil|millones)", r"veintiún \1", w)
        w = re.sub(r"\buno (mil|millones)", r"un \1", w)
    return w


def masc_noun(lang: str, n: int) -> str:
    """Number before a masculine noun."""
    w = words(lang, n)
    if lang == "es":
        if w.endswith("veintiuno"):
            return w[:-9] + "veintiún"
        if w.endswith("uno"):
            return w[:-3] + "un"
    if lang == "it" and n == 1:
        return "un"
    return w


def fem_noun(lang: str, n: int) -> str:
    """Number before a feminine noun."""
    w = words(lang, n)
    if lang == "es":
        w = re.sub(r"ientos\b", "ientas", w)
        if w.endswith("uno"):
            w = w[:-1] + "a"
    elif lang == "pt":
        parts = w.split()
        w = " ".join({"um": "uma", "dois": "duas"}.get(p, re.sub(r"entos$", "entas", p)) for p in parts)
    elif lang == "fr":
        if w.endswith("un"):
            w += "e"
    elif lang == "it" and n == 1:
        w = "una"
    return w


_HI = ("शून्य एक दो तीन चार पाँच छह सात आठ नौ दस ग्यारह बारह तेरह चौदह पंद्रह सोलह सत्रह अठारह उन्नीस बीस "
       "इक्कीस बाईस तेईस चौबीस पच्चीस छब्बीस सत्ताईस अट्ठाईस उनतीस तीस इकतीस बत्तीस तैंतीस चौंतीस पैंतीस छत्तीस "
       "सैंतीस अड़तीस उनतालीस चालीस इकतालीस बयालीस तैंतालीस चवालीस पैंतालीस छियालीस सैंतालीस अड़तालीस उनचास पचास "
       "इक्यावन बावन तिरेपन चौवन पचपन छप्पन सत्तावन अट्ठावन उनसठ साठ इकसठ बासठ तिरसठ चौंसठ पैंसठ छियासठ सड़सठ "
       "अड़सठ उनहत्तर सत्तर इकहत्तर बहत्तर तिहत्तर चौहत्तर पचहत्तर छिहत्तर सतहत्तर अठहत्तर उन्यासी अस्सी इक्यासी "
       "बयासी तिरासी चौरासी पचासी छियासी सत्तासी अट्ठासी नवासी नब्बे इक्यानवे बानवे तिरानवे चौरानवे पचानवे छियानवे "
       "सत्तानवे अट्ठानवे निन्यानवे").split()


def hi_words(n: int) -> str:
    """Hindi cardinal (Indian system), written independently of onestep.frontend.hi.numbers."""
    out = []
    crore, n = divmod(n, 10**7)
    lakh, n = divmod(n, 10**5)
    thousand, n = divmod(n, 1000)
    hundred, n = divmod(n, 100)
    if crore:
        out.append(hi_words(crore) + " करोड़")
    for count, name in ((lakh, "लाख"), (thousand, "हज़ार"), (hundred, "सौ")):
        if count:
            out.append(f"{_HI[count]} {name}")
    if n or not out:
        out.append(_HI[n])
    return " ".join(out)


def hi_year(y: int) -> str:
    return f"{_HI[y // 100]} सौ" + (f" {_HI[y % 100]}" if y % 100 else "") if 1100 <= y <= 1999 else hi_words(y)


_DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")


def group(n: int, sep: str) -> str:
    return f"{n:,}".replace(",", sep)


def hi_group(n: int) -> str:
    s = str(n)
    if len(s) <= 3:
        return s
    head, tail = s[:-3], s[-3:]
    parts = []
    while len(head) > 2:
        parts.insert(0, head[-2:])
        head = head[:-2]
    return ",".join([head, *parts, tail])


# ---------------------------------------------------------------- Latin-script languages -------------------

MONTHS = {
    "es": "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
    "fr": "janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
    "it": "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre".split(),
    "pt": "janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro".split(),
    "hi": "जनवरी फ़रवरी मार्च अप्रैल मई जून जुलाई अगस्त सितंबर अक्टूबर नवंबर दिसंबर".split(),
}
_FIRST = {"es": "primero", "fr": "premier", "it": "primo", "pt": "primeiro"}
_DE = {"es": " de", "fr": "", "it": "", "pt": " de", "hi": ""}
_COMMA = {"es": "coma", "fr": "virgule", "it": "virgola", "pt": "vírgula"}
_PERCENT = {"es": "por ciento", "fr": "pour cent", "it": "per cento", "pt": "por cento", "hi": "प्रतिशत"}
_MINUS = {"es": "menos", "fr": "moins", "it": "meno", "pt": "menos", "hi": "माइनस"}
_CARRIER = {
    "es": ("Dijo que {} y se fue.", "{}", "Según el informe, {}."),
    "fr": ("Il a dit {} hier.", "{}", "Selon le rapport, {}."),
    "it": ("Ha detto {} ieri.", "{}", "Secondo il rapporto, {}."),
    "pt": ("Ele disse {} ontem.", "{}", "Segundo o relatório, {}."),
    "hi": ("उसने कहा {} था।", "{}", "रिपोर्ट के अनुसार {} है।"),
}
# (symbol, singular, plural, feminine) per language
_UNITS = {
    "es": [("km", "kilómetro", "kilómetros", 0), ("kg", "kilo", "kilos", 0), ("m", "metro", "metros", 0),
           ("°C", "grado Celsius", "grados Celsius", 0), ("km/h", "kilómetro por hora", "kilómetros por hora", 0),
           ("l", "litro", "litros", 0), ("cm", "centímetro", "centímetros", 0), ("g", "gramo", "gramos", 0),
           ("h", "hora", "horas", 1), ("GB", "gigabyte", "gigabytes", 0)],
    "fr": [("km", "kilomètre", "kilomètres", 0), ("kg", "kilo", "kilos", 0), ("m", "mètre", "mètres", 0),
           ("°C", "degré Celsius", "degrés Celsius", 0), ("km/h", "kilomètre heure", "kilomètres heure", 0),
           ("l", "litre", "litres", 0), ("cm", "centimètre", "centimètres", 0), ("g", "gramme", "grammes", 0),
           ("min", "minute", "minutes", 1), ("Go", "gigaoctet", "gigaoctets", 0)],
    "it": [("km", "chilometro", "chilometri", 0), ("kg", "chilo", "chili", 0), ("m", "metro", "metri", 0),
           ("°C", "grado Celsius", "gradi Celsius", 0), ("km/h", "chilometro orario", "chilometri orari", 0),
           ("l", "litro", "litri", 0), ("cm", "centimetro", "centimetri", 0), ("g", "grammo", "grammi", 0),
           ("h", "ora", "ore", 1), ("GB", "gigabyte", "gigabyte", 0)],
    "pt": [("km", "quilômetro", "quilômetros", 0), ("kg", "quilo", "quilos", 0), ("m", "metro", "metros", 0),
           ("°C", "grau Celsius", "graus Celsius", 0), ("km/h", "quilômetro por hora", "quilômetros por hora", 0),
           ("l", "litro", "litros", 0), ("cm", "centímetro", "centímetros", 0), ("g", "grama", "gramas", 0),
           ("t", "tonelada", "toneladas", 1), ("GB", "gigabyte", "gigabytes", 0)],
    "hi": [("km", "किलोमीटर", "किलोमीटर", 0), ("kg", "किलोग्राम", "किलोग्राम", 0), ("m", "मीटर", "मीटर", 0),
           ("°C", "डिग्री सेल्सियस", "डिग्री सेल्सियस", 0), ("किमी", "किलोमीटर", "किलोमीटर", 0),
           ("l", "लीटर", "लीटर", 0), ("cm", "सेंटीमीटर", "सेंटीमीटर", 0), ("g", "ग्राम", "ग्राम", 0)],
}
# symbol before/after, unit sg, pl, cent sg, cent pl
_MONEY = {
    "es": [("{} €", "euro", "euros", "céntimo", "céntimos"), ("${}", "dólar", "dólares", "centavo", "centavos")],
    "fr": [("{} €", "euro", "euros", "centime", "centimes"), ("{} $", "dollar", "dollars", "cent", "cents")],
    "it": [("{} €", "euro", "euro", "centesimo", "centesimi"), ("€{}", "euro", "euro", "centesimo", "centesimi")],
    "pt": [("R$ {}", "real", "reais", "centavo", "centavos"), ("US$ {}", "dólar", "dólares", "centavo", "centavos")],
    "hi": [("₹{}", "रुपया", "रुपये", "पैसा", "पैसे"), ("Rs. {}", "रुपया", "रुपये", "पैसा", "पैसे")],
}
_MONEY_AND = {"es": "con", "fr": "et", "it": "e", "pt": "e", "hi": ""}
_TITLES = {
    "es": [("Sr.", "señor"), ("Sra.", "señora"), ("Dr.", "doctor"), ("Dra.", "doctora"), ("Srta.", "señorita")],
    "fr": [("M.", "monsieur"), ("Mme", "madame"), ("Mlle", "mademoiselle"), ("Dr", "docteur"), ("Pr", "professeur")],
    "it": [("Sig.", "signor"), ("Sig.ra", "signora"), ("Dott.", "dottor"), ("Dott.ssa", "dottoressa"),
           ("Prof.", "professor")],
    "pt": [("Sr.", "senhor"), ("Sra.", "senhora"), ("Dr.", "doutor"), ("Dra.", "doutora"), ("Prof.", "professor")],
    "hi": [("डॉ.", "डॉक्टर"), ("प्रो.", "प्रोफ़ेसर")],
}
_NAMES = {"es": "García López Martín Ruiz Navarro".split(), "fr": "Dupont Martin Bernard Petit Moreau".split(),
          "it": "Rossi Bianchi Romano Colombo Ricci".split(), "pt": "Silva Souza Oliveira Santos Lima".split(),
          "hi": "शर्मा वर्मा गुप्ता सिंह पटेल".split()}
_NOUNS = {  # masculine, feminine
    "es": (("libros", "libro"), ("casas", "casa")), "fr": (("livres", "livre"), ("heures", "heure")),
    "it": (("libri", "libro"), ("case", "casa")), "pt": (("livros", "livro"), ("casas", "casa")),
    "hi": (("किताबें", "किताब"), ("घर", "घर")),
}


def _num(lang: str, n: int) -> str:
    return hi_words(n) if lang == "hi" else words(lang, n)


def _frac(lang: str, f: str) -> str:
    if lang == "hi":
        return " ".join(_HI[int(d)] for d in f)
    zeros = len(f) - len(f.lstrip("0"))
    rest = f.lstrip("0")
    return " ".join([words(lang, 0)] * zeros + ([words(lang, int(rest))] if rest else []))


def _decimal_parts(r: random.Random) -> tuple[int, str]:
    return r.randint(0, 999), r.choice([str(r.randint(1, 9)), f"{r.randint(10, 99)}", f"0{r.randint(1, 9)}"])


def latin_generators(lang: str) -> dict[str, Gen]:
    hi = lang == "hi"
    months = MONTHS[lang]

    def cardinal(r: random.Random) -> tuple[str, str]:
        n = r.choice([r.randint(2, 99), r.randint(100, 999), r.randint(1000, 9999), r.randint(10000, 999999)])
        (pl_m, sg_m), (pl_f, sg_f) = _NOUNS[lang]
        if hi:
            if r.random() < 0.5:
                return str(n).translate(_DEVANAGARI) + f" {pl_m}", hi_year(n) + f" {pl_m}"
            return f"{n} {pl_m}", hi_year(n) + f" {pl_m}"
        sep = " " if lang == "fr" else "."
        written = group(n, sep) if n >= 10000 else str(n)
        if r.random() < 0.5:
            return f"{written} {pl_m}", f"{masc_noun(lang, n)} {pl_m}"
        if lang == "fr":  # feminine agreement only of "un" in French
            n = r.choice([21, 31, 41, 51, 61, 81, r.randint(2, 99)])
            written = str(n)
        return f"{written} {pl_f}", f"{fem_noun(lang, n)} {pl_f}"

    def decimal(r: random.Random) -> tuple[str, str]:
        i, f = _decimal_parts(r)
        if hi:
            return f"{i}.{f}", f"{hi_words(i)} दशमलव {_frac(lang, f)}"
        return f"{i},{f}", f"{words(lang, i)} {_COMMA[lang]} {_frac(lang, f)}"

    def ordinal(r: random.Random) -> tuple[str, str]:
        n = r.randint(1, 30)
        if hi:
            irregular = {1: "पहली", 2: "दूसरी", 3: "तीसरी", 4: "चौथी", 6: "छठी"}
            return f"{n}वीं", irregular.get(n, hi_words(n) + "वीं")
        if lang == "fr":
            if n == 1:
                return "1er", "premier"
            return f"{n}e", num2words(n, lang="fr", to="ordinal")
        fem = r.random() < 0.5
        o = num2words(n, lang=_N2W[lang], to="ordinal")
        if fem:
            o = " ".join(w[:-1] + "a" if w.endswith("o") else w for w in o.split())
        return f"{n}{'ª' if fem else 'º'}", o

    def date(r: random.Random) -> tuple[str, str]:
        d, m, y = r.randint(1, 28), r.randint(1, 12), r.randint(1950, 2035)
        year = hi_year(y) if hi else words(lang, y)
        day = hi_words(d) if hi else (_FIRST[lang] if d == 1 else words(lang, d))
        said = f"{day}{_DE[lang]} {months[m - 1]}{_DE[lang]} {year}"
        style = r.randint(0, 2)
        if style == 0:
            return f"{d}/{m:02d}/{y}", said
        if style == 1:
            return f"{d:02d}.{m:02d}.{y}", said
        return f"{d}{_DE[lang]} {months[m - 1]}{_DE[lang]} {y}", said

    def time(r: random.Random) -> tuple[str, str]:
        h, mi = r.randint(0, 23), r.choice([0, r.randint(1, 59), 30, 15])
        written = f"{h}:{mi:02d}" if r.random() < 0.6 or lang not in ("fr", "pt") else (
            f"{h}h{mi:02d}" if mi else f"{h}h")
        if hi:
            return written, f"{hi_words(h)} बजे" if mi == 0 else f"{hi_words(h)} बजकर {hi_words(mi)} मिनट"
        if lang == "es":
            hour = fem_noun("es", h)
            return written, f"{hour} en punto" if mi == 0 else f"{hour} y {words('es', mi)}"
        if lang == "fr":
            hour = fem_noun("fr", h) + (" heure" if h < 2 else " heures")
            return written, hour if mi == 0 else f"{hour} {fem_noun('fr', mi)}"
        if lang == "it":
            hour = "una" if h == 1 else words("it", h)
            return written, hour if mi == 0 else f"{hour} e {words('it', mi)}"
        hour = fem_noun("pt", h)
        return written, (f"{hour} {'hora' if h == 1 else 'horas'}" if mi == 0 else f"{hour} e {words('pt', mi)}")

    def money(r: random.Random) -> tuple[str, str]:
        form, sg, pl, csg, cpl = r.choice(_MONEY[lang])
        whole = r.choice([r.randint(1, 99), r.randint(100, 9999)])
        cents = r.choice([0, r.randint(1, 99)])
        if hi:
            amount = hi_group(whole) + (f".{cents:02d}" if cents else "")
        else:
            amount = (group(whole, " " if lang == "fr" else ".") if whole >= 1000 else str(whole)) + (
                f",{cents:02d}" if cents else "")
            if form.startswith("$") or form.startswith("€"):
                amount = str(whole) + (f".{cents:02d}" if cents else "")
        # Hindi: a sum written with grouping (1,282) is read as a plain cardinal, not by hundreds
        said = (hi_words(whole) if hi else masc_noun(lang, whole)) + " " + (sg if whole == 1 else pl)
        if cents:
            c = (hi_words(cents) if hi else masc_noun(lang, cents)) + " " + (csg if cents == 1 else cpl)
            said = f"{said} {_MONEY_AND[lang]} {c}" if _MONEY_AND[lang] else f"{said} {c}"
        return form.format(amount), said

    def percent(r: random.Random) -> tuple[str, str]:
        if r.random() < 0.3:
            i, f = r.randint(0, 99), str(r.randint(1, 9))
            sep = "." if hi else ","
            point = "दशमलव" if hi else _COMMA[lang]
            return f"{i}{sep}{f}%", f"{_num(lang, i)} {point} {_frac(lang, f)} {_PERCENT[lang]}"
        n = r.randint(1, 100)
        return f"{n}{r.choice(['%', ' %'])}", f"{_num(lang, n)} {_PERCENT[lang]}"

    def unit(r: random.Random) -> tuple[str, str]:
        sym, sg, pl, fem = r.choice(_UNITS[lang])
        n = r.choice([1, r.randint(2, 99), r.randint(100, 999)])
        neg = sym == "°C" and r.random() < 0.3
        if hi:
            said = hi_words(n)
        else:
            said = fem_noun(lang, n) if fem else masc_noun(lang, n)
        said = f"{_MINUS[lang]} {said}" if neg else said
        return f"{'-' if neg else ''}{n}{r.choice(['', ' '])}{sym}", f"{said} {sg if n == 1 else pl}"

    def phone(r: random.Random) -> tuple[str, str]:
        if lang == "fr":
            pairs = ["0" + str(r.randint(1, 7))] + [f"{r.randint(0, 99):02d}" for _ in range(4)]
            said = []
            for p in pairs:
                said.append(f"{words('fr', 0)} {words('fr', int(p[1]))}" if p[0] == "0" else words("fr", int(p)))
            return " ".join(pairs), " ".join(said)
        ds = str(r.randint(6, 9)) + "".join(str(r.randint(0, 9)) for _ in range(8 if lang != "hi" else 9))
        if lang == "hi":
            written = ds[:5] + " " + ds[5:]
        elif lang == "pt":
            written = f"({ds[:2]}) {ds[2:7]}-{ds[7:]}"
        else:
            written = f"{ds[:3]} {ds[3:6]} {ds[6:]}"
        return written, " ".join(_num(lang, int(d)) for d in ds)

    def title(r: random.Random) -> tuple[str, str]:
        abbr, word = r.choice(_TITLES[lang])
        name = r.choice(_NAMES[lang])
        return f"{abbr} {name}", f"{word} {name}"

    return {"cardinals": cardinal, "decimals": decimal, "ordinals": ordinal, "dates": date, "times": time,
            "money": money, "percent": percent, "units": unit, "phone": phone, "abbreviations": title}


# ---------------------------------------------------------------- Japanese ------------------------------------

def ja_words(n: int) -> str:
    """Hiragana reading: num2words per 4-digit group, joined with ちょう/おく/まん; a 万 group of 1000..1999
    says いっせん (いっせんまん, as NHK's reading does)."""
    if n == 0:
        return "ぜろ"
    out = ""
    for unit, name in ((10**12, "ちょう"), (10**8, "おく"), (10**4, "まん")):
        g, n = divmod(n, unit)
        if g:
            read = num2words(g, lang="ja", reading=True)
            if name == "まん" and 1000 <= g % 10000 < 2000:
                read = read.replace("せん", "いっせん", 1) if read.startswith("せん") else read
            out += read + name
    return out + (num2words(n, lang="ja", reading=True) if n else "")


# the reading of (last element, counter): written out by hand per counter for the ones digits 1..10
_JA_COUNTERS = {
    "本": "いっぽん にほん さんぼん よんほん ごほん ろっぽん ななほん はっぽん きゅうほん じゅっぽん",
    "匹": "いっぴき にひき さんびき よんひき ごひき ろっぴき ななひき はっぴき きゅうひき じゅっぴき",
    "杯": "いっぱい にはい さんばい よんはい ごはい ろっぱい ななはい はっぱい きゅうはい じゅっぱい",
    "個": "いっこ にこ さんこ よんこ ごこ ろっこ ななこ はっこ きゅうこ じゅっこ",
    "回": "いっかい にかい さんかい よんかい ごかい ろっかい ななかい はっかい きゅうかい じゅっかい",
    "階": "いっかい にかい さんがい よんかい ごかい ろっかい ななかい はっかい きゅうかい じゅっかい",
    "件": "いっけん にけん さんけん よんけん ごけん ろっけん ななけん はっけん きゅうけん じゅっけん",
    "冊": "いっさつ にさつ さんさつ よんさつ ごさつ ろくさつ ななさつ はっさつ きゅうさつ じゅっさつ",
    "歳": "いっさい にさい さんさい よんさい ごさい ろくさい ななさい はっさい きゅうさい じゅっさい",
    "分": "いっぷん にふん さんぷん よんぷん ごふん ろっぷん ななふん はっぷん きゅうふん じゅっぷん",
    "人": "ひとり ふたり さんにん よにん ごにん ろくにん ななにん はちにん きゅうにん じゅうにん",
    "枚": "いちまい にまい さんまい よんまい ごまい ろくまい ななまい はちまい きゅうまい じゅうまい",
    "台": "いちだい にだい さんだい よんだい ごだい ろくだい ななだい はちだい きゅうだい じゅうだい",
    "円": "いちえん にえん さんえん よえん ごえん ろくえん ななえん はちえん きゅうえん じゅうえん",
    "秒": "いちびょう にびょう さんびょう よんびょう ごびょう ろくびょう ななびょう はちびょう きゅうびょう じゅうびょう",
    "時間": "いちじかん にじかん さんじかん よじかん ごじかん ろくじかん ななじかん はちじかん くじかん じゅうじかん",
    "週間": "いっしゅうかん にしゅうかん さんしゅうかん よんしゅうかん ごしゅうかん ろくしゅうかん ななしゅうかん "
            "はっしゅうかん きゅうしゅうかん じゅっしゅうかん",
    "ヶ月": "いっかげつ にかげつ さんかげつ よんかげつ ごかげつ ろっかげつ ななかげつ はっかげつ きゅうかげつ "
            "じゅっかげつ",
    "年": "いちねん にねん さんねん よねん ごねん ろくねん ななねん はちねん きゅうねん じゅうねん",
    "%": "いちぱーせんと にぱーせんと さんぱーせんと よんぱーせんと ごぱーせんと ろくぱーせんと ななぱーせんと "
         "はちぱーせんと きゅうぱーせんと じゅっぱーせんと",
}
_JA_DAYS = ("ついたち ふつか みっか よっか いつか むいか なのか ようか ここのか とおか じゅういちにち じゅうににち "
            "じゅうさんにち じゅうよっか じゅうごにち じゅうろくにち じゅうしちにち じゅうはちにち じゅうくにち はつか "
            "にじゅういちにち にじゅうににち にじゅうさんにち にじゅうよっか にじゅうごにち にじゅうろくにち "
            "にじゅうしちにち にじゅうはちにち にじゅうくにち さんじゅうにち さんじゅういちにち").split()
_JA_MONTHS = "いちがつ にがつ さんがつ しがつ ごがつ ろくがつ しちがつ はちがつ くがつ じゅうがつ じゅういちがつ じゅうにがつ".split()
_JA_HOURS = "れいじ いちじ にじ さんじ よじ ごじ ろくじ しちじ はちじ くじ じゅうじ".split()


def ja_counted(n: int, counter: str) -> str:
    """n + counter by the hand-written table: the ones digit (or a final ten) takes the table's form."""
    forms = _JA_COUNTERS[counter].split()
    if n == 20 and counter == "歳":
        return "はたち"
    ones, tens = n % 10, (n // 10) % 10
    if ones:
        if counter == "人" and n > 10 and ones in (1, 2):
            return ja_words(n - ones) + ("いちにん" if ones == 1 else "ににん")
        return (ja_words(n - ones) if n > 10 else "") + forms[ones - 1]
    if tens:  # ends in a ten: x0
        head = ja_words(n - 10 * tens) if n >= 100 else ""
        lead = "" if tens == 1 else ja_words(tens)
        return head + lead + forms[9]
    raise ValueError(f"{n}: the table has no form for a number ending in 00")


def ja_hour(h: int) -> str:
    return _JA_HOURS[h] if h <= 10 else ("じゅう" + _JA_HOURS[h - 10] if h < 20 else
                                         ("にじゅう" + _JA_HOURS[h - 20] if h > 20 else "にじゅうじ"))


def ja_generators() -> dict[str, Gen]:
    def n_for(r: random.Random) -> int:
        n = r.choice([r.randint(1, 10), r.randint(11, 99), r.randint(101, 999)])
        return n if n % 100 else n + 1

    def counters(r: random.Random) -> tuple[str, str]:
        c = r.choice([k for k in _JA_COUNTERS if k not in ("円", "%")])
        n = n_for(r)
        if c in ("人", "歳") and n > 99:
            n = n % 99 + 1
        written = str(n) if r.random() < 0.8 else str(n).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
        return f"りんごを{written}{c}。" if c in ("個",) else f"{written}{c}です。", \
            (f"りんごを{ja_counted(n, c)}。" if c == "個" else f"{ja_counted(n, c)}です。")

    def dates(r: random.Random) -> tuple[str, str]:
        y, m, d = r.randint(1950, 2035), r.randint(1, 12), r.randint(1, 31)
        said = (ja_words(y)[:-2] + "よねん") if y % 10 == 4 else ja_words(y) + "ねん"
        said += _JA_MONTHS[m - 1] + _JA_DAYS[d - 1]
        if r.random() < 0.7:
            return f"{y}年{m}月{d}日に", said + "に"
        return f"{y}/{m}/{d}に", said + "に"

    def times(r: random.Random) -> tuple[str, str]:
        h, mi = r.randint(0, 23), r.randint(1, 59)
        said = ja_hour(h) + ja_counted(mi, "分")
        if r.random() < 0.5:
            return f"{h}時{mi}分です", said + "です"
        return f"{h}:{mi:02d}です", said + "です"

    def money(r: random.Random) -> tuple[str, str]:
        n = r.choice([r.randint(1, 99), r.randint(101, 9999), r.randint(10001, 99999)])
        if n % 10 == 0:
            n += 3
        yen = ja_words(n - n % 10) * (n > 10) + _JA_COUNTERS["円"].split()[n % 10 - 1]
        kind = r.randint(0, 2)
        if kind == 0:
            return f"{n:,}円です", yen + "です"
        if kind == 1:
            return f"¥{n:,}です", yen + "です"
        return f"{n}ドルです", ja_words(n) + "どるです"

    def percent(r: random.Random) -> tuple[str, str]:
        n = r.randint(1, 99)
        if n % 10 == 0 and n > 10:
            return f"{n}%", ja_words(n // 10) + "じゅっぱーせんと"
        if n == 10:
            return "10%", "じゅっぱーせんと"
        return f"{n}%", (ja_words(n - n % 10) if n > 10 else "") + _JA_COUNTERS["%"].split()[n % 10 - 1]

    def decimals(r: random.Random) -> tuple[str, str]:
        i, f = r.randint(2, 99), r.randint(1, 9)
        digits = "ぜろ いち に さん よん ご ろく なな はち きゅう".split()
        head = ja_words(i)
        head = re.sub(r"(いち|はち|じゅう)$", lambda m: {"いち": "いっ", "はち": "はっ", "じゅう": "じゅっ"}[m[1]], head)
        return f"{i}.{f}です", f"{head}てん{digits[f]}です"

    def large(r: random.Random) -> tuple[str, str]:
        a, b = r.randint(1, 9999), r.randint(1, 9999)
        kind = r.randint(0, 2)
        if kind == 0:
            return f"{a}万人", ja_words(a * 10000) + "にん"
        if kind == 1:
            return f"{a}億{b}万", ja_words(a * 10**8 + b * 10**4)
        return f"{a * 10000 + b:,}", ja_words(a * 10000 + b)

    def plain(r: random.Random) -> tuple[str, str]:
        n = r.randint(0, 10**7)
        return f"番号は{n}", f"番号は{ja_words(n)}"

    def phone(r: random.Random) -> tuple[str, str]:
        digits = "ぜろ いち に さん よん ご ろく なな はち きゅう".split()
        groups = ["0" + str(r.randint(10, 99)), f"{r.randint(0, 9999):04d}", f"{r.randint(0, 9999):04d}"]
        return "-".join(groups), "の".join("".join(digits[int(d)] for d in g) for g in groups)

    return {"counters": counters, "dates": dates, "times": times, "money": money, "percent": percent,
            "decimals": decimals, "large": large, "plain": plain, "phone": phone}


# ---------------------------------------------------------------- tables ---------------------------------------

def generate(lang: str, seed: int, per_class: int) -> list[Case]:
    """``per_class`` random cases of every class of ``lang``, each in one of a few carrier sentences."""
    r = random.Random(f"{lang}-{seed}")
    gens = ja_generators() if lang == "ja" else latin_generators(lang)
    cases: list[Case] = []
    for name, gen in gens.items():
        seen: set[str] = set()
        tries = 0
        while sum(c[2] == name for c in cases) < per_class and tries < per_class * 20:
            tries += 1
            written, said = gen(r)
            if written in seen:
                continue
            seen.add(written)
            if lang != "ja":
                carrier = r.choice(_CARRIER[lang])
                written, said = carrier.format(written), carrier.format(said)
            cases.append((written, said, name))
    return cases


def write_table(lang: str, name: str, cases: list[Case], folder: Path) -> Path:
    path = folder / f"{lang}-norm-{name}.tsv"
    lines = [f"# {lang} normalization, generated by onestep_dev.eval.norm_case_gen (input<TAB>expected<TAB>class)"]
    lines += [f"{a}\t{b}\t{c}" for a, b, c in cases]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def main(argv: list[str] | None = None) -> int:
    from onestep_dev.eval.frontend_cases import CASES_DIR

    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lang", required=True, choices=("es", "fr", "it", "pt", "hi", "ja"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--per-class", type=int, default=12)
    p.add_argument("--name", default=None, help="table name (default: fresh-<seed>)")
    p.add_argument("--out", type=Path, default=CASES_DIR)
    p.add_argument("--by-class", action="store_true", help="one table per class, named <lang>-norm-<class>.tsv")
    a = p.parse_args(argv)
    cases = generate(a.lang, a.seed, a.per_class)
    if a.by_class:
        for name in dict.fromkeys(c[2] for c in cases):
            print(write_table(a.lang, name, [c for c in cases if c[2] == name], a.out))
    else:
        print(write_table(a.lang, a.name or f"fresh-{a.seed}", cases, a.out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
