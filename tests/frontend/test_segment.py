"""Sentence splitting, long-sentence caps, script runs and character cleaning."""

from __future__ import annotations

import pytest

from onestep.frontend.script import clean, has_han
from onestep.frontend.segment import split_script_runs, split_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("你好。我很好！", ["你好。", "我很好！"]),
        ("Hello there. How are you? Fine!", ["Hello there.", "How are you?", "Fine!"]),
        ("他说：“好的。”然后走了", ["他说：“好的。”", "然后走了"]),
        ("Mr. Smith met Dr. Jones.", ["Mr. Smith met Dr. Jones."]),
        ("J. K. Rowling lives in the U.S. now.", ["J. K. Rowling lives in the U.S. now."]),
        ("Pi is 3.14 today.", ["Pi is 3.14 today."]),
        ("line one\nline two", ["line one", "line two"]),
        ("真的吗？？是的!!", ["真的吗？？", "是的!!"]),
        ("Wait... what?", ["Wait...", "what?"]),
        ("第一句.第二句", ["第一句.", "第二句"]),
        ("  \n\n  ", []),
        ("", []),
        ("no end mark", ["no end mark"]),
        ("See example.com/page?id=5 now", ["See example.com/page?id=5 now"]),  # ? inside a URL ends nothing
        ("\"Go!\", she said.", ["\"Go!\", she said."]),
        ("好吗?我去", ["好吗?", "我去"]),
        ("Expect 2-4 in. of snow. Roads ice over.", ["Expect 2-4 in. of snow.", "Roads ice over."]),
        ("Add 3 oz. of cheese.", ["Add 3 oz. of cheese."]),
        ("It snowed 14 in. in Boston.", ["It snowed 14 in. in Boston."]),
        ("We walked 5 km. Then we rested.", ["We walked 5 km.", "Then we rested."]),  # capital after: a new one
        ("He won in 2019. he said so", ["He won in 2019.", "he said so"]),  # a number alone is no abbreviation
    ],
)
def test_split_sentences(text: str, expected: list[str]) -> None:
    assert list(split_sentences(text)) == expected


def test_split_sentences_is_lazy() -> None:
    gen = split_sentences("你好。" * 300_000)
    assert next(gen) == "你好。"


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        ("aaa, bbb, ccc", 9, ["aaa, bbb,", "ccc"]),
        ("one two three four", 10, ["one two", "three four"]),
        ("中" * 25, 10, ["中" * 10, "中" * 10, "中" * 5]),
        ("ab cdefghijkl", 8, ["ab", "cdefghij", "kl"]),
        ("中中中abcdef", 5, ["中中中", "abcde", "f"]),
    ],
)
def test_long_sentences_are_capped(text: str, limit: int, expected: list[str]) -> None:
    pieces = list(split_sentences(text, max_chars=limit))
    assert pieces == expected
    assert all(len(p) <= limit for p in pieces)


def test_cap_never_cuts_words_when_spaces_exist() -> None:
    words = [f"word{i}" for i in range(400)]
    pieces = list(split_sentences(" ".join(words), max_chars=50))
    assert [w for p in pieces for w in p.split()] == words


def test_split_sentences_rejects_bad_limit() -> None:
    with pytest.raises(ValueError, match="max_chars"):
        list(split_sentences("abc", max_chars=0))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("请打开API接口。", [("zh", "请打开"), ("en", "API"), ("zh", "接口。")]),
        ("PLC，控制器", [("en", "PLC，"), ("zh", "控制器")]),
        ("I love 北京 food.", [("en", "I love"), ("zh", "北京"), ("en", "food.")]),
        ("“我用iPhone 十五拍的”", [("zh", "“我用"), ("en", "iPhone"), ("zh", "十五拍的”")]),
        ("你 好 世 界", [("zh", "你好世界")]),
        ("你好★世界", [("zh", "你好世界")]),
        ("café au lait", [("en", "café au lait")]),
        ("5G网络", [("en", "5G"), ("zh", "网络")]),
        ("……", []),
        ("", []),
    ],
)
def test_split_script_runs(text: str, expected: list[tuple[str, str]]) -> None:
    assert split_script_runs(text) == expected


@pytest.mark.parametrize(
    ("text", "expected", "skipped"),
    [
        ("hello\tworld\x00!", "hello world !", {}),
        ("a\u200bb\ufeffc\u00add", "abcd", {}),
        ("I ❤️ you 😀👍🏽", "I  you ", {}),
        ("ＡＰＩ１２３", "API123", {}),
        ("你好\u3000世界", "你好 世界", {}),
        ("Привет, world", " , world", {"CYRILLIC": 6}),
        ("안녕 世界", "  世界", {"HANGUL": 2}),  # kana is read since Japanese joined: Hangul is not
        ("안녕 hi", "  hi", {"HANGUL": 2}),
        ("مرحبا", " ", {"ARABIC": 5}),
        ("e\u0301t\u00e9", "\u00e9t\u00e9", {}),
    ],
)
def test_clean(text: str, expected: str, skipped: dict[str, int]) -> None:
    cleaned, removed = clean(text)
    assert cleaned == expected
    assert dict(removed) == skipped


@pytest.mark.parametrize(("text", "han"), [("abc", False), ("中a", True), ("，。!?", False), ("〇", True)])
def test_has_han(text: str, han: bool) -> None:
    assert has_han(text) is han
