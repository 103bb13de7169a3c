"""Scoring normalization on fixed strings: both sides normalized alike, so equivalent forms score 0 errors."""

from __future__ import annotations

import pytest

pytest.importorskip("whisper_normalizer")
pytest.importorskip("opencc")
pytest.importorskip("jiwer")

from onestep_dev.eval.metrics import ErrorCounts, error_counts, total  # noqa: E402
from onestep_dev.eval.textnorm import normalize, scoring_units  # noqa: E402


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hello, World!", "hello world"),
        ("It costs $4.99.", "it costs $4 99"),
        ("It costs four dollars and ninety-nine cents", "it costs $4 99"),
        ("The meeting is at 10:30 a.m.", "the meeting is at 10 30 am"),
        ("The C.I.A. and the FBI", "the cia and the fbi"),
        ("Mr. Smith", "mister smith"),
        ("twenty twenty-one", "2021"),
        ("Our flight leaves at 7.45.", "our flight leaves at 7 45"),
        ("She was born on July 4th, 1990.", "she was born on july 4 1990"),
        ("It weighs 2.5 kg.", "it weighs 2 5 kilograms"),
        ("It weighs 2.5 kilograms.", "it weighs 2 5 kilograms"),
        ("The GPU draws 300 W at 2 GHz.", "the gpu draws 300 watts at 2 gigahertz"),
        ("They said yes on Nov. 8.", "they said yes on november 8"),
        ("I'm in the car.", "i am in the car"),  # a unit word is only expanded after a number
    ],
)
def test_normalize_en(text: str, expected: str) -> None:
    assert normalize(text, "en") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("今天是2024年5月3日。", "今 天 是 二 零 二 四 年 五 月 三 日"),
        ("增长了12%！", "增 长 了 百 分 之 十 二"),
        ("這個軟體很好", "这 个 软 体 很 好"),  # traditional -> simplified
        ("我用iPhone打電話給NASA。", "我 用 iphone 打 电 话 给 nasa"),
        ("只要99.5元", "只 要 九 十 九 点 五 元"),
        ("  ，。！？", ""),
    ],
)
def test_normalize_zh(text: str, expected: str) -> None:
    assert normalize(text, "zh") == expected


def test_unknown_language() -> None:
    with pytest.raises(ValueError, match="'de'"):
        normalize("hallo", "de")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "lang", "expected"),
    [
        ("¿Qué pasó? ¡Nada!", "es", "qué pasó nada"),  # accents kept, inverted marks dropped
        ("Tengo 21 años.", "es", "tengo veintiuno años"),
        ("L'homme, qui était là.", "fr", "l homme qui était là"),
        ("Il a 80 ans", "fr", "il a quatre vingts ans"),  # num2words' hyphens split like the reference's
        ("Sono le 3, è tardi!", "it", "sono le tre è tardi"),
        ("Ele tem 2 filhos.", "pt", "ele tem dois filhos"),  # Brazilian Portuguese numbers
        ("「今日は３つ、ｶﾀｶﾅです。」", "ja", "今 日 は 三 つ カ タ カ ナ で す"),  # width unified, digits as kanji
        ("ＡＢＣの本", "ja", "a b c の 本"),
        ("मैं ठीक हूं। ४२", "hi", "म ै ं ठ ी क ह ू ं 4 2"),  # vowel signs kept, danda dropped, digits ASCII
    ],
)
def test_normalize_new_languages(text: str, lang: str, expected: str) -> None:
    assert normalize(text, lang) == expected  # type: ignore[arg-type]


def test_metric_per_language() -> None:
    from onestep_dev.eval.textnorm import EVAL_LANGS, metric_name

    assert {lang: metric_name(lang) for lang in EVAL_LANGS} == {
        "en": "WER", "zh": "CER", "ja": "CER", "es": "WER", "fr": "WER", "it": "WER", "pt": "WER", "hi": "CER",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("ref", "hyp", "lang", "counts"),
    [
        ("The C.I.A. paid $4.99.", "the CIA paid four dollars and ninety nine cents", "en", ErrorCounts(0, 0, 0, 5)),
        ("The cat sat on the mat.", "the cat sat on a mat", "en", ErrorCounts(1, 0, 0, 6)),
        ("The cat sat.", "the cat", "en", ErrorCounts(0, 1, 0, 3)),
        ("The cat sat.", "", "en", ErrorCounts(0, 3, 0, 3)),
        ("今天是2024年。", "今天是二零二四年", "zh", ErrorCounts(0, 0, 0, 8)),
        ("我用iPhone打电话。", "我用 iphone 打電話", "zh", ErrorCounts(0, 0, 0, 6)),
        ("我们去公园。", "我们去了公园", "zh", ErrorCounts(0, 0, 1, 5)),
        ("我们去公园。", "我门去公园", "zh", ErrorCounts(1, 0, 0, 5)),
        ("", "hello", "en", ErrorCounts(0, 0, 1, 0)),
        ("Tengo dos gatos.", "tengo 2 gatos", "es", ErrorCounts(0, 0, 0, 3)),
        ("Elle est partie.", "Elle est partie hier.", "fr", ErrorCounts(0, 0, 1, 3)),
        ("三つの本です。", "3つの本です", "ja", ErrorCounts(0, 0, 0, 6)),
        ("猫が好きです。", "ねこが好きです", "ja", ErrorCounts(1, 0, 1, 6)),  # kana for a kanji is an error
        ("मैं ठीक हूं।", "मै ठीक हूं", "hi", ErrorCounts(0, 1, 0, 9)),
    ],
)
def test_error_counts(ref: str, hyp: str, lang: str, counts: ErrorCounts) -> None:
    assert error_counts(ref, hyp, lang) == counts  # type: ignore[arg-type]


def test_total_is_corpus_level() -> None:
    summed = total([ErrorCounts(1, 0, 0, 4), ErrorCounts(0, 1, 1, 6)])
    assert summed == ErrorCounts(1, 1, 1, 10)
    assert summed.rate == pytest.approx(0.3)
    assert ErrorCounts(0, 0, 2, 0).rate == 2.0


def test_scoring_units_zh_counts_latin_word_once() -> None:
    assert scoring_units("用Zoom开会", "zh") == ["用", "zoom", "开", "会"]
