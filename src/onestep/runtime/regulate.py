"""Length regulation in numpy: predicted durations -> integer frames per id -> expanded frame sequence.

The rule is the contract of ``docs/ARCHITECTURE.md``: ``frames_per_id = max(round(durations / speed), 0)``
for real ids and 0 at bucket padding; ``frames = repeat(hidden, frames_per_id)``.

Every engine rounds by this one rule, written down once here for numpy (:func:`frames_per_id`, the CPU
engine) and for torch tensors (:func:`frames_per_id_torch`, the GPU engine, inside its CUDA graph): the
float32 durations are widened to float64 and divided by the speed as a float64 (a float32 speed of 1.7 is
1.70000005, which moves a duration sitting near a half across it), rounded half to even, clamped at 0 and
zeroed at padding. The durations themselves come from fp32 networks on every engine (the GPU engine runs its
acoustic model in fp32 even when the rest is fp16: ``CudaSettings.acoustic_dtype``), so the same ids give
the same frames on the CPU and the GPU.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import torch


def frames_per_id(durations: np.ndarray, mask: np.ndarray, speed: float) -> np.ndarray:
    """Round predicted durations to whole frames.

    Args:
        durations: float32 [..., T], predicted frames per id at speed 1.
        mask: float32 [..., T], 1 for real ids (boundary pads included), 0 for bucket padding.
        speed: rate multiplier; durations are divided by it.
    Returns:
        int64 [..., T], frames per id (0 at masked positions).
    """
    frames = np.rint(np.asarray(durations, dtype=np.float32).astype(np.float64) / np.float64(speed))
    frames = np.where(np.asarray(mask) > 0, np.maximum(frames, 0.0), 0.0)
    return frames.astype(np.int64)


def frames_per_id_torch(durations: torch.Tensor, mask: torch.Tensor, speed: torch.Tensor) -> torch.Tensor:
    """:func:`frames_per_id` on torch tensors, on any device (no host sync: it runs inside a CUDA graph).

    Args:
        durations: [B, T] predicted frames per id at speed 1 (float32; a lower precision is widened as is).
        mask: [B, T] 1 for real ids, 0 for bucket padding (any dtype).
        speed: [B] float64 rate per row (float32 is widened, which is not the rule's speed: pass float64).
    Returns:
        int64 [B, T] frames per id (0 at masked positions), equal to :func:`frames_per_id` on the same values.
    """
    frames = (durations.float().double() / speed.double()[:, None]).round()  # round half to even, as rint
    return (frames.clamp(min=0.0) * (mask > 0)).long()


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
