"""The server's host work in worker processes (``--frontend-processes N``, :mod:`onestep.server.host_work`): the
same bytes as the in-process path, errors per request, a killed worker replaced, no shared memory left behind."""

from __future__ import annotations

import base64
import json
import os
import signal
import time
from collections.abc import Iterator

import httpx
import numpy as np
import pytest

from onestep.runtime.host_pool import HostPool, HostPoolSettings
from onestep.runtime.host_workers import WorkerDied, worker_state
from onestep.runtime.output import OutputOptions
from onestep.runtime.shm import leftover_segments
from onestep.server.backend import SynthesisRequest, TTSBackend, resolve
from onestep.server.state import as_api_error

from .conftest import TEXT, VOICE, live_server, metric_values, wait_for

#: (route, body) pairs: native-rate PCM and WAV (finished in the server: the engine's samples, a PCM conversion)
#: and those whose finishing runs in a worker (resampling and gain, word timings, a compressed format).
REQUESTS = [
    ("/v1/audio/speech", {"input": TEXT, "voice": VOICE, "response_format": "pcm"}),
    ("/v1/audio/speech", {"input": TEXT, "voice": VOICE, "response_format": "wav"}),
    ("/v1/audio/speech", {"input": TEXT, "voice": VOICE, "response_format": "pcm", "sample_rate": 16000, "gain_db": -3}),
    ("/v1/audio/speech", {"input": "第二个句子，速度不同。", "voice": VOICE, "response_format": "pcm", "speed": 1.3,
                          "sample_rate": 22050}),
    ("/v1/audio/speech", {"input": TEXT, "voice": VOICE, "response_format": "flac"}),
    ("/synthesize", {"text": TEXT, "voice": VOICE, "format": "wav", "timestamps": True}),
    ("/synthesize", {"text": TEXT, "voice": VOICE, "format": "pcm", "sample_rate": 16000}),
]  # fmt: skip


class Shared:
    """A backend served by several test servers in turn: closing a server leaves its worker processes running
    (they are stopped once, by the fixture)."""

    def __init__(self, inner: TTSBackend) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def pool() -> Iterator[HostPool]:
    with HostPool(HostPoolSettings(threads=1, processes=2)) as p:
        p.start()
        yield p


@pytest.fixture(scope="module")
def pooled(tts, pool: HostPool) -> TTSBackend:  # noqa: ANN001 - onestep.TTS
    return TTSBackend(tts, warmup_text="你好。", host_pool=pool)


def _answers(backend: object, **config: object) -> list[tuple[int, bytes, dict[str, str]]]:
    with live_server(backend, scheduler_kind="batch", **config) as live, httpx.Client(timeout=60) as client:  # type: ignore[arg-type]
        out = []
        for route, body in REQUESTS:
            r = client.post(live.url + route, json=body)
            out.append((r.status_code, r.content, dict(r.headers)))
        out.append((0, client.get(live.url + "/metrics").content, {}))
    return out


def test_responses_with_worker_processes_equal_the_in_process_ones(backend: TTSBackend, pooled: TTSBackend) -> None:
    here = _answers(backend)
    there = _answers(Shared(pooled), inline_when_idle=False)  # one request at a time: the workers all the same
    for (route, body), (status_a, a, _), (status_b, b, headers) in zip(REQUESTS, here, there, strict=False):
        assert status_a == status_b == 200, (route, body, b[:200])
        if body.get("timestamps"):  # the words (timed in a worker) and the file in the JSON
            ja, jb = json.loads(a), json.loads(b)
            assert ja["words"] and ja["words"] == jb["words"]
            assert base64.b64decode(ja["audio"]) == base64.b64decode(jb["audio"])
        else:
            assert a == b, (route, body)
        assert int(headers.get("content-length", len(b))) == len(b)
    metrics = there[-1][1].decode()
    # every frontend ran in a worker; the finishing in a worker where it is work (5 of the 7), else here
    assert 'onestep_host_work_total{process="worker_process",stage="frontend"} 7.0' in metrics
    assert 'onestep_host_work_total{process="worker_process",stage="finish"} 5.0' in metrics
    assert 'onestep_host_work_total{process="server_process",stage="finish"} 2.0' in metrics
    assert 'process="worker_process"' not in here[-1][1].decode()
    assert 'onestep_stage_seconds_count{stage="finish"} 7.0' in metrics


