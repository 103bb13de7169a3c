"""misaki's English gold/silver lexicons as compact memory-mapped tables.

``misaki.en.Lexicon`` parses ``us_gold.json`` and ``us_silver.json`` (6 MB) and grows each with capitalized
variants on every start (~0.6 s and ~55 MB of RSS on the 2-core reference machine). :func:`load_lexicons`
builds the same two dictionaries with misaki's own code once, stores each as a
:class:`~onestep.frontend.compact_table.CompactTable` (MARISA trie + marshal-encoded entries) in the onestep
cache directory (``$ONESTEP_CACHE`` or ``~/.cache/onestep``), keyed by misaki's version and the variant, and
later memory-maps them (~1 ms). A missing or unreadable cache is rebuilt; an unwritable one only costs time.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import json
from typing import Any

from onestep.frontend.en.spacy_import import defer_spacy

defer_spacy()  # before misaki.en, whose `import spacy` then costs nothing (and works without spaCy installed)

from misaki import data as misaki_data  # noqa: E402
from misaki import en as misaki_en  # noqa: E402

from onestep.frontend.compact_table import CompactTable, open_table  # noqa: E402

Entry = str | dict[str, str | None]  # a pronunciation, or a heteronym's {tag: pronunciation, "DEFAULT": ...}


def table_stem(british: bool, kind: str) -> str:
    """Cache name of one lexicon: ``misaki-<version>-<us|gb>-<gold|silver>``."""
    version = importlib.metadata.version("misaki")
    return f"misaki-{version}-{'gb' if british else 'us'}-{kind}"


def build_lexicon(british: bool, kind: str) -> dict[str, Entry]:
    """One grown lexicon (``kind`` = ``"gold"`` or ``"silver"``) exactly as ``misaki.en.Lexicon`` builds it."""
    prefix = "gb" if british else "us"
    files = importlib.resources.files(misaki_data)
    raw = json.loads((files / f"{prefix}_{kind}.json").read_text("utf-8"))
    grown: dict[str, Entry] = misaki_en.Lexicon.grow_dictionary(raw)
    return grown


def build_lexicons(british: bool) -> tuple[dict[str, Entry], dict[str, Entry]]:
    """``(golds, silvers)`` exactly as ``misaki.en.Lexicon(british)`` builds them (from its JSON files)."""
    return build_lexicon(british, "gold"), build_lexicon(british, "silver")


def load_lexicons(british: bool) -> tuple[CompactTable, CompactTable]:
    """``(golds, silvers)`` of misaki's lexicon as compact tables (built into the cache on first use)."""

    def opened(kind: str) -> CompactTable:
        def build() -> tuple[dict[str, Entry], dict[str, Any]]:
            return build_lexicon(british, kind), {}

        table, _ = open_table(table_stem(british, kind), build, "marshal")
        return table

    return opened("gold"), opened("silver")
