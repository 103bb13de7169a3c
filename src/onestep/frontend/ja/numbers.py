"""Japanese number readings in hiragana, with the sound changes counters bring.

``reading(n)`` splits a reading into (prefix, tail): the tail is the last spoken element ("いち".."きゅう",
"じゅう", "ひゃく"/"びゃく"/"ぴゃく", "せん"/"ぜん", "まん", "おく", "ちょう"), which is what a counter's
sound change depends on: 本 after いち/ろく/はち/じゅう/ひゃく makes いっぽん, ろっぽん, はっぽん, じゅっぽん,
ひゃっぽん and after さん/せん/まん さんぼん, せんぼん. :class:`Counter` records those rules per counter;
:func:`count` applies them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DIGITS = ("ぜろ", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう")
_HUNDREDS = {1: "ひゃく", 3: "さんびゃく", 6: "ろっぴゃく", 8: "はっぴゃく"}
_THOUSANDS = {1: "せん", 3: "さんぜん", 8: "はっせん"}
_BIG = ((10**12, "ちょう"), (10**8, "おく"), (10**4, "まん"))
_TAILS = ("ひゃく", "びゃく", "ぴゃく", "じゅう", "せん", "ぜん", "まん", "おく", "ちょう", *DIGITS[1:])

# tails whose last mora becomes a small っ before a k/s/t/p (or h -> p) counter
SOKUON = {"いち": "いっ", "ろく": "ろっ", "はち": "はっ", "じゅう": "じゅっ", "ひゃく": "ひゃっ", "びゃく": "びゃっ",
          "ぴゃく": "ぴゃっ"}
ALL = frozenset(SOKUON)
NO_ROKU = ALL - {"ろく"}  # s- and t-counters: ろくさつ, ろくさい, ろくてん


def _group(g: int, before_man: bool) -> list[str]:
    """1..9999 -> its elements ("さんぜん", "ろっぴゃく", "に", "じゅう", "よん")."""
    out: list[str] = []
    th, rest = divmod(g, 1000)
    h, rest = divmod(rest, 100)
    t, o = divmod(rest, 10)
    if th:
        out.append("いっせん" if th == 1 and before_man else _THOUSANDS.get(th, DIGITS[th] + "せん"))
    if h:
        out.append(_HUNDREDS.get(h, DIGITS[h] + "ひゃく"))
    if t:
        out.append(("" if t == 1 else DIGITS[t]) + "じゅう")
    if o:
        out.append(DIGITS[o])
    return out


def elements(n: int) -> list[str]:
    """n >= 0 -> the spoken elements of its reading, in order; 0 -> ["ぜろ"]."""
    if n == 0:
        return ["ぜろ"]
    out: list[str] = []
    for value, name in _BIG:
        count, n = divmod(n, value)
        if count:
            parts = _group(count, name == "まん")  # いっせんまん (10⁷), but せんおく (10¹¹)
            if name == "ちょう" and parts[-1] in SOKUON and parts[-1] != "ろく":
                parts[-1] = SOKUON[parts[-1]]  # いっちょう, はっちょう, じゅっちょう
            out.extend(parts)
            out.append(name)
    if n:
        out.extend(_group(n, False))
    return out


def split_tail(n: int) -> tuple[str, str]:
    """n -> (prefix, tail) with the tail one of the elements counters react to."""
    text = "".join(elements(n))
    for tail in sorted(_TAILS, key=len, reverse=True):
        if text.endswith(tail):
            return text[: -len(tail)], tail
    return text, ""


def reading(n: int) -> str:
    """n >= 0 -> hiragana: 2024 -> "にせんにじゅうよん", 36000 -> "さんまんろくせん"."""
    return "".join(elements(n))


def digits(ds: str, zero: str = "ぜろ") -> str:
    """A digit string read digit by digit."""
    return "".join(zero if d == "0" else DIGITS[int(d)] for d in ds)


@dataclass(frozen=True)
class Counter:
    """How a counter joins a number.

    Attributes:
        reading: the counter's own reading ("ほん").
        sokuon: tails that turn into a small っ before it (いち -> いっ).
        after_sokuon: the counter's form after a small っ ("ぽん"); default ``reading``.
        alt: tail -> counter form for other sound changes (さん -> "ぼん").
        tail_form: tail -> the tail's own form before this counter (よん -> "よ" before 人, 円, 時).
        whole: n -> the whole reading (1 -> "ひとり", 20 -> "はたち").
    """

    reading: str
    sokuon: frozenset[str] = frozenset()
    after_sokuon: str = ""
    alt: dict[str, str] = field(default_factory=dict)
    tail_form: dict[str, str] = field(default_factory=dict)
    whole: dict[int, str] = field(default_factory=dict)


def count(n: int, c: Counter) -> str:
    """n and a counter -> the reading with its sound changes: (3, 本) -> "さんぼん"."""
    if n in c.whole:
        return c.whole[n]
    prefix, tail = split_tail(n)
    return prefix + join_tail(tail, c)


def join_tail(tail: str, c: Counter) -> str:
    """A number's last element joined to a counter."""
    if tail in c.sokuon:
        return SOKUON[tail] + (c.after_sokuon or c.reading)
    if tail in c.alt:
        return tail + c.alt[tail]
    return c.tail_form.get(tail, tail) + c.reading


_H_VOICED = {"さん": "", "せん": "", "ぜん": "", "まん": ""}


def _h(reading: str, p: str, b: str) -> Counter:
    return Counter(reading, ALL, p, {k: b for k in _H_VOICED})


