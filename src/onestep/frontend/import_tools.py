"""Import helpers for the frontend's cold start: defer a module's import to its first use; hide an optional
module from one thread while importing.

:func:`defer_import` puts a stand-in module in ``sys.modules``: ``import name`` then binds the stand-in for
free, and the first attribute read imports the real module in its place (the stand-in, still bound in modules
that imported it early, forwards to it). It is for libraries that other libraries import at the top but the
frontend uses only for some texts, or never: spaCy (misaki imports it; ~1.2 s, ~60 MB; see
``en/spacy_import``), cn2an (misaki.zh imports it; ~0.15 s of regex compiling; Mandarin numbers load its
``an2cn`` module alone, see ``zh/an2cn``) and ``segments`` (phonemizer imports its segments backend, and with it
csvw, rdflib, jsonschema and language_tags: ~0.13 s from bytecode, ~0.35 s from source; the espeak fallback uses
the espeak backend only; see ``espeak_import``).

Some libraries import heavy optional modules they do not need for what the frontend uses: thinc (under
spaCy) imports torch (~2.5 s, ~440 MB), jieba imports ``pkg_resources`` only to locate its own data files
(~60 ms, ~10 MB; it falls back to the module's directory without it). :func:`hidden_modules` makes those
imports fail in the importing thread only, for the duration of a ``with`` block; other threads, and later
imports, see the modules as usual. Modules already imported are unaffected (imports of them never reach
the finder), so hiding them then changes nothing.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any

_lock = threading.RLock()
_importers: dict[str, Callable[[], types.ModuleType]] = {}
_lazy_names: dict[str, frozenset[str]] = {}
# dunder names a stand-in forwards (and so imports for); other dunders are introspection (inspect.getmodule
# probes every module's __file__) and are answered by the stand-in itself or raise AttributeError
_FORWARDED_DUNDERS = frozenset({"__path__", "__version__", "__all__"})


class DeferredModule(types.ModuleType):
    """Stands in for a module in ``sys.modules`` until an attribute is read, then imports the real one (an
    attribute named in ``defer_import``'s ``lazy_names`` is answered with a :class:`LazyAttribute` while the real
    module is not imported)."""

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__") and attr not in _FORWARDED_DUNDERS:
            raise AttributeError(attr)
        if attr in _lazy_names.get(self.__name__, ()) and sys.modules.get(self.__name__) is self:
            return LazyAttribute(self.__name__, attr)
        return getattr(load_deferred(self.__name__), attr)


class LazyAttribute:
    """``module.name`` of a deferred module, read before the module is imported (e.g. in an annotation that a
    ``def`` evaluates at import time): calling it or reading an attribute of it imports the module and forwards
    to the real object."""

    def __init__(self, module: str, name: str) -> None:
        self._module = module
        self._name = name

    def resolve(self) -> Any:
        """The real object (the module imported now if it is not yet)."""
        return getattr(load_deferred(self._module), self._name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __getattr__(self, attr: str) -> Any:
        if (attr.startswith("__") and attr.endswith("__")) or attr in ("_module", "_name"):  # not set: no recursion
            raise AttributeError(attr)
        return getattr(self.resolve(), attr)

    def __repr__(self) -> str:
        return f"<{self._module}.{self._name}, imported on first use>"


def defer_import(
    name: str, importer: Callable[[], types.ModuleType] | None = None, lazy_names: Sequence[str] = ()
) -> None:
    """Make ``import name`` bind a stand-in until the module is used (no-op if imported or not installed).

    Args:
        name: a top-level module name.
        importer: imports and returns the real module (default ``importlib.import_module(name)``); runs with
            the stand-in already removed from ``sys.modules``.
        lazy_names: attributes that reading does not import the module for: they read as a
            :class:`LazyAttribute` until it is imported (for names another module reads at its import only to
            keep them, e.g. in an annotation).
    """
    with _lock:
        if name in sys.modules:
            return
        spec = importlib.util.find_spec(name)
        if spec is None:
            return
        stand_in = DeferredModule(name, f"{name}, imported on first use (onestep.frontend.import_tools)")
        stand_in.__spec__ = spec  # not initializing: `import name` touches nothing else
        stand_in.__file__ = spec.origin
        stand_in.__loader__ = spec.loader
        stand_in.__package__ = name
        _importers[name] = importer or (lambda: importlib.import_module(name))
        _lazy_names[name] = frozenset(lazy_names)
        sys.modules[name] = stand_in


def is_deferred(name: str) -> bool:
    """Whether ``sys.modules[name]`` is still a stand-in."""
    return isinstance(sys.modules.get(name), DeferredModule)


def load_deferred(name: str) -> types.ModuleType:
    """The real module ``name``, imported now if ``sys.modules`` holds its stand-in."""
    with _lock:
        current = sys.modules.get(name)
        if not isinstance(current, DeferredModule):
            return importlib.import_module(name)
        del sys.modules[name]
        try:
            return _importers[name]()
        except BaseException:
            sys.modules[name] = current
            raise


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
