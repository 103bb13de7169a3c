"""spaCy, imported without letting its ML library import torch.

The English G2P uses only spaCy's blank English tokenizer and ``spacy.training.Alignment`` (inside misaki);
neither touches thinc's neural-network backends. But ``thinc.compat`` imports torch at import time whenever
torch is installed (it is, for training and the GPU runtime), which costs ~2.5 s and ~440 MB of RSS on the
2-core reference machine. :func:`import_spacy` imports spaCy with torch hidden from the importing thread
only, so thinc records "no torch" and everything else in the process (other threads, later imports) sees
torch as usual. When torch or spaCy is already imported there is nothing to save and spaCy is imported
plainly.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import threading
import types
from collections.abc import Sequence


class _HideTorch(importlib.abc.MetaPathFinder):
    """A meta-path finder that makes ``import torch`` fail, in one thread only."""

    def __init__(self, thread_id: int) -> None:
        self.thread_id = thread_id

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if threading.get_ident() == self.thread_id and fullname.partition(".")[0] == "torch":
            raise ModuleNotFoundError(f"torch is hidden while spaCy is imported ({fullname})", name=fullname)
        return None


def import_spacy() -> types.ModuleType:
    """``import spacy``, keeping thinc from importing torch when torch is not imported yet."""
    if "spacy" in sys.modules or "torch" in sys.modules:
        import spacy

        return spacy
    finder = _HideTorch(threading.get_ident())
    sys.meta_path.insert(0, finder)
    try:
        import spacy
    finally:
        sys.meta_path.remove(finder)
    return spacy
