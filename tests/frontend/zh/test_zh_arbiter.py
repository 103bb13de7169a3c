"""The polyphone arbiter: its choices inside the Mandarin G2P, its data files and the fit that makes them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from onestep.frontend.zh.arbiter import (
    FEATURES,
    PolyphoneArbiter,
    Query,
    context_keys,
    format_counts,
    may_replace,
    parse_counts,
    shared_arbiter,
    support,
)
from onestep.frontend.zh.g2p import MandarinG2P
from onestep.frontend.zh.polyphone import shared_model


@pytest.fixture(scope="module")
def g2p() -> MandarinG2P:
    return MandarinG2P()


def reading(g2p: MandarinG2P, text: str, char: str) -> tuple[str, str, str]:
    found = g2p.char_readings(text)[text.index(char)]
    assert found is not None
    return found


@pytest.mark.parametrize(
    ("text", "char", "model_says", "expected"),
    [
        ("她在公司当会计。", "会", "hui4", "kuai4"),
        ("你有空吗？", "空", "kong1", "kong4"),
        ("我们去公园种树。", "种", "zhong3", "zhong4"),
    ],
)
def test_everyday_phrases_keep_their_reading_against_a_sure_model(
    g2p: MandarinG2P, text: str, char: str, model_says: str, expected: str
) -> None:
    guess = shared_model().predict(text, [text.index(char)])[0]
    assert guess.reading == model_says and guess.probability > 0.99  # g2pM alone is sure and wrong here
    assert reading(g2p, text, char)[1] == expected


def test_a_phrase_with_two_readings_keeps_the_everyday_one(g2p: MandarinG2P) -> None:
    # CC-CEDICT's copy keeps 便宜 bian4 yi2 and 朝阳 chao2 yang2; pypinyin's everyday readings stand
    assert reading(g2p, "这里的东西很便宜。", "便")[1] == "pian2"
    assert reading(g2p, "朝阳", "朝")[1] == "zhao1"
    assert reading(g2p, "北京市朝阳区位于城市的东部。", "朝")[1] == "chao2"  # the district, a longer phrase


@pytest.mark.parametrize(
    ("text", "char", "expected"),
    [
        ("这条河的自然落差达到两百米，水能资源十分丰富。", "差", "cha1"),  # pypinyin: cha4
        ("北爱尔兰的士兵穿着绿色的夹克走在街上。", "夹", "jia1"),  # pypinyin: jia2
        ("工厂用塑料薄膜覆盖整个温室大棚。", "薄", "bo2"),  # pypinyin: bao2
    ],
)
def test_phrase_errors_are_corrected_where_cedict_and_the_model_agree(
    g2p: MandarinG2P, text: str, char: str, expected: str
) -> None:
    assert reading(g2p, text, char)[1] == expected


def test_a_neutral_phrase_reading_stays_spoken(g2p: MandarinG2P) -> None:
    got = [r for r in g2p.char_readings("我去姥姥家。") if r is not None]
    assert [r[2] for r in got] == ["wo3", "qu4", "lao3", "lao5", "jia1"]  # spoken: 姥姥 lao3 lao5
    assert got[3][1] == "lao3"  # its citation is the lexical tone


def test_user_lexicon_wins_over_the_arbiter() -> None:
    g2p = MandarinG2P({"会计": ["hui4", "ji4"]})
    assert reading(g2p, "她在公司当会计。", "会")[1] == "hui4"


def test_feature_rows_and_dev_count_exclusion() -> None:
    arbiter = shared_arbiter()
    text = "这条河的自然落差达到两百米。"
    query = Query(text, text.index("差"), "落差", 1, "covered", "cha4")
    candidates = shared_model().candidates("差")
    probabilities = {c: 1 / len(candidates) for c in candidates}
    rows = arbiter.features(query, candidates, probabilities)
    assert len(rows) == len(candidates) and all(len(r) == len(FEATURES) for r in rows)
    cedict = FEATURES.index("cedict_longest")
    assert [r[cedict] for r in rows] == [float(c == "cha1") for c in candidates]  # CC-CEDICT: luo4 cha1
    share = FEATURES.index("dev_char_share")
    without = arbiter.features(query, candidates, probabilities, exclude="cha1")
    i = candidates.index("cha1")
    assert without[i][share] < rows[i][share]  # CPP dev has 差 cha1; leaving one out lowers its share


def test_context_keys_stop_at_the_text_edges() -> None:
    keys = context_keys(Query("行长", 0, "行长", 0, "covered", "hang2"))
    assert keys[0] is None and keys[1] == "n1行长"  # no character before; the bigram after
    assert keys[-1] == "n5行长|0"
    assert context_keys(Query("行", 0, "行", 0, "single", "xing2"))[-1] is None  # a one-character word
    assert parse_counts(format_counts({"hang2": 3, "xing2": 0, "heng2": 1})) == {"hang2": 3, "heng2": 1}


def test_support_levels() -> None:
    row = [0.0] * len(FEATURES)
    assert support(row) == 0
    row[FEATURES.index("cedict_longest")] = 1.0
    assert support(row) == 1
    assert may_replace("covered", "cha1", "cha4", 1, model_top=True)
    assert not may_replace("covered", "cha1", "cha4", 1, model_top=False)
    assert not may_replace("covered", "cha1", "cha4", 0, model_top=True)
    assert may_replace("single", "cha1", "cha4", 0, model_top=False)  # outside phrases anything may win
    row[FEATURES.index("dev_word_log_count")] = float(np.log1p(1))
    assert support(row) == 1  # one dev sentence is not enough
    row[FEATURES.index("dev_word_log_count")] = float(np.log1p(2))
    assert support(row) == 2


def test_fit_and_files_round_trip(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from onestep_dev.train.polyphone_arbiter import choices_right, fit, write_context

    # a toy problem: the right candidate is the one with the larger first feature
    rng = np.random.default_rng(0)
    rows, labels = [], []
    for _ in range(200):
        x = rng.normal(size=(2, 3))
        rows.append(x)
        labels.append(np.array([float(x[0, 0] > x[1, 0]), float(x[0, 0] <= x[1, 0])]))
    w, b = fit(rows, labels, c=1.0)
    assert w[0] > 0 and abs(w[0]) > 5 * max(abs(w[1]), abs(w[2]))
    assert choices_right(rows, labels, w, b) >= 185  # the argmax follows the first feature but for near ties

    # the trie as the trainer writes it, read back by the run-time class
    text = "他是银行行长。"
    query = Query(text, text.index("长"), "行长", 1, "covered", "zhang3")
    write_context(tmp_path, {"行长": "hang2 zhang3"}, [(query, ("chang2", "zhang3"), {}, "zhang3")])
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("cedict_longest")] = 1.0
    (tmp_path / "polyphone_arbiter.json").write_text(json.dumps({"features": list(FEATURES), "weights": weights,
                                                                 "bias": 0.0}))
    arbiter = PolyphoneArbiter(tmp_path)
    assert arbiter.cedict_readings(query) == ("zhang3", {"zhang3"}, "行长")
    assert arbiter.choose(query, ("chang2", "zhang3"), {"chang2": 0.9, "zhang3": 0.1}) == "zhang3"
    assert arbiter._counts("q长") == {"zhang3": 1}


def test_weights_for_other_features_are_refused(tmp_path: Path) -> None:
    (tmp_path / "polyphone_arbiter.json").write_text(json.dumps({"features": ["x"], "weights": [1.0], "bias": 0}))
    with pytest.raises(ValueError, match="other features"):
        PolyphoneArbiter(tmp_path).load()


def test_trainer_collects_the_labelled_queries(tmp_path: Path) -> None:
    from onestep_dev.train.polyphone_arbiter import dev_queries

    (tmp_path / "dev.sent").write_text("赵奢▁率▁军救援。\n他是银行▁行▁长。\n我▁的▁书。\n", encoding="utf-8")
    (tmp_path / "dev.lb").write_text("shuai4\nhang2\nde5\n", encoding="utf-8")
    found = dev_queries(tmp_path)
    # 的 is read by the rules, never asked; the other two are, with g2pM's probabilities over their candidates
    assert [(q.text[q.position], label) for q, _, _, label in found] == [("率", "shuai4"), ("行", "hang2")]
    for query, candidates, probabilities, label in found:
        assert label in candidates and set(probabilities) == set(candidates)
        assert query.category in ("covered", "single", "jiebaword", "madeup")
