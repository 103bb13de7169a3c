"""CompactTable / open_table: a cached MARISA-trie mapping reads like the dict it was built from."""

from __future__ import annotations

from pathlib import Path

import pytest

from onestep.frontend import compact_table as ct

_WORDS = {"中": 5, "中国": 9, "中国人": 3, "国": 0, "hello": 7, "": 1}
_ENTRIES = {"read": {"VBD": "ɹˈɛd", "DEFAULT": "ɹˈid"}, "the": "ðə", "none": None, "list": [["ā"], ["bà"]]}


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ONESTEP_CACHE", str(tmp_path))


def _open(stem: str, data: dict[str, object], codec: ct.Codec, calls: list[int] | None = None) -> ct.CompactTable:
    def build() -> tuple[dict[str, object], dict[str, object]]:
        if calls is not None:
            calls.append(1)
        return dict(data), {"note": stem}

    table, meta = ct.open_table(stem, build, codec)
    assert meta == {"note": stem}
    return table


@pytest.mark.parametrize(("data", "codec"), [(_WORDS, "u32"), (_ENTRIES, "marshal")])
def test_reads_like_the_dict_and_is_built_once(data: dict[str, object], codec: ct.Codec) -> None:
    calls: list[int] = []
    first = _open("t", data, codec, calls)
    second = _open("t", data, codec, calls)  # memory-mapped from the files
    assert calls == [1]
    for table in (first, second):
        assert len(table) == len(data) and set(table) == set(data) and dict(table.items()) == data
        assert all(table[k] == v and table.get(k) == v and k in table for k, v in data.items())
        assert "missing" not in table and table.get("missing", 42) == 42 and 3 not in table
        with pytest.raises(KeyError):
            table["missing"]


def test_writes_go_to_an_overlay_and_copies_are_independent() -> None:
    table = _open("w", _WORDS, "u32")
    table["中国话"] = 4
    table["中"] = 6
    del table["hello"]
    assert table["中国话"] == 4 and table["中"] == 6 and "hello" not in table and table.get("hello") is None
    assert len(table) == len(_WORDS) and set(table) == (set(_WORDS) - {"hello"}) | {"中国话"}
    copy = table.copy()
    copy["新"] = 1
    assert "新" in copy and "新" not in table and copy["中"] == 6
    assert _open("w", _WORDS, "u32")["中"] == 5  # the files are never written by the overlay
    with pytest.raises(KeyError):
        del table["missing"]
    with pytest.raises(TypeError):
        table[3] = 1  # type: ignore[index]


def test_has_prefix() -> None:
    table = _open("p", _WORDS, "u32")
    assert table.has_prefix("中国") and table.has_prefix("hel") and not table.has_prefix("中华")
    table["中华"] = 1
    assert table.has_prefix("中") and table.has_prefix("中华")
    del table["hello"]
    assert not table.has_prefix("he")


def test_corrupt_or_mismatched_files_are_rebuilt() -> None:
    calls: list[int] = []
    _open("c", _ENTRIES, "marshal", calls)
    keys, values, meta = ct.table_paths("c")
    values.write_bytes(values.read_bytes()[:-3])  # truncated
    assert dict(_open("c", _ENTRIES, "marshal", calls).items()) == _ENTRIES
    keys.write_bytes(b"not a trie")
    assert dict(_open("c", _ENTRIES, "marshal", calls).items()) == _ENTRIES
    meta.unlink()  # an unfinished build
    assert dict(_open("c", _ENTRIES, "marshal", calls).items()) == _ENTRIES
    assert calls == [1, 1, 1, 1]
    with pytest.raises(ValueError):  # a u32 reader refuses a marshal value file
        ct._Values(memoryview(values.read_bytes()), "u32")


def test_unwritable_cache_falls_back_to_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("ONESTEP_CACHE", str(blocker / "cache"))  # below a file: cannot be created
    monkeypatch.setattr(ct, "cache_dir", lambda: blocker / "cache")
    table, _ = ct.open_table("u", lambda: (dict(_WORDS), {}), "u32")
    assert dict(table.items()) == _WORDS
