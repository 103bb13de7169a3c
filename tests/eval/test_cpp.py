"""CPP polyphone benchmark: reading the files, the sandhi-aware rule, scoring."""

from __future__ import annotations

from pathlib import Path

import pytest

from onestep_dev.eval.cpp import CppItem, evaluate, is_right, load_split, normalize_label


def write_split(folder: Path, sents: str, labels: str) -> None:
    (folder / "dev.sent").write_text(sents, encoding="utf-8")
    (folder / "dev.lb").write_text(labels, encoding="utf-8")


def test_load_split(tmp_path: Path) -> None:
    write_split(tmp_path, "他在银▁行▁工作。\n▁绿▁色\n", "hang2\nlu:4\n")
    assert load_split(tmp_path, "dev") == [CppItem("他在银行工作。", 3, "hang2"), CppItem("绿色", 0, "lv4")]


def test_load_split_errors(tmp_path: Path) -> None:
    write_split(tmp_path, "银▁行▁\n", "hang2\nxing2\n")
    with pytest.raises(ValueError, match="lines"):
        load_split(tmp_path, "dev")
    write_split(tmp_path, "银行\n", "hang2\n")
    with pytest.raises(ValueError, match="marked"):
        load_split(tmp_path, "dev")
    with pytest.raises(FileNotFoundError):
        load_split(tmp_path, "test")


def test_labels_in_our_spelling() -> None:
    assert normalize_label(" nu:e4\n") == "nve4"
    assert normalize_label("r5") == "er5"


@pytest.mark.parametrize(
    ("label", "reading", "right"),
    [
        ("hang2", ("行", "hang2", "hang2"), True),
        ("zhan3", ("展", "zhan3", "zhan2"), True),  # 3rd-tone sandhi: judged on the citation tone
        ("lai2", ("来", "lai2", "lai5"), True),  # neutral directional complement
        ("de5", ("地", "di4", "de5"), True),  # the spoken particle
        ("xing2", ("行", "hang2", "hang2"), False),  # wrong reading
        ("liao3", ("了", "le5", "le5"), False),
        ("hang2", None, False),  # not read at all
    ],
)
def test_sandhi_aware_rule(label: str, reading: tuple[str, str, str] | None, right: bool) -> None:
    assert is_right(label, reading) is right


def test_evaluate_counts_and_keeps_misses() -> None:
    items = [CppItem("银行", 1, "hang2"), CppItem("行走", 0, "xing2")]

    def always_hang(text: str) -> list[tuple[str, str, str] | None]:
        return [(c, "hang2", "hang2") for c in text]

    result = evaluate(items, always_hang, "dev", progress=False)
    assert (result.total, result.right, result.accuracy) == (2, 1, 0.5)
    assert [m[0] for m in result.misses] == [items[1]]
