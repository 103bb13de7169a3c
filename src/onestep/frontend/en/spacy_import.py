"""spaCy, imported only when used, and then without letting its ML library import torch.

The English G2P needs spaCy for nothing at run time: words are split by
:class:`onestep.frontend.en.tokenizer.BlankEnglishTokenizer` (spaCy's blank English tokenizer, re-run from
its rules), and misaki, which does ``import spacy`` at the top of ``misaki.en``, uses spaCy attributes only
in code paths the frontend does not take (its own ``G2P.__init__``, feature alignment of markup).

* :func:`defer_spacy` puts a stand-in module in ``sys.modules["spacy"]`` (when spaCy is not imported yet):
  ``import spacy`` binds the stand-in for free (~1.2 s and ~60 MB saved), and the first attribute read
  (``spacy.blank``, ``spacy.training``, ``import spacy.lang.en``) imports the real spaCy in its place.
* :func:`import_spacy` imports spaCy with torch hidden from the importing thread only: ``thinc.compat``
  imports torch at import time whenever torch is installed (it is, for training and the GPU runtime), which
  costs ~2.5 s and ~440 MB of RSS on the 2-core reference machine, though only the tokenizer is used. Other
  threads and later ``import torch`` see torch as usual; nothing changes when torch is already imported.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import types
from typing import Any

from onestep.frontend.import_tools import hidden_modules

_lock = threading.RLock()


class DeferredSpacy(types.ModuleType):
    """Stands in for ``spacy`` in ``sys.modules`` until an attribute is read, then imports the real spaCy.

    After that, ``sys.modules["spacy"]`` is the real module and the stand-in (still bound in modules that
    imported it early, such as ``misaki.en``) forwards every attribute to it.
    """

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") and name.endswith("__") and name not in _FORWARDED_DUNDERS:
            raise AttributeError(name)  # introspection (inspect.getmodule probes every module) loads nothing
        return getattr(_real_spacy(), name)


_FORWARDED_DUNDERS = frozenset({"__path__", "__version__", "__all__"})


def _real_spacy() -> types.ModuleType:
    with _lock:
        current = sys.modules.get("spacy")
        if isinstance(current, DeferredSpacy):
            del sys.modules["spacy"]
            try:
                return import_spacy()
            except BaseException:
                sys.modules["spacy"] = current
                raise
        return import_spacy()


def defer_spacy() -> None:
    """Make ``import spacy`` cheap until spaCy is really used (see the module docstring); idempotent."""
    with _lock:
        if "spacy" in sys.modules:
            return
        spec = importlib.util.find_spec("spacy")
        if spec is None:
            return  # not installed: let imports fail as usual
        stand_in = DeferredSpacy("spacy", "spaCy, imported on first use (onestep.frontend.en.spacy_import)")
        stand_in.__spec__ = spec  # not initializing: `import spacy` does not touch anything else
        stand_in.__file__ = spec.origin
        stand_in.__loader__ = spec.loader
        stand_in.__package__ = "spacy"
        sys.modules["spacy"] = stand_in


def spacy_is_loaded() -> bool:
    """Whether the real spaCy is imported (not just the stand-in)."""
    module = sys.modules.get("spacy")
    return module is not None and not isinstance(module, DeferredSpacy)


def import_spacy() -> types.ModuleType:
    """``import spacy`` (the real module), keeping thinc from importing torch when torch is not imported yet."""
    with _lock:
        current = sys.modules.get("spacy")
        if isinstance(current, DeferredSpacy):
            return _real_spacy()
        if current is not None or "torch" in sys.modules:
            import spacy

            return spacy
        with hidden_modules("torch"):
            import spacy
        return spacy
