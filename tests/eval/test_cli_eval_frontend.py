"""``onestep eval-frontend`` end to end on tiny case tables and a tiny CPP split, with the real frontend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from onestep.cli import main


@pytest.fixture()
def folders(tmp_path: Path) -> tuple[Path, Path]:
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "zh-norm-numbers.tsv").write_text("共3个\t共三个\n第2名\t第二名\n", encoding="utf-8")
    (cases / "zh-pinyin-tones.tsv").write_text("你好\tni2 hao3\n妈妈\tma1 ma1\n", encoding="utf-8")
    (cases / "en-norm-numbers.tsv").write_text("3 cats\tthree cats\n", encoding="utf-8")
    cpp = tmp_path / "cpp"
    cpp.mkdir()
    (cpp / "test.sent").write_text("他在银▁行▁工作。\n我不太▁了▁解他。\n", encoding="utf-8")
    (cpp / "test.lb").write_text("hang2\nliao3\n", encoding="utf-8")
    return cases, cpp


def test_json_report(folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    cases, cpp = folders
    assert main(["eval-frontend", "--cases", str(cases), "--cpp", str(cpp), "--lang", "zh", "--json",
                 "--failures", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["cpp"]["sentences"] == 2 and report["cpp"]["right"] == 2
    rates = {(r["kind"], r["category"]): (r["passed"], r["total"]) for r in report["cases"]}
    assert rates == {("norm", "numbers"): (2, 2), ("pinyin", "tones"): (1, 2)}  # 妈妈 is ma1 ma5
    assert [f["input"] for f in report["failures"]] == ["妈妈"]


def test_table_report(folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    cases, _ = folders
    assert main(["eval-frontend", "--cases", str(cases), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "en   norm    numbers" in out and "100.0%" in out
    assert "CPP" not in out  # English only


def test_bad_folders_exit_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval-frontend", "--cases", str(tmp_path / "missing")]) == 2
    assert "not found" in capsys.readouterr().err
    (tmp_path / "zh-norm-x.tsv").write_text("only input\n", encoding="utf-8")
    assert main(["eval-frontend", "--cases", str(tmp_path), "--cpp", str(tmp_path)]) == 2
    assert "zh-norm-x.tsv:1" in capsys.readouterr().err


def test_new_languages_are_scored_on_their_normalizers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "ja-norm-counters.tsv").write_text("3本\tさんぼん\n1人\tいちにん\n", encoding="utf-8")
    (tmp_path / "es-norm-money.tsv").write_text("5 €\tcinco euros\n", encoding="utf-8")
    assert main(["eval-frontend", "--cases", str(tmp_path), "--lang", "ja", "--lang", "es", "--json",
                 "--failures", "3"]) == 0
    report = json.loads(capsys.readouterr().out)
    rates = {(r["lang"], r["category"]): (r["passed"], r["total"]) for r in report["cases"]}
    assert rates == {("ja", "counters"): (1, 2), ("es", "money"): (1, 1)}  # 1人 is ひとり
    assert [f["got"] for f in report["failures"]] == ["ひとり"]
