"""pypinyin's phrase and character dictionaries as compact memory-mapped tables, installed process-wide.

pypinyin 0.55 loads ``phrases_dict.json`` (~47k phrases) and ``pinyin_dict.json`` (~42k characters) into
dicts at import, copies both (``PHRASES_DICT = phrases_dict.copy()``) and trains its max-match segmenter
``pypinyin.seg.mmseg`` with every prefix of every phrase (a set of ~87k strings): ~0.3 s and ~45 MB together.
:func:`install`, called before pypinyin is first imported, puts import hooks in place for the rest of the
process:

* ``pypinyin.phrases_dict.phrases_dict`` is a :class:`~onestep.frontend.compact_table.CompactTable` with
  exactly the JSON file's content (built once into the onestep cache, then memory-mapped); pypinyin's
  ``copy()`` of it shares the files.
* ``pypinyin.pinyin_dict.pinyin_dict`` (code point -> comma-separated readings) is a :class:`CodePointTable`
  over such a table, keyed by the character.
* ``pypinyin.seg.mmseg`` is pypinyin's own module, executed with its import-time training skipped; its prefix
  set then answers from the table's trie (a prefix search), and later ``train`` calls (pypinyin's
  ``load_phrases_dict``) add to a small overlay set.

So every user of pypinyin in the process (not only the frontend) sees the same readings as with pypinyin's
own dicts, from the compact tables. Nothing happens when pypinyin is already imported (its own dicts are then
used, with the same results) or when ``PYPINYIN_NO_PHRASES`` is set (then neither table is used).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import sys
import threading
import types
from collections.abc import Iterator, MutableMapping, Sequence
from pathlib import Path
from typing import Any

from onestep.frontend.compact_table import CompactTable, open_table

_PHRASES = "pypinyin.phrases_dict"
_CHARS = "pypinyin.pinyin_dict"
_MMSEG = "pypinyin.seg.mmseg"
_lock = threading.Lock()
_installed: CompactTable | None = None


def data_file(name: str) -> Path:
    """A data file of pypinyin's package (found without importing pypinyin)."""
    spec = importlib.util.find_spec("pypinyin")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("pypinyin is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / name


def build_phrases() -> dict[str, list[list[str]]]:
    """pypinyin's phrase dictionary exactly as ``pypinyin.phrases_dict`` loads it."""
    loaded: dict[str, list[list[str]]] = json.loads(data_file("phrases_dict.json").read_text(encoding="utf-8"))
    return loaded


def build_chars() -> dict[int, str]:
    """pypinyin's character dictionary exactly as ``pypinyin.pinyin_dict`` loads it (code point -> readings)."""
    loaded = json.loads(data_file("pinyin_dict.json").read_text(encoding="utf-8"))
    return {int(k): v for k, v in loaded.items()}


def load_phrase_table() -> CompactTable:
    """The compact phrase table (built into the cache on first use)."""
    version = importlib.metadata.version("pypinyin")
    table, _ = open_table(f"pypinyin-{version}-phrases", lambda: (build_phrases(), {}), "marshal")
    return table


def load_char_table() -> CodePointTable:
    """The compact character table (built into the cache on first use)."""
    version = importlib.metadata.version("pypinyin")

    def build() -> tuple[dict[str, str], dict[str, Any]]:
        return {chr(k): v for k, v in build_chars().items()}, {}

    table, _ = open_table(f"pypinyin-{version}-chars", build, "marshal")
    return CodePointTable(table)


class CodePointTable(MutableMapping[int, Any]):
    """An ``int`` (code point) keyed view of a character-keyed :class:`CompactTable` (pypinyin's ``pinyin_dict``)."""

    def __init__(self, table: CompactTable) -> None:
        self._table = table

    @staticmethod
    def _char(key: object) -> str | None:
        return chr(key) if isinstance(key, int) and 0 <= key <= 0x10FFFF else None

    def __getitem__(self, key: int) -> Any:
        char = self._char(key)
        if char is None:
            raise KeyError(key)
        try:
            return self._table[char]
        except KeyError:
            raise KeyError(key) from None

    def get(self, key: int, default: Any = None) -> Any:
        char = self._char(key)
        return default if char is None else self._table.get(char, default)

    def __contains__(self, key: object) -> bool:
        char = self._char(key)
        return char is not None and char in self._table

    def __setitem__(self, key: int, value: Any) -> None:
        char = self._char(key)
        if char is None:
            raise TypeError(f"keys are code points (int), got {key!r}")
        self._table[char] = value

    def __delitem__(self, key: int) -> None:
        char = self._char(key)
        if char is None or char not in self._table:
            raise KeyError(key)
        del self._table[char]

    def __iter__(self) -> Iterator[int]:
        return (ord(c) for c in self._table)

    def __len__(self) -> int:
        return len(self._table)

    def copy(self) -> CodePointTable:
        """A view of a copy of the table (shared files, copied overlay)."""
        return CodePointTable(self._table.copy())


class _Prefixes:
    """mmseg's prefix set: every prefix of a table phrase, plus the prefixes trained later."""

    def __init__(self, table: CompactTable) -> None:
        self._table = table
        self._extra: set[str] = set()

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and (key in self._extra or self._table.has_prefix(key))

    def add(self, prefix: str) -> None:
        if not self._table.has_prefix(prefix):
            self._extra.add(prefix)


class _TableLoader(importlib.abc.Loader):
    """Creates ``pypinyin.phrases_dict`` / ``pypinyin.pinyin_dict`` holding a compact table instead of loading
    the JSON file (attribute ``attr`` = ``table``)."""

    def __init__(self, attr: str, table: MutableMapping[Any, Any]) -> None:
        self._attr = attr
        self._table = table

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        setattr(module, self._attr, self._table)


class _MmsegLoader(importlib.abc.Loader):
    """Runs pypinyin's own ``mmseg`` without its import-time training, then backs its prefix set by the trie."""

    def __init__(self, real: importlib.abc.Loader) -> None:
        self._real = real

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self._real.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        constants: Any = sys.modules["pypinyin.constants"]  # imported before mmseg (mmseg imports it)
        table = constants.PHRASES_DICT
        constants.PHRASES_DICT = {}  # mmseg's `p_set.train(PHRASES_DICT.keys())` then trains nothing
        try:
            self._real.exec_module(module)
        finally:
            constants.PHRASES_DICT = table
        module.PHRASES_DICT = table  # type: ignore[attr-defined]
        if isinstance(table, CompactTable):
            module.p_set._set = _Prefixes(table)  # type: ignore[attr-defined]
        else:  # not our table (should not happen): train as pypinyin would
            module.p_set.train(table.keys())  # type: ignore[attr-defined]


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, phrases: CompactTable, chars: CodePointTable) -> None:
        self._table = phrases
        self._chars = chars

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname == _PHRASES:
            return importlib.machinery.ModuleSpec(fullname, _TableLoader("phrases_dict", self._table))
        if fullname == _CHARS:
            return importlib.machinery.ModuleSpec(fullname, _TableLoader("pinyin_dict", self._chars))
        if fullname == _MMSEG:
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None and spec.loader is not None:
                    spec.loader = _MmsegLoader(spec.loader)
                    return spec
        return None


def install() -> bool:
    """Import pypinyin with the compact phrase table (see the module docstring); idempotent.

    Returns:
        True if pypinyin uses the compact table, False if it was imported before (or phrases are disabled).
    """
    global _installed
    with _lock:
        if _installed is not None:
            return True
        if "pypinyin" in sys.modules or os.environ.get("PYPINYIN_NO_PHRASES"):
            import pypinyin  # noqa: F401

            return False
        finder = _Finder(load_phrase_table(), load_char_table())
        sys.meta_path.insert(0, finder)
        try:
            import pypinyin  # noqa: F401
        finally:
            sys.meta_path.remove(finder)
        _installed = finder._table
        return True

