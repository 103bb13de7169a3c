"""The six espeak/OpenJTalk languages' normalizers on real text: every corpus line (``../shared/corpus``, skipped
when absent) normalizes without raising, leaves no digit behind, and the case tables pass the 95 % gate."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest
import regex

from onestep_dev.eval.frontend_cases import NORMALIZERS, load_tables, pass_rates, run_tables

SHARED = Path(os.environ.get("ONESTEP_SHARED_DIR") or Path(__file__).resolve().parents[2].parent / "shared")
CORPORA = {"es": "es_train.txt", "fr": "fr_train.txt", "it": "it_train.txt", "pt": "pt_train.txt",
           "hi": "hi_train.txt", "ja": "ja_train.txt"}
_DIGIT = regex.compile(r"[0-9०-९０-９]")


def _normalizer(lang: str):  # type: ignore[no-untyped-def]
    module, _, name = NORMALIZERS[lang].partition(":")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("lang", sorted(CORPORA))
def test_corpus_lines_normalize_without_digits_left(lang: str) -> None:
    path = SHARED / "corpus" / CORPORA[lang]
    if not path.is_file():
        pytest.skip(f"{path} not present")
    normalize = _normalizer(lang)
    lines = path.read_text(encoding="utf-8").splitlines()
    with_digits = 0
    for line in lines:
        out = normalize(line)
        assert isinstance(out, str) and (out.strip() or not line.strip()), line
        if _DIGIT.search(line):
            with_digits += 1
            assert not _DIGIT.search(out), f"{line!r} -> {out!r}"
    assert lines


@pytest.mark.parametrize("lang", sorted(CORPORA))
def test_case_tables_pass_the_gate(lang: str) -> None:
    tables = [t for t in load_tables(langs=[lang]) if t.kind == "norm"]
    assert len(tables) >= 5, f"{lang}: expected the generated per-class tables and the hand-written one"
    outcomes = run_tables(tables, lambda s: s, lambda s: [])
    passed = sum(o.passed for o in outcomes)
    assert passed / len(outcomes) >= 0.95, [(o.case.input, o.got, o.want) for o in outcomes if not o.passed][:10]
    assert {r.category for r in pass_rates(outcomes)} >= {"hand"}


@pytest.mark.parametrize("lang", sorted(CORPORA))
@pytest.mark.parametrize("text", ["", "   ", "9" * 400, "1/1/1/1/1/1", "..,,::%%€€$", "-" * 50 + "5",
                                  "12:34:56:78", "+" * 10 + "1", "1.2.3.4.5.6.7.8.9.0" * 20, "٣ ๓ ¹²³ ½",
                                  "1" * 3000 + "-", "1万" * 2000 + "-", "1 000 " * 500])
def test_odd_input_never_raises(lang: str, text: str) -> None:
    out = _normalizer(lang)(text)
    assert isinstance(out, str)
    assert not regex.search(r"[0-9]", out) or lang == "ja" and not regex.search(r"[0-9]", text)
