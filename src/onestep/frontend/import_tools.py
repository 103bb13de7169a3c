"""Import helpers for the frontend's cold start: hide an optional module from one thread while importing.

Some libraries import heavy optional modules they do not need for what the frontend uses: thinc (under
spaCy) imports torch (~2.5 s, ~440 MB), jieba imports ``pkg_resources`` only to locate its own data files
(~60 ms, ~10 MB; it falls back to the module's directory without it). :func:`hidden_modules` makes those
imports fail in the importing thread only, for the duration of a ``with`` block; other threads, and later
imports, see the modules as usual. Modules already imported are unaffected (imports of them never reach
the finder), so hiding them then changes nothing.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import sys
import threading
import types
from collections.abc import Iterator, Sequence


class HideModules(importlib.abc.MetaPathFinder):
    """A meta-path finder that makes importing ``names`` (and their submodules) fail, in one thread only."""

    def __init__(self, names: Sequence[str], thread_id: int) -> None:
        self.names = frozenset(names)
        self.thread_id = thread_id

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if threading.get_ident() == self.thread_id and fullname.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"{fullname} is hidden during this import (onestep frontend)", name=fullname)
        return None


@contextlib.contextmanager
def hidden_modules(*names: str) -> Iterator[None]:
    """Within the block, ``import <name>`` fails with ``ModuleNotFoundError`` in the calling thread."""
    finder = HideModules(names, threading.get_ident())
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
