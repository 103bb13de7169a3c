"""User lexicon: entry kinds, validation messages, file loading, the env var, and matching rules."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from onestep.frontend.lexicon import (
    ENV_VAR,
    Lexicon,
    LexiconError,
    parse_entry,
    resolve_lexicon,
)


@pytest.mark.parametrize(
    ("key", "value", "kind", "payload"),
    [
        ("车库", "che1 ku4", "pinyin", ("che1", "ku4")),
        ("绿", "lü4", "pinyin", ("lv4",)),
        ("女", "nu:3", "pinyin", ("nv3",)),
        ("吗", "ma5", "pinyin", ("ma5",)),
        ("银行", "YIN2  HANG2", "pinyin", ("yin2", "hang2")),
        ("PLC", "P L C", "respelling", "P L C"),
        ("GitHub", "git hub", "respelling", "git hub"),
        ("OneStep", "w ʌ n s t ɛ p", "phonemes", "wʌnstɛp"),
        ("New York", "/nu  jˈɔɹk/", "phonemes", "nu jˈɔɹk"),
        ("Nguyen", "/wɪn/", "phonemes", "wɪn"),
        ("C++", "C plus plus", "respelling", "C plus plus"),
        ("R2D2", "R 2 D 2", "respelling", "R 2 D 2"),
        ("cafe", "café", "respelling", "café"),
        ("AI", "A I", "respelling", "A I"),
    ],
)
def test_valid_entries(key: str, value: str, kind: str, payload: object) -> None:
    entry = parse_entry(key, value)
    assert entry.kind == kind
    assert (entry.pinyin if kind == "pinyin" else entry.text) == payload


@pytest.mark.parametrize(
    ("key", "value", "reason"),
    [
        ("车库", "che1", "one syllable per character"),
        ("车库", "che1 ku4 le5", "one syllable per character"),
        ("车库", "chee1 ku4", "'chee1' is not a Mandarin syllable"),
        ("车库", "che ku4", "lacks a tone digit"),
        ("车库", "che6 ku4", "is not pinyin"),
        ("车库", "che1 ku4!", "is not pinyin"),
        ("车A", "che1 a1", "mixes Chinese characters"),
        ("PLC", "wʌn", "neither a respelling"),
        ("PLC", "P L C 中", "neither a respelling"),
        ("PLC", "/xyz中/", "not in the inventory"),
        ("PLC", "//", "phonemes are empty"),
        ("PLC", "", "empty value"),
        ("PLC", "   ", "empty value"),
        ("", "P L C", "empty key"),
        ("!!", "bang", "key must be"),
        ("123", "one two three", "key must be"),
        ("Привет", "privet", "key must be"),
        ("PLC", 3, "must be strings"),
        ("PLC", ["P", "L", "C"], "must be strings"),
    ],
)
def test_bad_entries_name_the_entry_and_reason(key: str, value: object, reason: str) -> None:
    with pytest.raises(LexiconError) as info:
        Lexicon({key: value}, source="my.json")  # type: ignore[dict-item]
    message = str(info.value)
    assert message.startswith(f"my.json: entry {key!r}: ")
    assert reason in message


def test_load_file(write_lexicon: Callable[..., Path]) -> None:
    path = write_lexicon({"车库": "che1 ku4", "PLC": "P L C", "OneStep": "w ʌ n s t ɛ p", "GitHub": "git hub"})
    lex = Lexicon.load(path)
    assert len(lex) == 4
    assert lex.zh_words == {"车库": ["che1", "ku4"]}
    assert sorted(lex.latin) == ["GitHub", "OneStep", "PLC"]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "is not valid JSON"),
        ('["PLC", "P L C"]', "must be a JSON object"),
        ('{"PLC": "P L C", "PLC": "p l c"}', "entry 'PLC': duplicate key"),
        ('{"PLC": 1}', "entry 'PLC'"),
    ],
)
def test_bad_files(write_lexicon: Callable[..., Path], content: str, reason: str) -> None:
    path = write_lexicon(content)
    with pytest.raises(LexiconError, match=reason) as info:
        Lexicon.load(path)
    assert str(path) in str(info.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="cannot read lexicon"):
        Lexicon.load(tmp_path / "nope.json")


def test_env_var(monkeypatch: pytest.MonkeyPatch, write_lexicon: Callable[..., Path]) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert Lexicon.from_env() is None
    monkeypatch.setenv(ENV_VAR, "  ")
    assert resolve_lexicon(None) is None
    monkeypatch.setenv(ENV_VAR, str(write_lexicon({"PLC": "P L C"})))
    lex = resolve_lexicon(None)
    assert lex is not None and lex.lookup("PLC") is not None
    # an explicit lexicon wins over the env var
    explicit = resolve_lexicon({"API": "A P I"})
    assert explicit is not None and explicit.lookup("PLC") is None


def test_env_var_bad_file_names_the_variable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "missing.json"))
    with pytest.raises(LexiconError, match=f"^{ENV_VAR}: cannot read lexicon"):
        Lexicon.from_env()


@pytest.mark.parametrize(
    ("word", "expected_key"),
    [
        ("PLC", "PLC"),
        ("plc", "plc"),
        ("Plc", "PLC"),  # no exact key: the first case-insensitive one in file order
        ("GitHub", "GitHub"),
        ("GITHUB", "GitHub"),
        ("new   york", "New York"),
        ("PLCs", None),
    ],
)
def test_lookup_case_rules(word: str, expected_key: str | None) -> None:
    lex = Lexicon({"PLC": "P L C", "plc": "plick", "GitHub": "git hub", "New York": "/nu jˈɔɹk/"})
    entry = lex.lookup(word)
    assert (entry.key if entry else None) == expected_key


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("the PLC works", ["PLC"]),
        ("PLC控制器", ["PLC"]),
        ("PLC-based, PLC's", ["PLC", "PLC"]),
        ("PLCs and XPLC", []),
        ("plc2 PLC2", []),
        ("New York and new york", ["New York", "new york"]),
        ("GitHubber", []),
        ("see GitHub.", ["GitHub"]),
    ],
)
def test_find_latin_whole_words(text: str, found: list[str]) -> None:
    lex = Lexicon({"PLC": "P L C", "New York": "/nu jˈɔɹk/", "GitHub": "git hub"})
    assert [text[s:e] for s, e, _ in lex.find_latin(text)] == found


def test_longest_key_wins() -> None:
    lex = Lexicon({"New": "noo", "New York": "/nu jˈɔɹk/"})
    assert [e.key for _, _, e in lex.find_latin("New York is new")] == ["New York", "New"]
