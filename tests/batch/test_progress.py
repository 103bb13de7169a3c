"""A batch job's throughput summary: the whole run, and the steady rate from the first rows back to the last."""

from __future__ import annotations

import pytest

from onestep.batch import progress as progress_module
from onestep.batch.progress import JobProgress


class Clock:
    """time.perf_counter as the test sets it, a microsecond on at every reading (as a real clock moves)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        self.now += 1e-6
        return self.now


def rows(n: int, seconds: float = 2.0) -> list[dict]:
    return [{"duration_s": seconds, "error": None} for _ in range(n)]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(progress_module.time, "perf_counter", c)
    return c


def test_steady_rate_counts_the_rows_after_the_first_ones(clock: Clock) -> None:
    p = JobProgress(30, enabled=False)
    clock.now += 5.0  # the workers load
    p.advance(rows(10))
    clock.now += 2.0
    p.advance(rows(20))
    s = p.summary()
    assert s["startup_s"] == pytest.approx(5.0) and s["wall_s"] == pytest.approx(7.0)
    assert s["steady_texts_per_s"] == pytest.approx(10.0) and s["steady_audio_hours_per_hour"] == pytest.approx(20.0)
    assert s["texts_per_s"] == pytest.approx(30 / 7, abs=1e-3) and s["rows"] == 30


def test_rows_that_came_back_in_one_go_have_no_steady_rate(clock: Clock) -> None:
    """One delivery gives no span to time: the steady figures are None, not 0 (a Ray run whose blocks all
    arrived together reported 0.00 texts/s)."""
    p = JobProgress(30, enabled=False)
    clock.now += 4.0
    p.advance(rows(30))
    clock.now += 0.001
    s = p.summary()
    assert s["steady_texts_per_s"] is None and s["startup_s"] is None
    assert s["texts_per_s"] == pytest.approx(30 / 4.001, abs=1e-3)
