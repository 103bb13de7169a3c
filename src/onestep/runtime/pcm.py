"""The one float -> 16-bit PCM conversion (the Python API, the HTTP encoders, WebSocket and Wyoming use it)."""

from __future__ import annotations

import numpy as np


def to_pcm16(samples: np.ndarray) -> bytes:
    """float32 samples [n] in [-1, 1] -> 16-bit signed little-endian PCM bytes.

    Values are clipped to [-1, 1], scaled by 32767 and rounded to the nearest integer (ties to even), so the
    error is at most half a step and unbiased (truncation would pull every sample toward zero).
    """
    scaled = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0)  # a new array: scaled in place after
    scaled *= np.float32(32767.0)
    np.rint(scaled, out=scaled)  # two temporaries fewer than `rint(clip(x) * 32767)`: ~20 % less time, same bytes
    return scaled.astype("<i2").tobytes()
