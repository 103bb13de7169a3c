"""Static-length buckets for the acoustic model's phoneme input.

The runtime only ever feeds a few fixed lengths (so each ONNX/CUDA-graph shape is planned and warmed once): an
utterance of ``n`` phoneme ids becomes ``[0, *ids, 0]`` (``n + 2`` positions, the boundary pads included) and
is zero-padded on the right to the smallest bucket that holds it. The mask is 1 on the ``n + 2`` real
positions (boundary pads included) and 0 on the bucket padding, as ``acoustic.onnx`` expects.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from onestep.frontend.symbols import PAD_ID

DEFAULT_BUCKETS: tuple[int, ...] = (32, 64, 128, 256, 512)


def bucket_for(n: int, buckets: Sequence[int] = DEFAULT_BUCKETS) -> int:
    """Smallest bucket >= ``n``.

    Args:
        n: sequence length to fit, positions (boundary pads included).
        buckets: strictly increasing positive lengths.
    Raises:
        ValueError: ``n`` is negative or larger than the largest bucket.
    """
    if n < 0:
        raise ValueError(f"length must be >= 0, got {n}")
    for b in buckets:
        if n <= b:
            return int(b)
    raise ValueError(f"length {n} exceeds the largest bucket {buckets[-1] if buckets else None}")


def pad_ids(ids: Sequence[int], length: int) -> tuple[np.ndarray, np.ndarray]:
    """Right-pad one id sequence (boundary pads already included) to ``length``.

    Args:
        ids: model ids, e.g. ``phonemes_to_ids(p)`` (which adds the boundary pads).
        length: target length T >= len(ids).
    Returns:
        ``(ids, mask)``: int64 [1, T] and float32 [1, T] (1 on the ``len(ids)`` real positions, 0 after).
    """
    return pad_batch([ids], length)


def pad_batch(batch: Sequence[Sequence[int]], length: int) -> tuple[np.ndarray, np.ndarray]:
    """Right-pad several id sequences (boundary pads included) to one ``length``.

    Returns:
        ``(ids, mask)``: int64 [B, T] and float32 [B, T].
    Raises:
        ValueError: a sequence is longer than ``length``.
    """
    out = np.full((len(batch), length), PAD_ID, dtype=np.int64)
    mask = np.zeros((len(batch), length), dtype=np.float32)
    for row, ids in enumerate(batch):
        if len(ids) > length:
            raise ValueError(f"sequence {row} has {len(ids)} ids, longer than the target length {length}")
        out[row, : len(ids)] = ids
        mask[row, : len(ids)] = 1.0
    return out, mask


def to_bucket(ids: Sequence[int], buckets: Sequence[int] = DEFAULT_BUCKETS) -> tuple[np.ndarray, np.ndarray]:
    """Pad one id sequence (boundary pads included) to its bucket: ``pad_ids(ids, bucket_for(len(ids)))``.

    Returns:
        ``(ids, mask)``: int64 [1, T] and float32 [1, T], T = the bucket.
    """
    return pad_ids(ids, bucket_for(len(ids), buckets))


def batch_to_bucket(
    batch: Sequence[Sequence[int]], buckets: Sequence[int] = DEFAULT_BUCKETS
) -> tuple[np.ndarray, np.ndarray]:
    """Pad several sequences to the bucket of the longest.

    Returns:
        ``(ids, mask)``: int64 [B, T] and float32 [B, T], T = the bucket of ``max(len)``.
    """
    return pad_batch(batch, bucket_for(max((len(ids) for ids in batch), default=0), buckets))
