"""The load test's pacing modes, processes and request log; the micro-batching path end to end (on CPU):
frontend threads, whole-audio plain bodies, GC tuning and the GC / event-loop metrics."""

from __future__ import annotations

import asyncio
import gc
import io
import json
import re
import time

import httpx
import numpy as np
import pytest
import soundfile as sf

from onestep_dev.bench.load_report import FIELDS, summarize
from onestep_dev.bench.load_test import LoadTestError, LoadTestSettings, _run_clients, run_load_test
from onestep.server.app import GC_GEN0_THRESHOLD
from onestep.server.backend import BackendInputError, SynthesisRequest, TTSBackend
from onestep.server.encoders import supported_formats

from .conftest import TEXT, VOICE, LiveServer, live_server, metric_values, wait_for

SHORT = ("你好。", "一个简短的测试。")


@pytest.fixture(scope="module")
def batch_server(backend: TTSBackend):  # noqa: ANN201
    """The real backend behind the micro-batching scheduler (the CUDA path), on CPU."""
    with live_server(backend, scheduler_kind="batch", batch_window_ms=5, max_batch=8, queue_size=64) as live:
        yield live


def test_realtime_pacing_waits_for_the_audio_to_play(server: LiveServer) -> None:
    result = run_load_test(server.url, concurrency=1, duration=3.0, pace="realtime", texts=("你好。",), voice=VOICE,
                           ramp_s=0, warmup_s=0)  # fmt: skip
    rows = [dict(zip(FIELDS, r, strict=True)) for r in result["request_log"]["rows"]]
    assert result["errors"] == {} and len(rows) >= 2
    for a, b in zip(rows, rows[1:], strict=False):  # the next request starts once the last audio has played
        assert b["start_s"] >= a["start_s"] + (a["ttfa_ms"] / 1000) + a["audio_s"] - 0.01


def test_closed_loop_over_two_processes_with_a_steady_window(server: LiveServer) -> None:
    result = run_load_test(server.url, concurrency=2, duration=3.0, processes=2, texts=SHORT, voice=VOICE,
                           warmup_s=1.0)  # fmt: skip  (seconds to spare for a loaded CI machine)
    assert result["processes"] == 2 and result["errors"] == {}
    clients = {r[0] for r in result["request_log"]["rows"]}
    assert clients == {0, 1}  # both processes' clients reported
    steady = result["steady"]
    assert steady["window_s"] == [1.0, 3.0]
    assert 0 < steady["requests"] < result["requests"]
    assert steady["server_ttfa_ms"]["p50"] is not None  # X-Time-To-First-Audio-Ms read


def test_every_client_connects_before_the_common_start(server: LiveServer) -> None:
    """The clients' setup and first connection happen before the clock starts, not in the first requests."""
    settings = LoadTestSettings(server.url, 3, 1.0, texts=SHORT, voice=VOICE, ramp_s=0, processes=1)
    state = server.server.server_state
    before = state.total_requests
    at_start: dict[str, int] = {}

    async def start() -> float:
        at_start["requests"] = state.total_requests - before
        at_start["connections"] = len(state.connections)
        return time.perf_counter()

    rows = asyncio.run(_run_clients(settings, range(3), 24000, start, budget=3))
    assert at_start["requests"] == 3  # one GET /health per client, none of them measured
    assert at_start["connections"] >= 3  # ... each on its own connection, still open at the start
    assert len(rows) == 3 and all(row[2] == 200 for row in rows)
    assert state.total_requests - before == 6


def test_rate_pacing_spaces_the_requests(server: LiveServer) -> None:
    result = run_load_test(server.url, concurrency=1, duration=1.0, pace="rate", rate=4.0, texts=SHORT, voice=VOICE,
                           ramp_s=0)  # fmt: skip
    starts = [r[1] for r in result["request_log"]["rows"]]
    assert 3 <= len(starts) <= 5
    assert all(start >= k * 0.25 - 0.01 for k, start in enumerate(starts))  # on the schedule, never ahead


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"pace": "sometimes"}, "pace must be"),
        ({"pace": "rate"}, "rate is given exactly"),
        ({"rate": 5.0}, "rate is given exactly"),
        ({"processes": 0}, "processes"),
        ({"warmup_s": 9.0}, "warmup_s"),
        ({"texts": ("",)}, "texts"),
    ],
)
def test_load_test_settings_reject_bad_values(options: dict, match: str) -> None:
    with pytest.raises(LoadTestError, match=match):
        LoadTestSettings("http://127.0.0.1:1", 1, 2.0, **options)


def test_summary_separates_the_steady_window() -> None:
    rows = [(0, 0.1, 200, 50.0, 60.0, 1.0, 40.0), (0, 1.2, 200, 5.0, 9.0, 1.0, 3.0), (1, 1.5, 503, None, None, 0, None)]
    result = summarize(rows, wall_s=2.0, steady_from_s=1.0, steady_to_s=2.0, settings={"url": "u"})
    assert result["requests"] == 3 and result["errors"] == {"503": 1}
    assert result["steady"]["ttfa_ms"]["p99"] == 5.0 and result["steady"]["errors"] == {"503": 1}
    assert result["ttfa_ms"]["max"] == 50.0