def test_a_lone_request_stays_in_the_server_and_overlapping_ones_go_to_the_workers(pooled: TTSBackend) -> None:
    """``inline_when_idle``: an idle server keeps a lone request's host work (no hops); a request that arrives
    while another is in the frontend goes to a worker process. The same bytes either way."""
    import threading

    class SlowHere(Shared):
        def prepare_here(self, request: SynthesisRequest) -> object:
            time.sleep(1.0)  # the lone request holds the frontend while the others arrive
            return self.inner.prepare_here(request)

    def frontends(client: httpx.Client, url: str, total: int) -> tuple[float, float]:
        """(server process, worker processes): where the frontends ran, once ``total`` requests are recorded
        (a request is counted when its response has finished: just after the client has it)."""
        counts: list[float] = []

        def recorded() -> bool:
            page = client.get(url + "/metrics").text
            counts[:] = [sum(map(float, metric_values(page, f'onestep_host_work_total{{process="{p}",stage="frontend"}}')))
                         for p in ("server_process", "worker_process")]  # fmt: skip
            return sum(counts) >= total

        wait_for(recorded)
        return counts[0], counts[1]

    body = {"input": TEXT, "voice": VOICE, "response_format": "pcm"}
    with live_server(SlowHere(pooled), scheduler_kind="batch") as live, httpx.Client(timeout=60) as client:
        speech = live.url + "/v1/audio/speech"
        alone = client.post(speech, json=body)
        assert alone.status_code == 200
        assert frontends(client, live.url, 1) == (1, 0)
        answers: list[httpx.Response] = []
        first = threading.Thread(target=lambda: answers.append(client.post(speech, json=body)))
        first.start()
        time.sleep(0.3)  # the first is in the (slow) frontend here: the next three find the server busy
        others = [threading.Thread(target=lambda: answers.append(client.post(speech, json=body))) for _ in range(3)]
        for t in others:
            t.start()
        for t in [first, *others]:
            t.join()
        assert frontends(client, live.url, 5) == (2, 3)
    assert [a.status_code for a in answers] == [200] * 4
    assert all(a.content == alone.content for a in answers)


def test_errors_stay_with_their_request(pooled: TTSBackend) -> None:
    with live_server(Shared(pooled), scheduler_kind="batch", max_phonemes=40) as live, httpx.Client(timeout=60) as c:
        speech = live.url + "/v1/audio/speech"
        nothing = c.post(speech, json={"input": "★★", "voice": VOICE, "response_format": "pcm"})
        assert nothing.status_code == 422 and nothing.json()["error"]["code"] == "nothing_to_speak"
        long = c.post(speech, json={"input": TEXT * 4, "voice": VOICE, "response_format": "pcm", "sample_rate": 16000})
        assert long.status_code == 413 and long.json()["error"]["code"] == "too_much_work"
        ok = c.post(speech, json={"input": "你好。", "voice": VOICE, "response_format": "pcm", "sample_rate": 16000})
        assert ok.status_code == 200 and len(ok.content) > 1000
    # the refused request's worker forgot it: nothing kept in either worker (checked through a worker call)
    assert [pooled._host.pool.submit(worker_state, worker=i).result() for i in range(2)] == [{}, {}]


