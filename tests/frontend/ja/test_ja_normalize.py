"""Japanese normalizer: readings per class (hiragana output, exact), the katakana default, and the number
reader against num2words' Japanese reading."""

import random

import pytest
from num2words import num2words

from onestep_dev.eval.norm_case_gen import ja_words
from onestep.frontend.ja.normalize import katakana, normalize_ja
from onestep.frontend.ja.numbers import reading

CASES = [
    # dates: the special day readings
    ("2024年12月6日", "にせんにじゅうよねんじゅうにがつむいか"),
    ("4月1日と8月20日", "しがつついたちとはちがつはつか"),
    ("9月14日", "くがつじゅうよっか"),
    ("2024/1/2", "にせんにじゅうよねんいちがつふつか"),
    # times
    ("14時30分", "じゅうよじさんじゅっぷん"),
    ("7時3分と0:05", "しちじさんぷんとれいじごふん"),
    # counters with sound changes
    ("3本、6本、10本、300本", "さんぼん、ろっぽん、じゅっぽん、さんびゃっぽん"),
    ("1匹と8杯", "いっぴきとはっぱい"),
    ("1人、2人、4人、11人", "ひとり、ふたり、よにん、じゅういちにん"),
    ("20歳と8歳", "はたちとはっさい"),
    ("6個、3階、1回、8冊、1週間、3ヶ月", "ろっこ、さんがい、いっかい、はっさつ、いっしゅうかん、さんかげつ"),
    ("3日間と4つ", "みっかかんとよっつ"),
    # money, percent, decimals, large numbers
    ("1,980円と4円", "せんきゅうひゃくはちじゅうえんとよえん"),
    ("¥500と$3.50", "ごひゃくえんとさんドルごじゅっセント"),
    ("10%と3.5%", "じゅっパーセントとさんてんごパーセント"),
    ("1億2000万人", "いちおくにせんまんにん"),
    ("1.5倍", "いってんごばい"),
    ("気温は-3℃", "気温はマイナスさんど"),
    # phone, plain, full-width digits, sentence punctuation kept
    ("03-1234-5678", "ぜろさんのいちにさんよんのごろくななはち"),
    ("「１２３」です。", "「ひゃくにじゅうさん」です。"),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_reading(text: str, expected: str) -> None:
    assert normalize_ja(text, script="hiragana") == expected


def test_katakana_by_default_with_long_vowels() -> None:
    assert normalize_ja("8月8日は15度。") == "ハチガツヨーカはジューゴド。"
    assert katakana("じゅうよっか") == "ジューヨッカ"


def test_bad_script_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="script"):
        normalize_ja("1", script="romaji")


def test_reader_agrees_with_num2words_reading() -> None:
    """The case-table oracle reads each 4-digit group with num2words (``reading=True``); a 万 group of 1000..1999
    says いっせん there (いっせんまん), the one place it departs from num2words."""
    r = random.Random(6)
    for n in [*range(1, 10000), *(r.randrange(10**12) for _ in range(2000))]:
        assert reading(n) == ja_words(n), n
    assert ja_words(5000) == num2words(5000, lang="ja", reading=True)