DAYS = {1: "ついたち", 2: "ふつか", 3: "みっか", 4: "よっか", 5: "いつか", 6: "むいか", 7: "なのか", 8: "ようか",
        9: "ここのか", 10: "とおか", 14: "じゅうよっか", 17: "じゅうしちにち", 19: "じゅうくにち", 20: "はつか",
        24: "にじゅうよっか", 27: "にじゅうしちにち", 29: "にじゅうくにち"}
MONTHS = {1: "いちがつ", 2: "にがつ", 3: "さんがつ", 4: "しがつ", 5: "ごがつ", 6: "ろくがつ", 7: "しちがつ",
          8: "はちがつ", 9: "くがつ", 10: "じゅうがつ", 11: "じゅういちがつ", 12: "じゅうにがつ"}
TSU = {1: "ひとつ", 2: "ふたつ", 3: "みっつ", 4: "よっつ", 5: "いつつ", 6: "むっつ", 7: "ななつ", 8: "やっつ",
       9: "ここのつ", 10: "とお"}


def day_of_month(n: int) -> str:
    """1..31 -> the day's reading (ついたち, ふつか, ... はつか, じゅうしちにち)."""
    return DAYS.get(n) or reading(n) + "にち"


def days(n: int) -> str:
    """A number of days (n日, n日間): 1 -> いちにち, 2..10, 14, 20, 24 -> ふつか.., else reading + にち."""
    if n == 1:
        return "いちにち"
    if n in DAYS and n not in (17, 19, 27, 29):
        return DAYS[n]
    return day_of_month(n) if n < 32 else reading(n) + "にち"


_DEGREE = Counter("ど", whole={0: "れいど"})
COUNTERS: dict[str, Counter] = {
    "本": _h("ほん", "ぽん", "ぼん"), "匹": _h("ひき", "ぴき", "びき"), "杯": _h("はい", "ぱい", "ばい"),
    "分間": Counter("ふんかん", ALL, "ぷんかん", {k: "ぷんかん" for k in ("さん", "よん", "せん", "ぜん", "まん")}),
    "分": Counter("ふん", ALL, "ぷん", {k: "ぷん" for k in ("さん", "よん", "せん", "ぜん", "まん")}),
    "泊": _h("はく", "ぱく", "ぱく"),
    "個": Counter("こ", ALL), "回": Counter("かい", ALL), "階": Counter("かい", ALL, alt={"さん": "がい"}),
    "件": Counter("けん", ALL), "軒": Counter("けん", ALL, alt={"さん": "げん"}),
    "ヶ月": Counter("かげつ", ALL), "か月": Counter("かげつ", ALL), "カ月": Counter("かげつ", ALL),
    "ケ月": Counter("かげつ", ALL), "ヵ月": Counter("かげつ", ALL), "ヶ所": Counter("かしょ", ALL),
    "か所": Counter("かしょ", ALL), "カ所": Counter("かしょ", ALL), "か国": Counter("かこく", ALL),
    "ヶ国": Counter("かこく", ALL), "カ国": Counter("かこく", ALL),
    "冊": Counter("さつ", NO_ROKU), "歳": Counter("さい", NO_ROKU, whole={20: "はたち"}),
    "才": Counter("さい", NO_ROKU, whole={20: "はたち"}), "週間": Counter("しゅうかん", NO_ROKU),
    "点": Counter("てん", NO_ROKU), "頭": Counter("とう", NO_ROKU), "着": Counter("ちゃく", NO_ROKU),
    "通": Counter("つう", NO_ROKU), "足": Counter("そく", NO_ROKU, alt={"さん": "ぞく"}),
    "セント": Counter("セント", NO_ROKU), "ページ": Counter("ページ", ALL - {"いち"}),
    "枚": Counter("まい"), "台": Counter("だい"), "秒": Counter("びょう"), "秒間": Counter("びょうかん"),
    "度": _DEGREE, "倍": Counter("ばい"), "番目": Counter("ばんめ"), "番": Counter("ばん"),
    "号": Counter("ごう"), "名": Counter("めい"), "位": Counter("い"), "社": Counter("しゃ", NO_ROKU),
    "人": Counter("にん", tail_form={"よん": "よ"}, whole={1: "ひとり", 2: "ふたり"}),
    "円": Counter("えん", tail_form={"よん": "よ"}),
    "時間": Counter("じかん", tail_form={"よん": "よ", "きゅう": "く"}),
    "時": Counter("じ", tail_form={"よん": "よ", "なな": "しち", "きゅう": "く"}, whole={0: "れいじ"}),
    "年間": Counter("ねんかん", tail_form={"よん": "よ"}), "年": Counter("ねん", tail_form={"よん": "よ"}),
    "ドル": Counter("ドル"), "ユーロ": Counter("ユーロ"), "ポンド": Counter("ポンド"), "ウォン": Counter("ウォン"),
    "元": Counter("げん"), "ルピー": Counter("ルピー"),
    "%": Counter("パーセント", frozenset({"じゅう"})), "パーセント": Counter("パーセント", frozenset({"じゅう"})),
    "km": Counter("キロメートル"), "m": Counter("メートル"), "cm": Counter("センチメートル"),
    "mm": Counter("ミリメートル"), "kg": Counter("キログラム"), "g": Counter("グラム"), "mg": Counter("ミリグラム"),
    "L": Counter("リットル"), "l": Counter("リットル"), "ml": Counter("ミリリットル"), "mL": Counter("ミリリットル"),
    "℃": _DEGREE, "°C": _DEGREE, "°": _DEGREE, "GB": Counter("ギガバイト"),
    "MB": Counter("メガバイト"), "TB": Counter("テラバイト"), "km²": Counter("平方キロメートル"),
    "m²": Counter("平方メートル"),
}
