"""cn2an's ``an2cn`` (Arabic numerals read in Chinese) without the rest of the cn2an package.

``import cn2an`` runs the package's ``__init__``, which builds two ``Cn2An`` readers and a ``Transform``,
compiling their regular expressions (~50 ms on a 2-core CPU, ~15 % of the English + Mandarin preload); the
frontend reads numbers with ``an2cn`` alone. Its module (``cn2an/an2cn.py`` and the ``conf.py`` it imports) is
loaded here under a private package name whose path is cn2an's own folder: cn2an's code, without its package's
``__init__``. Where the real cn2an is imported already, its own ``an2cn`` is used.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import threading
import types
from collections.abc import Callable

from onestep.frontend.import_tools import is_deferred

#: The private package cn2an's modules are loaded under (``<this>.an2cn``, ``<this>.conf``).
PRIVATE_PACKAGE = "_onestep_cn2an_parts"

_lock = threading.Lock()
_reader: Callable[[str], str] | None = None


def an2cn(number: str) -> str:
    """cn2an's reading of ``number`` (ASCII digits, an optional decimal part; cn2an's default ``"low"`` mode):
    ``"12500"`` -> ``"一万二千五百"``, ``"3.5"`` -> ``"三点五"``."""
    return str(load_an2cn()(number))


def load_an2cn() -> Callable[[str], str]:
    """The ``an2cn`` function (loaded now if it is not yet; thread-safe).

    Raises:
        ModuleNotFoundError: cn2an is not installed.
    """
    global _reader
    if _reader is None:
        with _lock:
            if _reader is None:
                _reader = _import_an2cn()
    return _reader


def _import_an2cn() -> Callable[[str], str]:
    real = sys.modules.get("cn2an")
    if real is not None and not is_deferred("cn2an"):
        return real.an2cn  # type: ignore[no-any-return]
    spec = importlib.util.find_spec("cn2an")  # a deferred stand-in carries the real spec
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("cn2an is not installed", name="cn2an")
    if PRIVATE_PACKAGE not in sys.modules:
        package = types.ModuleType(PRIVATE_PACKAGE, "cn2an's modules without its package __init__ (onestep)")
        package.__path__ = list(spec.submodule_search_locations)
        package.__spec__ = importlib.machinery.ModuleSpec(PRIVATE_PACKAGE, None, is_package=True)
        package.__spec__.submodule_search_locations = package.__path__
        sys.modules[PRIVATE_PACKAGE] = package
    module = importlib.import_module(f"{PRIVATE_PACKAGE}.an2cn")
    return module.An2Cn().an2cn  # type: ignore[no-any-return]
