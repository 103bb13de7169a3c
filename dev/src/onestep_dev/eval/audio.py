"""Small audio helpers shared by the scorers."""

from __future__ import annotations

import numpy as np


def to_rate(audio: np.ndarray, sample_rate: int, target_rate: int) -> np.ndarray:
    """Resample mono float audio [N] from ``sample_rate`` to ``target_rate`` Hz (soxr, via librosa).

    Returns:
        float32 [M] with M ~ N * target_rate / sample_rate, clipped to [-1, 1].
    """
    audio = np.asarray(audio, dtype=np.float32).reshape(-1)
    if sample_rate != target_rate:
        import librosa

        audio = librosa.resample(audio, orig_sr=sample_rate, target_sr=target_rate, res_type="soxr_hq")
    return np.clip(audio, -1.0, 1.0).astype(np.float32, copy=False)
