"""spaCy, imported only when used, and then without letting its ML library import torch.

The English G2P needs spaCy for nothing at run time: words are split by
:class:`onestep.frontend.en.tokenizer.BlankEnglishTokenizer` (spaCy's blank English tokenizer, re-run from
its rules), and misaki, which does ``import spacy`` at the top of ``misaki.en``, uses spaCy attributes only
in code paths the frontend does not take (its own ``G2P.__init__``, feature alignment of markup).

* :func:`defer_spacy` puts a stand-in module in ``sys.modules["spacy"]`` (when spaCy is not imported yet):
  ``import spacy`` binds the stand-in for free (~1.2 s and ~60 MB saved), and the first attribute read
  (``spacy.blank``, ``spacy.training``, ``import spacy.lang.en``) imports the real spaCy in its place.
* When spaCy is not installed at all (it is not a dependency of a plain install), :func:`defer_spacy` puts a
  :class:`MissingModule` there instead, so that misaki's ``import spacy`` succeeds; using any attribute
  raises ``ModuleNotFoundError`` saying what to install.
* :func:`import_spacy` imports spaCy with torch hidden from the importing thread only: ``thinc.compat``
  imports torch at import time whenever torch is installed (it is, for training and the GPU runtime), which
  costs ~2.5 s and ~440 MB of RSS on the 2-core reference machine, though only the tokenizer is used. Other
  threads and later ``import torch`` see torch as usual; nothing changes when torch is already imported.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from typing import Any

from onestep.frontend.import_tools import defer_import, hidden_modules, is_deferred, load_deferred

INSTALL_HINT = "spaCy is not installed (the frontend runs without it; the tests use it: pip install 'onestep-tts[test]')"


class MissingModule(types.ModuleType):
    """Stands in for a module that is not installed: importing it works, using it raises ModuleNotFoundError."""

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        raise ModuleNotFoundError(f"{self.__name__}.{attr}: {INSTALL_HINT}", name=self.__name__)


def spacy_installed() -> bool:
    """Whether the real spaCy can be imported (whatever ``sys.modules`` holds now)."""
    current = sys.modules.get("spacy")
    if current is not None:
        return not isinstance(current, MissingModule)
    try:
        return importlib.util.find_spec("spacy") is not None
    except ImportError:  # an import hook refuses it
        return False


def defer_spacy() -> None:
    """Make ``import spacy`` cheap until spaCy is really used (see the module docstring); idempotent."""
    if "spacy" not in sys.modules and not spacy_installed():
        sys.modules["spacy"] = MissingModule("spacy", INSTALL_HINT)
        return
    defer_import("spacy", _import_real_spacy)


def spacy_is_loaded() -> bool:
    """Whether the real spaCy is imported (not just a stand-in)."""
    return "spacy" in sys.modules and not is_deferred("spacy") and not isinstance(sys.modules["spacy"], MissingModule)


def import_spacy() -> types.ModuleType:
    """``import spacy`` (the real module), keeping thinc from importing torch when torch is not imported yet."""
    return load_deferred("spacy") if is_deferred("spacy") else _import_real_spacy()


def _import_real_spacy() -> types.ModuleType:
    if "spacy" in sys.modules or "torch" in sys.modules:
        import spacy

        return spacy
    with hidden_modules("torch"):
        import spacy
    return spacy
