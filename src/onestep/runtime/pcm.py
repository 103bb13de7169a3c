"""The one float -> 16-bit PCM conversion (the Python API, the HTTP encoders, WebSocket and Wyoming use it)."""

from __future__ import annotations

import numpy as np


def to_pcm16(samples: np.ndarray) -> bytes:
    """float32 samples [n] in [-1, 1] -> 16-bit signed little-endian PCM bytes.

    Values are clipped to [-1, 1], scaled by 32767 and rounded to the nearest integer (ties to even), so the
    error is at most half a step and unbiased (truncation would pull every sample toward zero).
    """
    scaled = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0) * 32767.0
    return np.rint(scaled).astype("<i2").tobytes()
