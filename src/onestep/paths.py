"""Where onestep keeps derived files (assembled models, patched graphs, lexicon caches)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """``$ONESTEP_CACHE`` or ``~/.cache/onestep`` (not created)."""
    root = os.environ.get("ONESTEP_CACHE")
    return Path(root).expanduser() if root else Path.home() / ".cache" / "onestep"


def cache_dir() -> Path:
    """The cache directory of :func:`cache_root`, created if missing."""
    path = cache_root()
    path.mkdir(parents=True, exist_ok=True)
    return path
