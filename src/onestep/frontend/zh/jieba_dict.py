"""jieba's main dictionary as a compact memory-mapped table, loaded fast and quietly.

``jieba.Tokenizer.initialize`` builds the prefix dictionary ``FREQ`` (~500k words and word prefixes ->
frequency, prefixes 0) from jieba's word list, or reads it from the ``marshal`` cache it keeps at
``<tempdir>/jieba.cache``: ~0.5-1.5 s and ~65 MB of RSS per process. :func:`initialize` gives a tokenizer the
same dictionary as a :class:`~onestep.frontend.compact_table.CompactTable` (a MARISA trie of the keys and a
flat array of the frequencies, built once into the onestep cache and memory-mapped: ~1 ms, a few MB).
Words added later (``add_word``, ``suggest_freq(tune=True)``) go to the tokenizer's own overlay. jieba's
"Building prefix dict" stderr lines are silenced, and jieba is imported without ``pkg_resources`` (it then
opens its data files from its package directory, the same files).
"""

from __future__ import annotations

import logging
import marshal
import os
import tempfile
from typing import Any

from onestep.frontend.compact_table import CompactTable, open_table
from onestep.frontend.import_tools import hidden_modules

with hidden_modules("pkg_resources"):  # jieba._compat imports it only to find jieba's own files (~60 ms, ~10 MB)
    import jieba

jieba.setLogLevel(logging.WARNING)  # drop the "Building prefix dict" / "Loading model" debug lines

_CACHE_NAME = "jieba.cache"  # jieba's own name for its default dictionary's cache


def cache_path(tokenizer: jieba.Tokenizer) -> str:
    """Where jieba keeps the prefix-dictionary cache of ``tokenizer``'s default dictionary."""
    return os.path.join(tokenizer.tmp_dir or tempfile.gettempdir(), tokenizer.cache_file or _CACHE_NAME)


def build_freq() -> tuple[dict[str, int], int]:
    """``(FREQ, total)`` exactly as jieba's own ``initialize`` loads them for the default dictionary."""
    tokenizer = jieba.Tokenizer()
    try:
        with open(cache_path(tokenizer), "rb") as f:
            freq, total = marshal.loads(f.read())  # ~3x faster than jieba's marshal.load on the file
        if isinstance(freq, dict) and isinstance(total, int):
            return freq, total
    except (OSError, EOFError, ValueError, TypeError):
        pass
    tokenizer.initialize()  # no usable cache: jieba builds the dictionary (and writes its cache)
    return tokenizer.FREQ, tokenizer.total


def _table_stem() -> str:
    """Cache name: jieba's version and the size of its bundled ``dict.txt``."""
    size = os.path.getsize(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"))
    return f"jieba-{jieba.__version__}-dict-{size}"


def load_freq() -> tuple[CompactTable, int]:
    """The compact ``FREQ`` table (a fresh overlay each call) and jieba's ``total``."""

    def build() -> tuple[dict[str, int], dict[str, Any]]:
        freq, total = build_freq()
        return freq, {"total": total}

    table, meta = open_table(_table_stem(), build, "u32")
    return table, int(meta["total"])


def load_tags() -> CompactTable:
    """jieba's part-of-speech tag of each word of its default dictionary (``"n"`` noun, ``"v"`` verb, ``"ns"``
    place …): the table ``jieba.posseg`` builds from ``dict.txt`` (~0.2 s and ~30 MB per process), here built
    once into the onestep cache and memory-mapped (~1 ms to open)."""

    def build() -> tuple[dict[str, str], dict[str, Any]]:
        tags: dict[str, str] = {}
        with open(os.path.join(os.path.dirname(jieba.__file__), "dict.txt"), encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3:
                    tags[parts[0]] = parts[2]
        return tags, {}

    table, _ = open_table(_table_stem() + "-tags", build, "marshal")
    return table


def initialize(tokenizer: jieba.Tokenizer) -> None:
    """Load the default dictionary into a fresh ``tokenizer`` (same lookups as ``tokenizer.initialize()``)."""
    if tokenizer.dictionary != jieba.DEFAULT_DICT:
        raise ValueError(f"only jieba's default dictionary is supported, got {tokenizer.dictionary!r}")
    freq, total = load_freq()
    with tokenizer.lock:
        tokenizer.FREQ, tokenizer.total = freq, total
        tokenizer.initialized = True
