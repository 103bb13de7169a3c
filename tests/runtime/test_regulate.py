from __future__ import annotations

import numpy as np
import pytest

from onestep.runtime.engine import frame_bucket
from onestep.runtime.regulate import expand, frame_mask, frames_per_id


@pytest.mark.parametrize(
    ("durations", "speed", "expected"),
    [
        ([1.4, 2.6, 0.0, -1.0], 1.0, [1, 3, 0, 0]),
        ([2.0, 4.0, 6.2, 1.0], 2.0, [1, 2, 3, 0]),  # 0.5 rounds to even (0), like torch.round
        ([1.0, 3.0, 2.2, 0.3], 0.5, [2, 6, 4, 1]),
    ],
)
def test_frames_per_id_divides_by_speed_and_rounds(durations, speed, expected) -> None:
    mask = np.ones(len(durations), dtype=np.float32)
    assert frames_per_id(np.array(durations, dtype=np.float32), mask, speed).tolist() == expected


def test_masked_positions_get_no_frames() -> None:
    durations = np.array([[3.0, 3.0, 3.0]], dtype=np.float32)
    mask = np.array([[1.0, 1.0, 0.0]], dtype=np.float32)
    assert frames_per_id(durations, mask, 1.0).tolist() == [[3, 3, 0]]


def test_expand_repeats_rows_and_zero_pads() -> None:
    hidden = np.array([[1.0], [2.0], [3.0]], dtype=np.float32)
    out = expand(hidden, np.array([2, 0, 1]), 5)
    assert out[:, 0].tolist() == [1.0, 1.0, 3.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="do not fit"):
        expand(hidden, np.array([4, 1, 1]), 5)


def test_frame_mask() -> None:
    assert frame_mask(np.array([1, 3]), 4).tolist() == [[1, 0, 0, 0], [1, 1, 1, 0]]


@pytest.mark.parametrize(
    ("n_frames", "expected"), [(0, 128), (1, 128), (128, 128), (129, 256), (2048, 2048), (2049, 4096), (5000, 6144)]
)
def test_frame_bucket(n_frames: int, expected: int) -> None:
    assert frame_bucket(n_frames, (128, 256, 512, 1024, 2048)) == expected
