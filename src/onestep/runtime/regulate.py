"""Length regulation in numpy: predicted durations -> integer frames per id -> expanded frame sequence.

The rule is the contract of ``docs/ARCHITECTURE.md``: ``frames_per_id = max(round(durations / speed), 0)``
for real ids and 0 at bucket padding; ``frames = repeat(hidden, frames_per_id)``.
"""

from __future__ import annotations

import numpy as np


def frames_per_id(durations: np.ndarray, mask: np.ndarray, speed: float) -> np.ndarray:
    """Round predicted durations to whole frames.

    Args:
        durations: float32 [..., T], predicted frames per id at speed 1.
        mask: float32 [..., T], 1 for real ids (boundary pads included), 0 for bucket padding.
        speed: rate multiplier; durations are divided by it.
    Returns:
        int64 [..., T], frames per id (0 at masked positions).
    """
    frames = np.rint(np.asarray(durations, dtype=np.float64) / speed)
    frames = np.where(np.asarray(mask) > 0, np.maximum(frames, 0.0), 0.0)
    return frames.astype(np.int64)


def expand(hidden: np.ndarray, counts: np.ndarray, n_out: int) -> np.ndarray:
    """Repeat each id's hidden vector by its frame count and zero-pad to ``n_out`` frames.

    Args:
        hidden: float32 [T, C] encoder output of one utterance.
        counts: int64 [T] frames per id; ``counts.sum() <= n_out``.
        n_out: frame bucket size.
    Returns:
        float32 [n_out, C].
    """
    total = int(counts.sum())
    if total > n_out:
        raise ValueError(f"{total} frames do not fit in {n_out}")
    out = np.zeros((n_out, hidden.shape[-1]), dtype=np.float32)
    out[:total] = np.repeat(hidden, counts, axis=0)
    return out


def frame_mask(n_frames: np.ndarray, n_out: int) -> np.ndarray:
    """float32 [B, n_out]: 1 for the first ``n_frames[b]`` frames of each row, 0 after."""
    return (np.arange(n_out)[None, :] < np.asarray(n_frames)[:, None]).astype(np.float32)
