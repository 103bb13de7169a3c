from __future__ import annotations

import pytest

from onestep.runtime.windows import plan_windows, split_windows, window_lengths


@pytest.mark.parametrize(
    ("n_frames", "total", "first", "chunk", "context"),
    [
        (1, 128, 32, 128, 16),
        (31, 128, 32, 128, 16),
        (100, 128, 32, 128, 16),
        (128, 128, 32, 128, 16),
        (250, 256, 32, 128, 16),
        (700, 1024, 32, 96, 6),
        (2048, 2048, 24, 100, 29),
        (5000, 6144, 32, 128, 0),
        (40, 64, 8, 8, 30),
    ],
)
def test_windows_tile_the_frames_with_context_or_an_edge(n_frames, total, first, chunk, context) -> None:
    windows = plan_windows(n_frames, total, first, chunk, context)
    allowed = {*window_lengths(first, chunk, context), total}
    assert windows[0].keep_start == 0 and windows[-1].keep_end == n_frames
    for prev, nxt in zip(windows, windows[1:], strict=False):
        assert prev.keep_end == nxt.keep_start
    for w in windows:
        assert w.length in allowed
        assert 0 <= w.start and w.start + w.length <= total
        assert w.keep_start < w.keep_end
        assert w.start == 0 or w.keep_start - w.start >= context
        assert w.start + w.length == total or w.start + w.length - w.keep_end >= context
    assert windows[0].keep_end == min(first, n_frames)


def test_keep_slice_is_in_samples() -> None:
    (w,) = plan_windows(10, 128, 32, 128, 4)
    assert w.keep_slice(300) == slice(0, 3000)


@pytest.mark.parametrize(("n_frames", "total"), [(0, 128), (129, 128)])
def test_bad_frame_counts_are_rejected(n_frames: int, total: int) -> None:
    with pytest.raises(ValueError, match="n_frames"):
        plan_windows(n_frames, total, 32, 128, 16)


@pytest.mark.parametrize(
    ("total", "pieces", "context"), [(1, 2, 28), (60, 2, 28), (401, 2, 28), (5000, 7, 18), (9, 3, 0)]
)
def test_split_windows_tile_the_input_with_context_inside_it(total: int, pieces: int, context: int) -> None:
    windows = split_windows(total, pieces, context)
    assert len(windows) == min(pieces, total)
    assert windows[0].keep_start == 0 and windows[-1].keep_end == total
    for w, nxt in zip(windows, windows[1:]):
        assert w.keep_end == nxt.keep_start
    for w in windows:
        assert 0 <= w.start <= w.keep_start < w.keep_end <= w.start + w.length <= total
        assert w.keep_start - w.start == min(context, w.keep_start)  # full context unless at the input's edge
        assert w.start + w.length - w.keep_end == min(context, total - w.keep_end)
    with pytest.raises(ValueError, match="total >= 1"):
        split_windows(0, 2, 3)
