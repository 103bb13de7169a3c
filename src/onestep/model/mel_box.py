"""The mel postfilter's difference matrix ``D = I - box`` (numpy, torch-free): what the export folds into the
vocoder (:mod:`onestep.model.mel_sharpen`) and what the engines apply per voice
(:mod:`onestep.runtime.mel_postfilter`) are the same ``mel + s * D @ mel``."""

from __future__ import annotations

import numpy as np

WIDTH = 5
"""Bins of the moving average (odd). Width 9 was no better than 5 in the screen (TRAINING.md)."""


def box_difference(n_mels: int, width: int = WIDTH) -> np.ndarray:
    """``D = I - box`` float64 (n_mels, n_mels): ``D @ mel`` is each bin minus the mean of the ``width`` bins
    around it (bins past either edge count as the edge bin)."""
    if width < 3 or width % 2 == 0:
        raise ValueError(f"mel sharpening width must be an odd number of bins >= 3, got {width}")
    box = np.zeros((n_mels, n_mels))
    half = width // 2
    for i in range(n_mels):
        for j in range(i - half, i + half + 1):
            box[i, min(max(j, 0), n_mels - 1)] += 1.0 / width
    return np.eye(n_mels) - box
