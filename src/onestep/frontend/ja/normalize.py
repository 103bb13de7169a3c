"""Japanese text normalization: Arabic and full-width digits with their counters rewritten as the hiragana a
Japanese speaker says, so that OpenJTalk reads them right.

``normalize_ja("2024年12月6日、14時30分に3本買った。")`` -> ``"にせんにじゅうよねんじゅうにがつむいか、
じゅうよじさんじゅっぷんにさんぼんかった。"`` (only the digits and their counters change: "買った" stays).

Spans (:mod:`onestep.frontend.norm_common` rules, in this order): phone numbers (read digit by digit, groups
joined by の), dates (y/m/d), clock times (14:30), money with a symbol before it (¥, $, €), ranges (3〜5人),
numbers with a counter or unit (本, 匹, 杯, 個, 回, 人, 歳, 円, 枚, 台, 冊, 階, 件, 分, 秒, 時, 時間, 日, 日間,
週間, ヶ月, 月, 年, つ, %, ドル, ユーロ, km, kg, ℃ ...; :data:`onestep.frontend.ja.numbers.COUNTERS`) and plain
numbers; 万, 億, 兆 and 千 written after digits are read with them (1億2000万円 -> いちおくにせんまんえん).
Number readings are our own (:mod:`onestep.frontend.ja.numbers`; they agree with num2words' ``lang="ja",
reading=True`` except that 10⁷ is いっせんまん), with the counters' sound changes (さんぼん, ろっぴゃく,
じゅっぷん, よにん, はたち). Loanword units come out in katakana (キロメートル); punctuation 。、！？「」 stays.
"""

from __future__ import annotations

import regex

from onestep.frontend.ja.numbers import COUNTERS, MONTHS, SOKUON, Counter, count, day_of_month, days, digits, \
    join_tail, reading, split_tail, TSU
from onestep.frontend.norm_common import SpanRule, apply_rules, clean

_FULLWIDTH = str.maketrans("０１２３４５６７８９％＄￥，．：～－", "0123456789%$¥,.:〜-")
_INT = r"\d{1,3}(?:,\d{3})+(?!\d)|\d+"
# one number: digit groups each closed by 兆/億/万/千 but the last; atomic, so that a failed match never retries
# other ways of cutting a digit run (which would be exponential)
_NUM = rf"(?>(?:(?:{_INT})(?:\.\d+)?[兆億万千])*(?:{_INT})(?:\.\d+)?[兆億万千]?)"
_START = r"(?<![\d兆億万千])"  # never start inside a number (else every start re-scans the rest: quadratic)
_BIG = {"兆": 10**12, "億": 10**8, "万": 10**4, "千": 1000, "": 1}
_BIG_READING = {"兆": "ちょう", "億": "おく", "万": "まん", "千": "せん"}
_POINT = Counter("てん", frozenset({"いち", "はち", "じゅう", "ひゃく", "びゃく", "ぴゃく"}))
_SPECIAL = ("日間", "日", "月", "つ")
_COUNTER_ALT = "|".join(regex.escape(c) for c in sorted([*COUNTERS, *_SPECIAL], key=len, reverse=True))


def _segments(written: str) -> list[tuple[str, str]]:
    return [(n.replace(",", ""), b) for n, b in regex.findall(rf"((?:{_INT})(?:\.\d+)?)([兆億万千]?)", written)]


def _value(written: str) -> int | None:
    """An integer written with digits and 兆/億/万/千 (1億2000万 -> 120000000); None for decimals or odd orders."""
    total, last = 0, 10**16
    for num, big in _segments(written):
        if "." in num or _BIG[big] >= last or len(num) > 12:
            return None
        total += int(num) * _BIG[big]
        last = _BIG[big]
    return total


def _decimal(num: str, c: Counter | None) -> str:
    """"3.14" -> さんてんいちよん (+ counter on the last digit)."""
    whole, _, frac = num.partition(".")
    prefix, tail = split_tail(int(whole))
    head = prefix + join_tail(tail, _POINT) if int(whole) else "れいてん"
    last = digits(frac[-1]) if c is None else join_tail(digits(frac[-1]), c)
    return head + digits(frac[:-1]) + last


def say(written: str, c: Counter | None = None) -> str:
    """A written number (digits, optional decimals and 兆億万千) with an optional counter -> hiragana."""
    plain = written.replace(",", "")
    if plain.isdigit() and (len(plain) > 16 or (len(plain) > 1 and plain[0] == "0")):
        return digits(plain) + (c.reading if c else "")  # a code, or too long to read as a number
    value = _value(written)
    if value is not None and value < 10**16:
        return count(value, c) if c else reading(value)
    segs = _segments(written)
    out = []
    for i, (num, big) in enumerate(segs):
        last = i == len(segs) - 1
        if big:
            out.append((_decimal(num, None) if "." in num else reading(int(num))) + _BIG_READING[big])
            if last and c:
                out.append(c.reading)
        else:
            out.append(_decimal(num, c if last else None) if "." in num else say(num, c if last else None))
    return "".join(out)


def _counted(written: str, counter: str, before: str) -> str:
    """A number and the counter written after it; ``before`` = the text just before (for 月 … 日)."""
    value = _value(written)
    if counter == "日":
        if value is not None and 1 <= value <= 31:
            return day_of_month(value) if before.endswith("月") or value != 1 else days(value)
        return say(written) + "にち"
    if counter == "日間":
        return (days(value) if value is not None and value < 32 else say(written) + "にち") + "かん"
    if counter == "月":
        return MONTHS[value] if value is not None and 1 <= value <= 12 else say(written) + "がつ"
    if counter == "つ":
        return TSU[value] if value in TSU else say(written) + "つ"
    return say(written, COUNTERS[counter])


