"""misaki's English gold/silver lexicons, cached in a form that loads ~3x faster.

``misaki.en.Lexicon`` parses ``us_gold.json`` and ``us_silver.json`` (6 MB) and grows each with capitalized
variants on every start (~0.6 s on the 2-core reference machine). :func:`load_lexicons` builds the same two
dictionaries with misaki's own code once, stores them with ``marshal`` under the onestep cache directory
(``$ONESTEP_CACHE`` or ``~/.cache/onestep``, as for the teacher model), keyed by misaki's version and the
variant, and later loads them from there (~0.2 s). A missing, unreadable or unwritable cache only costs time.
"""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import json
import marshal
import os
import tempfile
from pathlib import Path
from typing import Any

from misaki import data as misaki_data
from misaki import en as misaki_en

from onestep.paths import cache_root

Entry = str | dict[str, str | None]  # a pronunciation, or a heteronym's {tag: pronunciation, "DEFAULT": ...}


def cache_file(british: bool) -> Path:
    """The cache file of one variant: ``<cache>/misaki-<version>-<us|gb>-lexicon.marshal``."""
    version = importlib.metadata.version("misaki")
    return cache_root() / f"misaki-{version}-{'gb' if british else 'us'}-lexicon.marshal"


def build_lexicons(british: bool) -> tuple[dict[str, Entry], dict[str, Entry]]:
    """``(golds, silvers)`` exactly as ``misaki.en.Lexicon(british)`` builds them (from its JSON files)."""
    prefix = "gb" if british else "us"
    files = importlib.resources.files(misaki_data)
    golds = misaki_en.Lexicon.grow_dictionary(json.loads((files / f"{prefix}_gold.json").read_text("utf-8")))
    silvers = misaki_en.Lexicon.grow_dictionary(json.loads((files / f"{prefix}_silver.json").read_text("utf-8")))
    return golds, silvers


def load_lexicons(british: bool) -> tuple[dict[str, Entry], dict[str, Entry]]:
    """``(golds, silvers)`` of misaki's lexicon, from the cache when there is a valid one (else built and cached)."""
    path = cache_file(british)
    try:
        cached: Any = marshal.loads(path.read_bytes())
        golds, silvers = cached
        if isinstance(golds, dict) and isinstance(silvers, dict):
            return golds, silvers
    except (OSError, EOFError, ValueError, TypeError):
        pass
    golds, silvers = build_lexicons(british)
    _write_atomically(path, marshal.dumps((golds, silvers)))
    return golds, silvers


def _write_atomically(path: Path, blob: bytes) -> None:
    """Write ``blob`` to ``path`` via a temporary file in the same folder; failures are ignored (cache only)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(blob)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass
