"""Per-voice mel sharpening between the decoder and the vocoder (numpy; every engine applies the same rule).

The acoustic model's L1-trained mels are smoother across frequency than the teacher's; the postfilter restores
contrast across the mel bins of every frame::

    mel' = mel + s * (mel - box(mel)) = mel + s * D @ mel     # box: a moving average over WIDTH bins, edge-padded

Folded into the vocoder (``onestep export --mel-sharpen``) it is one strength for every voice, and that is the
wrong shape: on training-corpus lines the Mandarin voices gain nothing from it while the others gain ~0.06
DNSMOS OVRL (docs/BENCHMARKS.md, candidate 0.3.4). Here each speaker of a multi-speaker pack has its own
strength (``voice.json`` speakers' ``mel_sharpen``), read from the speaker vector by a linear readout fitted
exactly on the pack's speaker table: a row gets its voice's strength, and a blend or a seeded voice (a weighted
mixture of rows whose weights sum to 1) the same mixture of its voices' strengths.

A frame that is the same in every bin (the decoder's silence) is unchanged: ``D`` maps a constant to 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from onestep.config import MAX_MEL_SHARPEN
from onestep.errors import ConfigError
from onestep.model.mel_box import WIDTH, box_difference

if TYPE_CHECKING:
    from onestep.config import VoiceConfig

DECIMALS = 4
"""Places a strength is read to (the readout is exact on the table's rows to ~1e-6)."""

_READOUT_TOLERANCE = 1e-4


class MelPostfilter:
    """The per-speaker postfilter of one multi-speaker pack.

    Args:
        table: the pack's speaker table float (N, S) (``speakers.npy``).
        strengths: each row's strength (N,), each in ``[0, MAX_MEL_SHARPEN]``.
        n_mels: mel bins of the pack.

    Attributes:
        weight, bias: the readout: a speaker vector ``v`` (S,) gets strength ``v @ weight + bias``.
        difference: ``D`` float32 (n_mels, n_mels) (:func:`box_difference`).

    Raises:
        ValueError: a strength out of range, or rows the readout cannot tell apart (two identical rows with
            different strengths).
    """

    def __init__(self, table: np.ndarray, strengths: Sequence[float], n_mels: int, width: int = WIDTH) -> None:
        table = np.asarray(table, dtype=np.float64)
        target = np.asarray(strengths, dtype=np.float64)
        if table.ndim != 2 or target.shape != (table.shape[0],):
            raise ValueError(f"need one strength per speaker row: table {table.shape}, strengths {target.shape}")
        if np.any(target < 0) or np.any(target > MAX_MEL_SHARPEN):
            got = sorted(set(target.tolist()))
            raise ValueError(f"mel sharpening strengths must be 0-{MAX_MEL_SHARPEN:g}, got {got}")
        design = np.hstack([table, np.ones((table.shape[0], 1))])
        solution = np.linalg.lstsq(design, target, rcond=None)[0]
        worst = float(np.max(np.abs(design @ solution - target)))
        if worst > _READOUT_TOLERANCE:
            raise ValueError(f"the speaker table's rows cannot carry these strengths (readout off by {worst:.2g})")
        self.weight = solution[:-1].astype(np.float32)
        self.bias = float(solution[-1])
        self.difference = box_difference(n_mels, width).astype(np.float32)

    def strengths(self, speaker: np.ndarray) -> np.ndarray:
        """float32 (B,): the strength of each speaker vector of ``speaker`` (B, S), to :data:`DECIMALS` places
        (so a voice of strength 0 comes out exactly unfiltered, not off by the readout's rounding)."""
        return np.round(np.asarray(speaker, dtype=np.float32) @ self.weight + self.bias, DECIMALS).astype(np.float32)

    def apply(self, mel: np.ndarray, speaker: np.ndarray) -> np.ndarray:
        """``mel`` float32 (B, n_mels, L) sharpened row by row for ``speaker`` (B, S); a new array."""
        strength = self.strengths(speaker)[:, None, None]
        return (mel + strength * (self.difference @ mel)).astype(np.float32, copy=False)  # float32 in: no copy


def pack_postfilter(config: VoiceConfig, table: np.ndarray | None) -> MelPostfilter | None:
    """The postfilter of a pack (its speakers' ``mel_sharpen`` over its speaker ``table``); None when every
    strength is 0 or the pack has no speaker table: then nothing runs. Raises ConfigError for strengths the
    table cannot carry."""
    strengths = [s.mel_sharpen for s in config.speakers]
    if table is None or not any(strengths):
        return None
    try:
        return MelPostfilter(table, strengths, config.audio.n_mels)
    except ValueError as e:
        raise ConfigError(f"voice {config.name}: {e}") from e
