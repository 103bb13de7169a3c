"""The learned polyphone model (g2pM's BiLSTM as ONNX) and how the Mandarin G2P combines it with its dictionaries."""

from __future__ import annotations

import math

import pytest
from pypinyin import Style, lazy_pinyin

from onestep.frontend.zh.g2p import RULE_CHARS, MandarinG2P
from onestep.frontend.zh.polyphone import PolyphoneModel, shared_model


@pytest.fixture(scope="module")
def model() -> PolyphoneModel:
    return shared_model()


@pytest.fixture(scope="module")
def g2p() -> MandarinG2P:
    return MandarinG2P()


def citation(g2p: MandarinG2P, text: str, char: str) -> str:
    reading = g2p.char_readings(text)[text.index(char)]
    assert reading is not None
    return reading[1]


def test_predictions_are_candidates_with_a_distribution(model: PolyphoneModel) -> None:
    text = "他在银行工作，行长骑车出行。"
    positions = [i for i, c in enumerate(text) if model.is_polyphone(c)]
    assert positions, "行 and 长 are polyphones the model knows"
    for p, guess in zip(positions, model.predict(text, positions)):
        assert guess.reading in model.candidates(text[p])
        assert set(guess.probabilities) == set(model.candidates(text[p]))
        assert math.isclose(sum(guess.probabilities.values()), 1.0, rel_tol=1e-5)
        assert guess.probability == max(guess.probabilities.values())


def test_unknown_and_plain_characters(model: PolyphoneModel) -> None:
    assert not model.is_polyphone("我")  # one reading
    assert model.candidates("我") == ()
    assert model.predict("我们", []) == []
    # characters outside the model's vocabulary share the unknown id instead of failing
    text = "𠀀率军出征"
    assert model.predict(text, [text.index("率")])[0].reading in model.candidates("率")


@pytest.mark.parametrize(
    ("text", "char", "dictionary", "expected"),
    [
        ("赵奢率军救援。", "率", "lv4", "shuai4"),  # 率 lead (an army), not the rate
        ("伊拉克的穆斯林属于什叶派。", "什", "shen2", "shi2"),
        ("这场战争对于尼泊尔来说损失惨重。", "泊", "po1", "bo2"),
    ],
)
def test_model_settles_what_no_phrase_covers(
    g2p: MandarinG2P, text: str, char: str, dictionary: str, expected: str
) -> None:
    assert lazy_pinyin(char, style=Style.TONE3)[0] == dictionary  # what the dictionary path alone would say
    assert citation(g2p, text, char) == expected


def test_phrase_readings_stand(g2p: MandarinG2P) -> None:
    # g2pM reads 了解 as le5 jie3 and 着急 as zhe5 ji2 on its own; the phrase dictionary settles them
    assert citation(g2p, "我不太了解他。", "了") == "liao3"
    assert citation(g2p, "你别着急。", "着") == "zhao2"


def test_rule_characters_are_left_to_the_rules(g2p: MandarinG2P) -> None:
    assert set("的了着地得为") <= RULE_CHARS
    readings = g2p.char_readings("他慢慢地走过来。")
    assert readings[3] is not None and readings[3][2] == "de5"  # the model alone says di4


def test_user_lexicon_wins_over_the_model() -> None:
    g2p = MandarinG2P({"率军": ["lv4", "jun1"]})
    assert citation(g2p, "赵奢率军救援。", "率") == "lv4"


def test_char_readings_align_with_text(g2p: MandarinG2P) -> None:
    text = "A4纸，3个。好"
    readings = g2p.char_readings(text)
    assert len(readings) == len(text)
    assert [r is not None for r in readings] == [c in "纸个好" for c in text]
    assert readings[text.index("好")] == ("好", "hao3", "hao3")


@pytest.mark.parametrize(
    ("text", "char", "expected"),
    [
        ("汤姆昨天没穿牛仔裤。", "没", "mei2"),  # a frequent one-character word keeps its everyday reading (g2pM: mo4)
        ("除了星期天我每一天都工作。", "都", "dou1"),  # g2pM: du1
        ("净资产收益率是重要的财务指标。", "率", "lv4"),  # a jieba word: the model is not sure enough (shuai4)
        ("作品的标题隐藏着重要的秘密。", "藏", "cang2"),  # g2pM: zang4
        ("朝鲜目前的执政党为朝鲜劳动党。", "鲜", "xian3"),  # ... but it is where it is right and certain
    ],
)
def test_everyday_readings_are_guarded(g2p: MandarinG2P, text: str, char: str, expected: str) -> None:
    assert citation(g2p, text, char) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("它的履带可以被拆下来。", "ta1 de5 lv3 dai4 ke2 yi3 bei4 chai1 xia5 lai5"),
        ("冷静下来！", "leng3 jing4 xia5 lai5"),
        ("快进来坐吧！", "kuai4 jin4 lai5 zuo4 ba5"),
        ("它们受到栖息地退化的威胁。", "ta1 men5 shou4 dao4 qi1 xi1 di4 tui4 hua4 de5 wei1 xie2"),
    ],
)
def test_directional_complements_and_place_nouns(g2p: MandarinG2P, text: str, expected: str) -> None:
    assert " ".join(p for t in g2p(text) for p in t.pinyin) == expected