def _num(m: regex.Match[str]) -> str:
    sign = "マイナス" if m["sign"] else ""
    if m["c"]:
        return sign + _counted(m["n"], m["c"], m.string[: m.start()])
    return sign + say(m["n"])


def _range(m: regex.Match[str]) -> str:
    tail = _counted(m["b"], m["c"], "") if m["c"] else say(m["b"])
    return f"{say(m['a'])}から{tail}"


def _date(m: regex.Match[str]) -> str | None:
    y, mo, d = int(m["y"]), int(m["m"]), int(m["d"])
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    return count(y, COUNTERS["年"]) + MONTHS[mo] + day_of_month(d)


def _time(m: regex.Match[str]) -> str:
    h, mi = int(m["h"]), int(m["m"])
    out = count(h, COUNTERS["時"]) + (count(mi, COUNTERS["分"]) if mi else "")
    if m["s"]:
        out += count(int(m["s"]), COUNTERS["秒"])
    return out


def _phone(m: regex.Match[str]) -> str:
    return "の".join(digits(g) for g in regex.findall(r"\d+", m[0]))


_MONEY_PREFIX = {"¥": ("円", None), "$": ("ドル", "セント"), "US$": ("ドル", "セント"), "€": ("ユーロ", "セント"),
                 "£": ("ポンド", "ペンス")}


def _money(m: regex.Match[str]) -> str:
    unit, cent = _MONEY_PREFIX[m["cur"]]
    num = m["n"]
    whole, _, frac = num.partition(".")
    if frac and cent and len(frac) == 2 and not regex.search(r"[兆億万千]", num):
        out = say(whole, COUNTERS[unit]) if int(whole.replace(",", "")) else ""
        cents = int(frac)
        return out + (say(str(cents), COUNTERS.get(cent, Counter(cent.lower()))) if cents else "")
    return say(num, COUNTERS[unit])


def _rule(name: str, pattern: str, fn) -> SpanRule:  # type: ignore[no-untyped-def]
    return SpanRule(name, regex.compile(pattern, regex.VERSION1), fn)


RULES: tuple[SpanRule, ...] = (
    _rule("phone", r"(?<![\d.,])0\d{1,4}-\d{1,4}-\d{3,4}(?![\d-])", _phone),
    _rule("date", r"(?<![\d.,/])(?P<y>\d{4})[/.-](?P<m>\d{1,2})[/.-](?P<d>\d{1,2})(?![\d/])", _date),
    _rule("time", r"(?<![\d:.,])(?P<h>[01]?\d|2[0-4]):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?(?![\d:])", _time),
    _rule("money", rf"(?P<cur>US\$|[¥$€£])\s?(?P<n>{_NUM})", _money),
    _rule("range", rf"(?<![.,]){_START}(?P<a>{_NUM})\s?[〜~-]\s?(?P<b>{_NUM})\s?(?P<c>{_COUNTER_ALT})?", _range),
    _rule("number", rf"(?P<sign>(?<![\d\p{{Latin}}])[-−])?{_START}(?P<n>{_NUM})\s?(?P<c>{_COUNTER_ALT})?", _num),
)


_O_COLUMN = "おこごそぞとどのほぼぽもよょろを"
_U_COLUMN = "うくぐすずつづぬふぶぷむゆゅる"
_LONG = regex.compile(rf"(?<=[{_O_COLUMN}])[うお]|(?<=[{_U_COLUMN}])う")


def katakana(hiragana: str) -> str:
    """Hiragana -> katakana with long vowels written ー as OpenJTalk reads them (じゅう -> ジュー, ようか -> ヨーカ)."""
    return "".join(chr(ord(ch) + 0x60) if "ぁ" <= ch <= "ゖ" else ch for ch in _LONG.sub("ー", hiragana))


def _in_katakana(r: SpanRule) -> SpanRule:
    def verbalize(m: regex.Match[str]) -> str | None:
        words = r.verbalize(m)
        return None if words is None else katakana(words)

    return SpanRule(r.name, r.pattern, verbalize)


KATAKANA_RULES: tuple[SpanRule, ...] = tuple(map(_in_katakana, RULES))


def normalize_ja(text: str, script: str = "katakana") -> str:
    """Japanese text -> the same text with its numbers (and the counters after them) in kana.

    Args:
        text: raw Japanese text, any length; full-width digits and ％＄￥ are read like ASCII ones.
        script: ``"katakana"`` (default: OpenJTalk reads katakana literally, while a hiragana reading can be
            parsed as words, e.g. the は of はちがつ or はたち read as the particle わ) or ``"hiragana"``.
    Returns:
        the text with every number span replaced; everything else (kana, kanji, punctuation) unchanged.
    """
    if script not in ("katakana", "hiragana"):
        raise ValueError(f"script must be 'katakana' or 'hiragana', got {script!r}")
    rules = KATAKANA_RULES if script == "katakana" else RULES
    return apply_rules(clean(text).translate(_FULLWIDTH), rules, spaced=False)[0]


__all__ = ["normalize_ja", "katakana", "say", "RULES", "SOKUON"]