def test_batch_scheduler_answers_whole_audio_as_a_plain_body(batch_server: LiveServer, tts) -> None:  # noqa: ANN001
    r = httpx.post(batch_server.url + "/v1/audio/speech",
                   json={"model": "tts-1", "input": TEXT, "voice": VOICE, "response_format": "pcm"}, timeout=30)  # fmt: skip
    assert r.status_code == 200
    assert r.headers["content-length"] == str(len(r.content))  # not chunked
    assert "transfer-encoding" not in r.headers
    assert float(r.headers["x-time-to-first-audio-ms"]) > 0
    alone = tts.synthesize(TEXT, voice=VOICE).samples
    got = np.frombuffer(r.content, dtype="<i2").astype(np.float32) / 32767
    assert got.size == alone.size
    np.testing.assert_allclose(got, alone, atol=2e-3)
    wav = httpx.post(batch_server.url + "/v1/audio/speech", json={"model": "tts-1", "input": TEXT, "voice": VOICE, "response_format": "wav"},
                     timeout=30)  # fmt: skip
    assert wav.content[:4] == b"RIFF" and int.from_bytes(wav.content[40:44], "little") == 2 * alone.size
    if "flac" in supported_formats():  # a compressed whole file, encoded off the event loop
        flac = httpx.post(batch_server.url + "/v1/audio/speech",
                          json={"model": "tts-1", "input": TEXT, "voice": VOICE, "response_format": "flac"}, timeout=30)  # fmt: skip
        decoded, rate = sf.read(io.BytesIO(flac.content), dtype="float32")
        assert flac.status_code == 200 and rate == 24000 and decoded.size == alone.size
        np.testing.assert_allclose(decoded, alone, atol=2e-3)


def test_batch_scheduler_under_concurrent_load(batch_server: LiveServer) -> None:
    result = run_load_test(batch_server.url, concurrency=6, duration=1.5, texts=SHORT, voice=VOICE)
    assert result["errors"] == {} and result["ok"] >= 6
    metrics = httpx.get(batch_server.url + "/metrics").text
    assert "onestep_event_loop_lag_seconds_count" in metrics
    assert "onestep_queue_depth 0.0" in metrics and "onestep_in_flight 0.0" in metrics

    def idle_collections() -> float:  # the requests' leftovers, collected now that none is in flight
        text = httpx.get(batch_server.url + "/metrics").text
        found = re.findall(r'^onestep_gc_pause_seconds_count\{generation="\d",trigger="idle"\} (\S+)', text, re.M)
        return sum(map(float, found))

    wait_for(lambda: idle_collections() > 0, timeout=10)


def test_batch_scheduler_reports_unusable_text_as_400(batch_server: LiveServer) -> None:
    r = httpx.post(batch_server.url + "/synthesize", json={"text": "，。！", "voice": VOICE}, timeout=30)
    assert r.status_code == 422  # nothing speakable: never an empty 200
    assert r.json()["error"]["code"] == "nothing_to_speak"


def test_prepare_runs_the_frontend_and_batches_by_engine(backend: TTSBackend) -> None:
    a, b = backend.prepare(SynthesisRequest(TEXT, VOICE)), backend.prepare(SynthesisRequest("你好。", VOICE))
    assert a.engine_key == b.engine_key and len(a.utterances) >= 1 and all(u[0] == 0 == u[-1] for u in a.utterances)
    one, two = backend.synthesize_prepared([a, b])
    assert one.dtype == np.float32 and one.size > two.size > 0
    with pytest.raises(BackendInputError):
        backend.prepare(SynthesisRequest(TEXT, VOICE, speed=50.0))


def test_gc_is_frozen_after_warm_up(batch_server: LiveServer) -> None:
    assert batch_server.state.ready
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] >= GC_GEN0_THRESHOLD


FRONTEND_S = 0.2  # seconds a slowed text frontend takes longer


class SlowFrontend:
    """The real backend with a text frontend that takes :data:`FRONTEND_S` longer (in this process or not)."""

    def __init__(self, inner: TTSBackend) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def prepare(self, request: SynthesisRequest) -> object:
        time.sleep(FRONTEND_S)
        return self.inner.prepare(request)

    def prepare_here(self, request: SynthesisRequest) -> object:
        time.sleep(FRONTEND_S)
        return self.inner.prepare_here(request)

    def close(self) -> None:  # the module's backend outlives this server
        pass


@pytest.mark.parametrize("scheduler_kind", ["pool", "batch"])
def test_time_to_first_audio_counts_the_text_frontend(backend: TTSBackend, scheduler_kind: str) -> None:
    """The routes run the frontend before they submit; what the server reports as time to first audio (the
    header, the WebSocket's ``end``, the metric) still starts before it, as the client's wait does."""
    from websockets.sync.client import connect

    def ttfa_sum(page: str) -> float:
        return sum(map(float, metric_values(page, 'onestep_time_to_first_audio_seconds_sum{endpoint="speech"}')))

    with live_server(SlowFrontend(backend), scheduler_kind=scheduler_kind) as live, httpx.Client(timeout=60) as client:
        r = client.post(live.url + "/v1/audio/speech",
                        json={"model": "tts-1", "input": TEXT, "voice": VOICE, "response_format": "pcm"})  # fmt: skip
        assert r.status_code == 200 and r.content
        assert float(r.headers["x-time-to-first-audio-ms"]) >= FRONTEND_S * 1000
        wait_for(lambda: ttfa_sum(client.get(live.url + "/metrics").text) >= FRONTEND_S)
        with connect(live.ws_url) as ws:
            ws.send(json.dumps({"text": TEXT, "voice": VOICE}))
            while isinstance(message := ws.recv(), bytes) or json.loads(message)["type"] != "end":
                pass
        end = json.loads(message)
        assert FRONTEND_S * 1000 <= end["first_chunk_ms"] <= end["total_ms"]
