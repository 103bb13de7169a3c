"""The phoneme inventory shared by the frontend, the teacher (Kokoro-82M v1.0) and our student models.

It is Kokoro's 114-symbol table (``vocab.json``, identical to ``kokoro-onnx`` 0.6.1's ``config.json``).
Id 0 is the padding/boundary token: every utterance is fed to the models as ``[0, *ids, 0]``, exactly as
the teacher saw it, so that the teacher's per-token durations align one to one with the student's input.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources

PAD_ID = 0
MAX_PHONEME_IDS = 510  # the teacher's context (512 positions) minus the two boundary pads

#: The inventory's punctuation symbols: they are pauses (or silent marks such as quotes), never sounds.
PUNCTUATION = frozenset(';:,.!?—…"()“”')


@lru_cache(maxsize=1)
def vocab() -> dict[str, int]:
    """Return the phoneme symbol -> id table (114 entries, ids 1..177, 0 reserved for padding)."""
    with resources.files("onestep.frontend").joinpath("vocab.json").open(encoding="utf-8") as f:
        table: dict[str, int] = json.load(f)
    return table


def is_known(symbol: str) -> bool:
    """True if ``symbol`` (one character) is in the inventory."""
    return symbol in vocab()


def phonemes_to_ids(phonemes: str, *, pad: bool = True) -> list[int]:
    """Map a phoneme string to model ids, dropping characters outside the inventory.

    Args:
        phonemes: string of inventory symbols (one character each; spaces and punctuation are symbols too).
        pad: surround with the boundary pad id 0 (the model input form).
    Returns:
        list of ints, length ``len(kept symbols) + 2`` when ``pad``.
    """
    table = vocab()
    ids = [table[c] for c in phonemes if c in table]
    return [PAD_ID, *ids, PAD_ID] if pad else ids


def unknown_symbols(phonemes: str) -> set[str]:
    """Characters of ``phonemes`` that the inventory lacks (a frontend bug if non-empty)."""
    table = vocab()
    return {c for c in phonemes if c not in table}
