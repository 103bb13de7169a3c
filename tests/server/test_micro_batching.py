"""The GPU server's micro-batching: which requests share an engine call, and the stage times (the host work in
worker processes: tests/server/test_host_work.py)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence

import numpy as np
import pytest

from onestep.server.backend import PreparedRequest, SynthesisRequest
from onestep.server.scheduler import STAGES, MicroBatchScheduler



class HeldFrontendBackend:
    """A backend whose frontend holds texts starting with "hold" until ``release`` is set; the engine
    records each batch's texts and answers one second of silence per request."""

    sample_rate = 24000

    def __init__(self) -> None:
        self.release = threading.Event()
        self.batches: list[list[str]] = []

    def prepare(self, request: SynthesisRequest) -> PreparedRequest:
        if request.text.startswith("hold"):
            assert self.release.wait(timeout=30), "test never released the frontend"
        return PreparedRequest(request, ("voice", 1.0), [[0, 1, 0]], None)

    def synthesize_prepared(self, batch: Sequence[PreparedRequest]) -> list[np.ndarray]:
        self.batches.append([p.request.text for p in batch])
        return [np.zeros(self.sample_rate, dtype=np.float32) for _ in batch]


async def _audio(stream) -> list[np.ndarray]:  # noqa: ANN001 - SynthesisStream
    return [chunk async for chunk in stream]


def _run(backend: HeldFrontendBackend, window_ms: float, scenario) -> object:  # noqa: ANN001
    async def main() -> object:
        scheduler = MicroBatchScheduler(backend, window_ms=window_ms, max_batch=8, queue_size=8, timeout_s=30)
        scheduler.start()
        try:
            return await scenario(scheduler)
        finally:
            backend.release.set()
            await scheduler.stop(drain_timeout_s=5)

    return asyncio.run(main())


def test_a_lone_request_does_not_wait_for_the_window() -> None:
    backend = HeldFrontendBackend()

    async def scenario(scheduler: MicroBatchScheduler) -> float:
        stream = scheduler.submit(SynthesisRequest("alone"))
        await _audio(stream)
        return stream.time_to_first_chunk_s

    ttfa = _run(backend, window_ms=5000, scenario=scenario)
    assert backend.batches == [["alone"]]
    assert ttfa < 2.5  # nothing else was in the frontend: no 5 s window


def test_a_request_still_in_the_frontend_joins_the_batch() -> None:
    backend = HeldFrontendBackend()

    async def scenario(scheduler: MicroBatchScheduler) -> None:
        held = scheduler.submit(SynthesisRequest("hold me"))
        ready = scheduler.submit(SynthesisRequest("ready"))
        await asyncio.sleep(0.2)  # "ready" is prepared; the batch waits for "hold me", still in the frontend
        assert backend.batches == []
        backend.release.set()
        await asyncio.gather(_audio(held), _audio(ready))

    _run(backend, window_ms=10000, scenario=scenario)
    assert len(backend.batches) == 1 and sorted(backend.batches[0]) == ["hold me", "ready"]


def test_the_window_bounds_the_wait_for_a_slow_frontend() -> None:
    backend = HeldFrontendBackend()

    async def scenario(scheduler: MicroBatchScheduler) -> None:
        held = scheduler.submit(SynthesisRequest("hold me"))
        ready = scheduler.submit(SynthesisRequest("ready"))
        await _audio(ready)  # the 50 ms window closes: "ready" goes alone
        assert backend.batches == [["ready"]]
        backend.release.set()
        await _audio(held)

    _run(backend, window_ms=50, scenario=scenario)
    assert backend.batches == [["ready"], ["hold me"]]


def test_stage_times_add_up_to_the_time_to_first_audio() -> None:
    backend = HeldFrontendBackend()

    async def scenario(scheduler: MicroBatchScheduler) -> object:
        streams = [scheduler.submit(SynthesisRequest(f"text {i}")) for i in range(3)]
        await asyncio.gather(*(_audio(s) for s in streams))
        return streams

    for stream in _run(backend, window_ms=1, scenario=scenario):
        stages = stream.stage_seconds()
        assert list(stages) == list(STAGES)
        assert all(v >= 0 for v in stages.values())
        assert sum(stages.values()) == pytest.approx(stream.time_to_first_chunk_s, abs=1e-9)
        assert 1 <= stream.batch_size <= 3