def test_a_request_whose_engine_pass_fails_is_forgotten_by_its_worker(
    pooled: TTSBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    import onestep.synthesis.passes as passes

    real = passes.engine_pass

    def failing(prepared):  # noqa: ANN001, ANN202
        if any(p.text == "坏的引擎。" for p in prepared):
            raise RuntimeError("engine says no")
        return real(prepared)

    monkeypatch.setattr(passes, "engine_pass", failing)
    with live_server(Shared(pooled), scheduler_kind="batch") as live, httpx.Client(timeout=60) as c:
        body = {"voice": VOICE, "response_format": "pcm", "sample_rate": 16000}
        bad = c.post(live.url + "/v1/audio/speech", json={"input": "坏的引擎。", **body})
        assert bad.status_code == 500 and bad.json()["error"]["code"] == "synthesis_error"
        assert c.post(live.url + "/v1/audio/speech", json={"input": TEXT, **body}).status_code == 200
    assert [pooled._host.pool.submit(worker_state, worker=i).result() for i in range(2)] == [{}, {}]


def _wait_dead(pool: HostPool, worker: int) -> None:
    procs = pool.processes
    assert procs is not None
    deadline = time.monotonic() + 20
    while procs._workers[worker].process.is_alive():
        assert time.monotonic() < deadline, "killed worker still alive"
        time.sleep(0.01)


def test_a_killed_worker_fails_only_its_requests_and_is_replaced(backend: TTSBackend, pooled: TTSBackend) -> None:
    pool = pooled._host.pool
    procs = pool.processes
    assert procs is not None
    requests = [SynthesisRequest(TEXT, VOICE, timestamps=True), SynthesisRequest(TEXT, VOICE, timestamps=True)]
    a, b = (pooled.prepare(r) for r in requests)
    assert a.remote is not None and b.remote is not None and a.remote.worker != b.remote.worker
    victim = procs.pids[a.remote.worker % len(procs)]
    os.kill(victim, signal.SIGKILL)
    _wait_dead(pool, a.remote.worker)
    results = pooled.synthesize_prepared([a, b])
    with pytest.raises(WorkerDied):
        resolve(results[0])
    expected = backend.synthesize_batch([SynthesisRequest(TEXT, VOICE)])[0]
    np.testing.assert_array_equal(resolve(results[1]), expected)
    assert as_api_error(WorkerDied("gone")).status == 503
    # the next requests go on: a new worker took the dead one's place
    again = [pooled.prepare(SynthesisRequest(TEXT, VOICE, sample_rate=16000)) for _ in range(2)]
    for audio in pooled.synthesize_prepared(again):
        assert resolve(audio).size > 0
    assert procs.pids[a.remote.worker % len(procs)] != victim and procs.replaced >= 1


def test_a_frontend_pass_that_meets_a_dead_worker_is_retried(pooled: TTSBackend) -> None:
    pool = pooled._host.pool
    procs = pool.processes
    assert procs is not None
    nxt = next(pooled._host._turn) % 2 + 1  # the place the next prepare goes to
    os.kill(procs.pids[nxt % len(procs)], signal.SIGKILL)
    _wait_dead(pool, nxt % 2)
    procs._replace = False  # the call goes to the dead worker (as when it died after the call was sent)
    try:
        prepared = pooled.prepare(SynthesisRequest(TEXT, VOICE, sample_rate=16000))
    finally:
        procs._replace = True
    assert prepared.remote is not None and prepared.remote.worker != nxt % 2  # retried on the other worker
    assert resolve(pooled.synthesize_prepared([prepared])[0]).size > 0


def test_the_streaming_scheduler_gets_the_frontend_from_the_workers(tts, backend: TTSBackend, pool: HostPool) -> None:  # noqa: ANN001
    streaming = TTSBackend(tts, host_pool=pool, finish_remote=False)
    request = SynthesisRequest(TEXT, VOICE)
    a, b = backend.prepare(request), streaming.prepare(request)
    assert b.remote is None and b.frontend_in == "worker_process" and a.frontend_in == "server_process"
    assert a.handle.utterances == b.handle.utterances
    here = np.concatenate(list(backend.stream(request)))
    there = np.concatenate(list(streaming.stream(SynthesisRequest(TEXT, VOICE, prepared=b))))
    np.testing.assert_array_equal(here, there)


def test_no_shared_memory_is_left_after_the_server_shut_down(tts) -> None:  # noqa: ANN001 - onestep.TTS
    before = set(leftover_segments(os.getpid()))  # the module's pool's own slots
    own = TTSBackend(tts, warmup_text="你好。", host_pool=HostPool(HostPoolSettings(threads=1, processes=1)))
    with live_server(own, scheduler_kind="batch") as live, httpx.Client(timeout=60) as client:
        r = client.post(live.url + "/v1/audio/speech",
                        json={"input": TEXT, "voice": VOICE, "response_format": "pcm", "sample_rate": 16000})  # fmt: skip
        assert r.status_code == 200
        assert set(leftover_segments(os.getpid())) - before  # the slots the audio went through
        procs = own._host.pool.processes
        assert procs is not None
        workers = [w.process for w in procs._workers]
    assert set(leftover_segments(os.getpid())) <= before
    assert not any(p.is_alive() for p in workers)


def test_a_voice_not_loaded_yet_is_loaded_off_the_callers_thread(pool: HostPool, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's event loop calls ``prepare_future``: a voice whose engine is not loaded must not make it wait
    for the load (an ONNX session, a GPU engine's capture); the future completes once the load is done."""
    import threading

    from onestep import TTS
    from onestep.server.host_work import HostWork

    from .conftest import FIXTURES

    fresh = TTS(voices_dir=[FIXTURES], threads=1, preload=False)
    resources = fresh._resources
    gate, loading = threading.Event(), threading.Event()
    real_load = resources.engine_kind.load

    def slow_load(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        loading.set()
        assert gate.wait(30), "the test never opened the gate"
        return real_load(*args, **kwargs)

    monkeypatch.setattr(resources, "engine_kind", type("Kind", (), {"load": staticmethod(slow_load)})())
    host = HostWork(fresh, pool)
    returned: list[object] = []
    caller = threading.Thread(target=lambda: returned.append(host.prepare_future(
        TEXT, VOICE, 1.0, OutputOptions(16000, 0.0), False, None, None)))  # fmt: skip
    caller.start()
    caller.join(10)
    try:
        assert returned and loading.wait(10), "prepare_future waited for the voice's load"
        (pending,) = returned
        assert not pending.done()  # type: ignore[attr-defined]
    finally:
        gate.set()
    prepared, _ = pending.result(timeout=60)  # type: ignore[attr-defined]
    assert prepared.ids and resources.has_engine(resources.voices.entry(VOICE, TEXT))
    again = host.prepare_future(TEXT, VOICE, 1.0, OutputOptions(16000, 0.0), False, None, None)
    assert again.result(timeout=60)[0].ids == prepared.ids  # loaded: asked straight away, same ids
