"""The GPU server's micro-batching: which requests share an engine call, the stage times, and the text
frontend in worker processes."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Sequence

import numpy as np
import pytest

from onestep.server.backend import PreparedRequest, SynthesisRequest
from onestep.server.frontend_pool import FrontendProcesses
from onestep.server.scheduler import STAGES, MicroBatchScheduler

from .conftest import TEXT


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


@pytest.fixture(scope="module")
def frontend_processes() -> FrontendProcesses:
    pool = FrontendProcesses(1)
    pool.start()
    yield pool
    pool.shutdown()


def test_worker_processes_give_the_utterances_of_the_frontend(
    frontend_processes: FrontendProcesses, tts  # noqa: ANN001 - onestep.TTS
) -> None:
    expected = [u for u in tts.frontend().sentences(TEXT, 126) if u.phonemes.strip()]
    got = frontend_processes.sentences(TEXT, 126)
    assert [u.phonemes for u in got] == [u.phonemes for u in expected]
    assert got == expected
    with pytest.raises(ValueError, match="max_ids"):  # the worker's error is raised here
        frontend_processes.sentences(TEXT, 0)


def test_a_dead_worker_is_replaced_and_its_request_retried(frontend_processes: FrontendProcesses) -> None:
    (pid,) = frontend_processes.start()
    before = frontend_processes.sentences(TEXT, 126)
    os.kill(pid, signal.SIGKILL)
    assert frontend_processes.sentences(TEXT, 126) == before
    (new_pid,) = frontend_processes.start()
    assert new_pid != pid


def test_prepare_through_worker_processes_matches_the_in_process_frontend(
    frontend_processes: FrontendProcesses, backend  # noqa: ANN001
) -> None:
    from onestep.server.backend import TTSBackend

    pooled = TTSBackend(backend._tts, frontend_pool=frontend_processes)
    request = SynthesisRequest(TEXT, voice="tiny")
    a, b = backend.prepare(request), pooled.prepare(request)
    assert a.utterances == b.utterances and a.engine_key == b.engine_key
    (audio_a,), (audio_b,) = backend.synthesize_prepared([a]), pooled.synthesize_prepared([b])
    np.testing.assert_array_equal(audio_a, audio_b)
