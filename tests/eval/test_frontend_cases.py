"""Case tables for the frontend: file format, comparison rules, the shipped tables' integrity, pass rates."""

from __future__ import annotations

from pathlib import Path

import pytest
import regex

from onestep_dev.eval.frontend_cases import (
    CASES_DIR,
    load_table,
    load_tables,
    norm_key,
    pass_rates,
    pinyin_key,
    run_tables,
)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_load_table_reads_rows_and_skips_comments(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "zh-norm-money.tsv", "# money\n\n$5\t五美元\tnote here\n¥3\t三元\n"))
    assert (table.lang, table.kind, table.category) == ("zh", "norm", "money")
    assert [(c.input, c.expected, c.note, c.line) for c in table.cases] == [
        ("$5", "五美元", "note here", 3),
        ("¥3", "三元", "", 4),
    ]


@pytest.mark.parametrize("name", ["zh-money.tsv", "de-norm-money.tsv", "zh-sound-money.tsv", "zh-norm-.tsv"])
def test_badly_named_tables_are_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match="lang"):
        load_table(write(tmp_path, name, "a\tb\n"))


def test_rows_without_an_answer_are_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=":2:"):
        load_table(write(tmp_path, "en-norm-dates.tsv", "Jan 1\tjanuary first\nno answer\n"))


def test_norm_key_rules() -> None:
    assert norm_key("en", "It's  5 O'Clock, Dr. Smith!") == "it's 5 o'clock dr smith"
    assert norm_key("en", "don’t") == "don't"
    # Mandarin: characters and Latin letters; punctuation and spacing do not count, acronyms spelled or not
    assert norm_key("zh", "GDP增长， 百分之五。") == norm_key("zh", "G D P 增长百分之五")
    assert norm_key("zh", "A 四纸") == "a 四 纸"
    assert norm_key("zh", "五G") != norm_key("zh", "五")


def test_pinyin_key_spelling() -> None:
    assert pinyin_key(["Lü4", " nu:3 ", "hao3"]) == "lv4 nv3 hao3"


def test_run_tables_and_pass_rates(tmp_path: Path) -> None:
    norm = load_table(write(tmp_path, "zh-norm-numbers.tsv", "1\t一\n2\t二\n"))
    pinyin = load_table(write(tmp_path, "zh-pinyin-tones.tsv", "你好\tni2 hao3\n"))
    outcomes = run_tables([norm, pinyin], {"1": "一", "2": "两"}.get, lambda text: ["ni2", "hao3"])
    assert [o.passed for o in outcomes] == [True, False, True]
    rates = pass_rates(outcomes)
    assert [(r.kind, r.category, r.passed, r.total) for r in rates] == [
        ("norm", "numbers", 1, 2),
        ("pinyin", "tones", 1, 1),
    ]
    assert rates[0].rate == 0.5


def test_shipped_tables_are_well_formed() -> None:
    tables = load_tables(CASES_DIR)
    zh = [t for t in tables if t.lang == "zh"]
    assert {t.kind for t in zh} == {"norm", "pinyin"}
    for table in tables:
        if table.lang == "zh":
            # a category table aims for 40+ cases; the sentence tables of one writing style (finance, sports...) 25+
            assert len(table.cases) >= 25, f"{table.path.name}: aim for 25+ cases per table"
        assert len({c.input for c in table.cases}) == len(table.cases), f"{table.path.name}: duplicate inputs"
        if table.kind == "pinyin":
            for case in table.cases:
                han = regex.findall(r"\p{Han}", case.input)
                syllables = case.expected.split()
                assert len(han) == len(syllables), f"{table.path.name}:{case.line}: one syllable per character"
                assert all(regex.fullmatch(r"[a-z]+[1-5]", s) for s in syllables), f"{table.path.name}:{case.line}"


def test_pinyin_rates_count_sentences_and_syllables(tmp_path: Path) -> None:
    table = load_table(write(tmp_path, "zh-pinyin-tones.tsv", "一个\tyi2 ge5\n好的\thao3 de5\n"))
    answers = {"一个": ["yi2", "ge4"], "好的": ["hao3", "de5"]}
    rate = pass_rates(run_tables([table], str, lambda text: answers[text]))[0]
    assert (rate.passed, rate.total) == (1, 2)  # whole sentences
    assert (rate.units_right, rate.units_total) == (3, 4)  # syllables
    assert rate.unit_rate == 0.75


def test_a_missing_syllable_is_wrong_and_norm_units_are_cases(tmp_path: Path) -> None:
    pinyin = load_table(write(tmp_path, "zh-pinyin-tones.tsv", "你好\tni2 hao3\n"))
    norm = load_table(write(tmp_path, "zh-norm-numbers.tsv", "1\t一\n"))
    rates = pass_rates(run_tables([norm, pinyin], {"1": "一"}.get, lambda text: ["ni2"]))
    assert [(r.units_right, r.units_total) for r in rates] == [(1, 1), (1, 2)]


def test_languages_come_from_the_registry() -> None:
    """Every registered language has its case tables scored, each by the whole frontend or its own normalizer."""
    import importlib.util

    from onestep.languages import language_codes
    from onestep_dev.eval.frontend_cases import LANGS, NORMALIZERS, WHOLE_FRONTEND

    assert sorted(LANGS) == sorted(language_codes()) and len(set(LANGS)) == len(LANGS)
    assert set(NORMALIZERS) | set(WHOLE_FRONTEND) == set(LANGS) and not set(NORMALIZERS) & set(WHOLE_FRONTEND)
    for code, target in NORMALIZERS.items():
        module = target.partition(":")[0]
        assert importlib.util.find_spec(module) is not None, f"{code}: no module {module}"
