"""The shipped held-out sets: size, sections, provenance from the corpus tail, and selection."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from onestep_dev.eval.heldout import load_heldout, parse_sentences, select



@pytest.mark.parametrize("lang", ["en", "zh"])
def test_sets_are_big_enough_and_unique(lang: str) -> None:
    sentences = load_heldout(lang)  # type: ignore[arg-type]
    assert len(sentences) >= 100
    assert len({s.text for s in sentences}) == len(sentences)
    sections = [s.section for s in sentences]
    assert sections.count("corpus") == 90 and sections.count("normalization") >= 20
    assert all(s.id.startswith(f"{lang}-") for s in sentences)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_corpus_section_is_the_training_tail(lang: str, shared_file: Callable[..., Path]) -> None:
    path = shared_file("corpus", f"{lang}_train.txt")
    tail = path.read_text(encoding="utf-8").splitlines()[-150:]
    corpus = [s.text for s in load_heldout(lang) if s.section == "corpus"]  # type: ignore[arg-type]
    assert corpus == tail[-90:]


NEW_LANGS = ["ja", "es", "fr", "it", "pt", "hi"]


@pytest.mark.parametrize("lang", NEW_LANGS)
def test_new_language_sets_ship_forty_unique_corpus_lines(lang: str) -> None:
    sentences = load_heldout(lang)  # type: ignore[arg-type]
    assert len(sentences) == 40 and len({s.text for s in sentences}) == 40
    assert {s.section for s in sentences} == {"corpus"}
    assert [s.id for s in sentences[:2]] == [f"{lang}-001", f"{lang}-002"]
    assert all(not s.text.startswith("#") and s.text == s.text.strip() for s in sentences)


@pytest.mark.parametrize("lang", NEW_LANGS)
def test_new_language_sets_are_inside_the_untrained_tail(lang: str, shared_file: Callable[..., Path]) -> None:
    path = shared_file("corpus", f"{lang}_train.txt")
    from onestep_dev.train.phonemize_corpus import HELDOUT_LINES, training_lines

    lines = path.read_text(encoding="utf-8").splitlines()
    texts = [s.text for s in load_heldout(lang)]  # type: ignore[arg-type]
    assert texts == lines[-40:] and set(texts) <= set(lines[-HELDOUT_LINES:])
    assert not set(texts) & set(training_lines(path, len(lines)))


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="no held-out set for language 'de'"):
        load_heldout("de")  # type: ignore[arg-type]


def test_normalization_lines_are_not_in_training(shared_file: Callable[..., Path]) -> None:
    for lang in ("en", "zh"):
        path = shared_file("corpus", f"{lang}_train.txt")
        train = set(path.read_text(encoding="utf-8").splitlines())
        assert not {s.text for s in load_heldout(lang) if s.section == "normalization"} & train  # type: ignore[arg-type]


def test_parse_sections_and_comments() -> None:
    out = parse_sentences(["# section: a (x)", "one", "", "# note", "two", "# section: b", "three"], "en")
    assert [(s.id, s.section, s.text) for s in out] == [
        ("en-001", "a", "one"),
        ("en-002", "a", "two"),
        ("en-003", "b", "three"),
    ]


def test_select_spreads_over_sections() -> None:
    sentences = load_heldout("en")
    picked = select(sentences, 10)
    assert len(picked) == 10 and picked[0] == sentences[0]
    assert {s.section for s in picked} == {"corpus", "normalization"}
    assert select(sentences, None) == sentences
    with pytest.raises(ValueError):
        select(sentences, 0)


def test_attribution_covers_tatoeba_lines() -> None:
    tsv = Path(__file__).parents[2] / "dev" / "src" / "onestep_dev" / "eval" / "heldout_zh_attribution.tsv"
    rows = tsv.read_text(encoding="utf-8").splitlines()[1:]
    texts = {s.text for s in load_heldout("zh")}
    assert rows and all(r.split("\t")[0] in texts and "tatoeba.org" in r for r in rows)
