"""The pipeline with the built-in Mandarin and English tools (skipped until they are importable)."""

from __future__ import annotations

import pytest
import regex

from onestep.frontend.chunk import count_ids
from onestep.frontend.pipeline import Frontend
from onestep.frontend.symbols import unknown_symbols
from onestep.frontend.tokens import Utterance

_PINYIN = regex.compile(r"[a-z]+[1-5]")


def _check_invariants(utt: Utterance) -> None:
    assert not unknown_symbols(utt.phonemes)
    for seg in utt.segments:
        assert seg.phonemes
        if seg.lang == "zh":
            assert len(seg.pinyin) == len(regex.findall(r"\p{Han}", seg.text))
            assert all(_PINYIN.fullmatch(p) for p in seg.pinyin)
        else:
            assert seg.pinyin == []
            assert seg.lang == "ja" or not regex.search(r"\p{Han}", seg.text)  # Japanese reads Han itself


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("请打开API接口", [("zh", "请打开"), ("en", "A P I"), ("zh", "接口")]),
        ("PLC控制器", [("en", "P L C"), ("zh", "控制器")]),
        ("我用iPhone 15拍的", [("zh", "我用"), ("en", "iPhone"), ("zh", "十五拍的")]),
        ("I love 北京 food", [("en", "I love"), ("zh", "北京"), ("en", "food")]),
        ("他在IBM工作。", [("zh", "他在"), ("en", "I B M"), ("zh", "工作。")]),
        ("hello, world! 世界你好。", [("en", "hello, world!"), ("zh", "世界你好。")]),
        ("I have 2 cats.", [("en", "I have two cats.")]),
        ("车库里有3辆车", [("zh", "车库里有三辆车")]),
    ],
)
def test_mixed_text(real_frontend: Frontend, text: str, expected: list[tuple[str, str]]) -> None:
    utt = real_frontend.phonemize(text)
    assert [(s.lang, s.text) for s in utt.segments] == expected
    _check_invariants(utt)


def test_pinyin_has_surface_tones(real_frontend: Frontend) -> None:
    utt = real_frontend.phonemize("你好")
    assert utt.segments[0].pinyin == ["ni2", "hao3"]  # third-tone sandhi


@pytest.mark.parametrize(
    "text",
    ["", "   ", "。！", "😀", "Привет", "\x00\x07", "안녕하세요 hello", "東京へ行く", "★★★", "a" * 700, "1" * 300,
     "e\u0301", "ＡＰＩ", "\u200b", "<b>bold</b> & more", "#tag @user", "--- *** ___"],
)
def test_bad_input_never_crashes(real_frontend: Frontend, text: str) -> None:
    utt = real_frontend.phonemize(text)
    _check_invariants(utt)
    for piece in real_frontend.sentences(text):
        assert 0 < count_ids(piece.phonemes) <= 510


def test_lexicon_overrides_with_real_tools(real_frontend: Frontend) -> None:
    fe = Frontend(
        lexicon={"银行": "yin2 xing2", "PLC": "plick", "OneStep": "w ʌ n s t ɛ p", "GitHub": "git hub"}
    )
    zh = fe.phonemize("银行")
    assert zh.segments[0].pinyin == ["yin2", "xing2"]
    assert fe.phonemize("PLC控制器").segments[0].text == "plick"
    assert "wʌnstɛp" in fe.phonemize("我用OneStep合成").phonemes
    assert fe.phonemize("see github").phonemes == fe.phonemize("see git hub").phonemes
    assert real_frontend.phonemize("银行").segments[0].pinyin == ["yin2", "hang2"]


@pytest.mark.parametrize("max_ids", [30, 120, 510])
def test_chunking_with_real_tools(real_frontend: Frontend, max_ids: int) -> None:
    text = (
        "今天天气很好，我们去公园散步，然后在湖边喝茶聊天，一直到太阳下山才回家。" * 6
        + "The quick brown fox, which was very quick indeed, jumped over the lazy dog again and again. " * 6
        + "请打开API接口，然后用iPhone拍照，再上传到GitHub。" * 4
    )
    chunks = list(real_frontend.sentences(text, max_ids=max_ids))
    assert all(0 < count_ids(c.phonemes) <= max_ids for c in chunks)
    words = [t.text for c in chunks for s in c.segments for t in s.tokens]
    whole = real_frontend.phonemize(text)
    assert words == [t.text for s in whole.segments for t in s.tokens]


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        # a sentence of digits and symbols alone is read in the language of the text around it
        ("步骤如下：1. 打开设置。2. 点击登录。", None, [("zh", "步骤如下：一."), ("zh", "打开设置。"), ("zh", "二."), ("zh", "点击登录。")]),
        ("会议时间：\n14:30\n地点：三楼", None, [("zh", "会议时间："), ("zh", "十四点三十分"), ("zh", "地点：三楼")]),
        ("14:30\n会议开始", None, [("zh", "十四点三十分"), ("zh", "会议开始")]),  # the first letters come later
        ("Step 1. Open it. 2. Close it.", "zh", [("en", "Step one."), ("en", "Open it."), ("en", "two."), ("en", "Close it.")]),
        # no letters anywhere: the caller's (the voice's) language, else English
        ("3+5=8", "zh", [("zh", "三加五等于八")]),
        ("3+5=8", None, [("en", "three plus five equals eight")]),
        ("3+5=8", "en", [("en", "three plus five equals eight")]),
    ],
)
def test_digits_alone_follow_the_language_around_them(
    real_frontend: Frontend, text: str, language: str | None, expected: list[tuple[str, str]]
) -> None:
    got = [(s.lang, s.text) for u in real_frontend.sentences(text, language=language) for s in u.segments]
    assert got == expected
    runs = [lang for i, (lang, _) in enumerate(expected) if i == 0 or expected[i - 1][0] != lang]
    assert [s.lang for s in real_frontend.phonemize(text, language).segments] == runs  # one text, same rule
