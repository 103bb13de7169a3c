"""Behaviour under load: bounded queue (503 + Retry-After), timeouts (504), cancellation on disconnect,
warm-up before ready, draining on shutdown, and GPU-style micro-batching (run here on CPU)."""

from __future__ import annotations

import asyncio
import time

import httpx
import numpy as np
import pytest

from onestep.server.backend import SynthesisRequest
from onestep.server.scheduler import MicroBatchScheduler, ThreadPoolScheduler

from .conftest import TEXT, VOICE, GatedBackend, live_server, wait_for


def test_full_queue_answers_503_with_retry_after(gated: GatedBackend) -> None:
    with live_server(gated, workers=1, queue_size=1) as live:

        async def scenario() -> list[httpx.Response]:
            async with httpx.AsyncClient(base_url=live.url, timeout=30) as client:
                gated.gate.clear()
                body = {"text": TEXT, "voice": VOICE, "format": "pcm"}
                running = asyncio.create_task(client.post("/synthesize", json=body))
                await asyncio.to_thread(wait_for, lambda: len(gated.started) == 1)
                queued = asyncio.create_task(client.post("/synthesize", json=body))
                await asyncio.to_thread(wait_for, lambda: live.state.scheduler.queue_depth == 1)
                refused = await client.post("/synthesize", json=body)
                gated.gate.set()
                return [await running, await queued, refused]

        running, queued, refused = asyncio.run(scenario())
        assert running.status_code == queued.status_code == 200
        assert running.content == queued.content
        assert refused.status_code == 503
        assert int(refused.headers["retry-after"]) >= 1
        assert refused.json()["error"] == {
            "message": "server busy: 1 requests already waiting",
            "type": "server_busy",
            "param": None,
            "code": "queue_full",
        }
        assert live.state.scheduler.in_flight == 0


def test_request_past_its_timeout_gets_504(gated: GatedBackend) -> None:
    with live_server(gated, workers=1, timeout=0.3) as live:
        gated.gate.clear()
        try:
            r = httpx.post(live.url + "/v1/audio/speech", json={"model": "tts-1", "input": TEXT}, timeout=10)
        finally:
            gated.gate.set()
        assert r.status_code == 504
        assert r.json()["error"]["type"] == "timeout_error"
        assert 'onestep_errors_total{type="timeout_error"} 1.0' in httpx.get(live.url + "/metrics").text


def test_a_long_stream_that_keeps_producing_is_not_cut_by_the_timeout(gated: GatedBackend) -> None:
    gated.delay_s = 0.05  # per chunk: the whole stream takes several timeouts, no gap is one
    long_text = " ".join([TEXT] * 4)
    with live_server(gated, workers=1, timeout=0.3) as live:
        body = {"model": "tts-1", "input": long_text, "voice": VOICE, "response_format": "pcm"}
        t0 = time.perf_counter()
        r = httpx.post(live.url + "/v1/audio/speech", json=body, timeout=60)
        elapsed = time.perf_counter() - t0
    gated.delay_s = 0.0
    assert r.status_code == 200
    assert elapsed > 0.3  # longer than the timeout in total
    expected = gated.inner.synthesize_batch([_request(long_text)])[0]
    assert len(r.content) == 2 * expected.size


def test_disconnected_client_cancels_queued_and_streaming_work(gated: GatedBackend) -> None:
    with live_server(gated, workers=1) as live:

        async def scenario() -> None:
            gated.gate.clear()
            long_text = " ".join([TEXT] * 3)
            body = {"model": "tts-1", "input": long_text, "voice": VOICE, "response_format": "pcm"}
            async with (
                httpx.AsyncClient(base_url=live.url, timeout=30) as a,
                httpx.AsyncClient(base_url=live.url, timeout=30) as b,
            ):
                first = asyncio.create_task(a.post("/v1/audio/speech", json=body))
                await asyncio.to_thread(wait_for, lambda: len(gated.started) == 1)
                queued = asyncio.create_task(b.post("/v1/audio/speech", json={**body, "input": "从未说出。"}))
                await asyncio.to_thread(wait_for, lambda: live.state.scheduler.queue_depth == 1)
                queued.cancel()  # the client goes away while its request waits
                await b.aclose()
                first.cancel()  # and this one while its audio is being produced
                await a.aclose()
            await asyncio.sleep(0.2)
            gated.gate.set()

        asyncio.run(scenario())
        wait_for(lambda: live.state.scheduler.in_flight == 0)
        assert gated.started == [" ".join([TEXT] * 3)]  # the queued request never reached the engine
        assert gated.closed_early == gated.started  # the running one stopped before its end
        metrics = httpx.get(live.url + "/metrics").text
        assert 'onestep_requests_total{endpoint="speech",outcome="cancelled"} 2.0' in metrics


def test_streaming_client_that_stops_reading_cancels_the_rest(gated: GatedBackend) -> None:
    gated.delay_s = 0.05  # per chunk: the stream cannot end before the client has left
    with live_server(gated, workers=1) as live:
        long_text = " ".join([TEXT] * 4)
        body = {"model": "tts-1", "input": long_text, "voice": VOICE, "response_format": "pcm"}
        with httpx.stream("POST", live.url + "/v1/audio/speech", json=body, timeout=30) as r:
            gated.gate.clear()  # hold production after the first chunks
            next(r.iter_bytes())
        gated.gate.set()
        wait_for(lambda: live.state.scheduler.in_flight == 0)
        assert gated.closed_early == [long_text]


def test_health_is_503_until_warm_up_is_done(gated: GatedBackend) -> None:
    gated.warm_gate.clear()
    with live_server(gated, wait_ready=False, workers=1) as live:
        warming = httpx.get(live.url + "/health", timeout=60)
        assert warming.status_code == 503
        assert warming.json()["status"] == "warming_up"
        gated.warm_gate.set()
        live.wait_ready()
        ready = httpx.get(live.url + "/health", timeout=60)
        assert ready.status_code == 200
        assert ready.json()["status"] == "ok"


def test_shutdown_drains_in_flight_requests(gated: GatedBackend) -> None:
    with live_server(gated, workers=1) as live:

        async def scenario() -> httpx.Response:
            async with httpx.AsyncClient(base_url=live.url, timeout=30) as client:
                gated.gate.clear()
                pending = asyncio.create_task(
                    client.post("/synthesize", json={"text": TEXT, "voice": VOICE, "format": "pcm"})
                )
                await asyncio.to_thread(wait_for, lambda: len(gated.started) == 1)
                live.server.should_exit = True  # as on SIGTERM
                await asyncio.sleep(0.2)
                gated.gate.set()
                return await pending

        r = asyncio.run(scenario())
        assert r.status_code == 200
        assert len(r.content) > 0
        live.thread.join(timeout=10)
        assert not live.thread.is_alive()


def test_a_new_request_starts_before_a_long_stream_ends(gated: GatedBackend) -> None:
    """Chunk-level earliest-deadline-first: one worker, a long stream playing, a new request arrives.

    The new request's first chunk is due at once, the long stream's next chunks only shortly before its
    listener would run out of audio, so the new request is served in between instead of after it.
    """
    gated.delay_s = 0.02  # per chunk: a slower machine, so the long stream lasts many scheduling rounds
    long_text = " ".join([TEXT] * 4)

    async def scenario() -> list[str]:
        scheduler = ThreadPoolScheduler(gated, workers=1, queue_size=4, timeout_s=30)
        scheduler.start()
        events: list[str] = []

        async def drain(stream, name: str) -> None:  # noqa: ANN001
            async for _ in stream:
                events.append(name)

        long = scheduler.submit(_request(long_text))
        await long.__anext__()
        events.append("long")
        short = scheduler.submit(_request("你好。"))
        await asyncio.gather(drain(long, "long"), drain(short, "short"))
        await scheduler.stop(drain_timeout_s=5)
        return events

    events = asyncio.run(scenario())
    assert events.count("long") >= 6
    last_long = len(events) - 1 - events[::-1].index("long")
    assert events.index("short") < last_long


def test_micro_batching_groups_concurrent_requests(gated: GatedBackend) -> None:
    scheduler = MicroBatchScheduler(gated, window_ms=50, max_batch=8, queue_size=16, timeout_s=30)
    texts = ["你好，世界。", "这是一个测试。", "这里是第三句话。", "还有第四句。"]
    with live_server(gated, scheduler) as live:

        async def scenario() -> list[httpx.Response]:
            async with httpx.AsyncClient(base_url=live.url, timeout=30) as client:
                gated.gate.clear()
                tasks = [
                    asyncio.create_task(client.post("/synthesize", json={"text": t, "voice": VOICE, "format": "pcm"}))
                    for t in texts
                ]
                await asyncio.to_thread(wait_for, lambda: live.state.scheduler.in_flight == len(texts))
                gated.gate.set()
                return list(await asyncio.gather(*tasks))

        responses = asyncio.run(scenario())
    assert all(r.status_code == 200 for r in responses)
    assert max(gated.batches) > 1  # at least two requests shared one engine call
    for text, r in zip(texts, responses, strict=True):
        alone = gated.inner.synthesize_batch([_request(text)])[0]
        got = np.frombuffer(r.content, dtype="<i2").astype(np.float32) / 32767
        assert got.size == alone.size
        np.testing.assert_allclose(got, alone, atol=2e-3)


def _request(text: str) -> SynthesisRequest:
    return SynthesisRequest(text=text, voice=VOICE)


@pytest.mark.parametrize("endpoint", ["speech", "synthesize"])
def test_metrics_expose_latency_ttfa_queue_and_in_flight(server, endpoint: str) -> None:  # noqa: ANN001
    if endpoint == "speech":
        httpx.post(server.url + "/v1/audio/speech", json={"model": "tts-1", "input": TEXT}, timeout=30)
    else:
        httpx.post(server.url + "/synthesize", json={"text": TEXT}, timeout=30)
    text = httpx.get(server.url + "/metrics").text
    for line in (
        f'onestep_request_latency_seconds_count{{endpoint="{endpoint}"}}',
        f'onestep_time_to_first_audio_seconds_count{{endpoint="{endpoint}"}}',
        f'onestep_audio_seconds_total{{endpoint="{endpoint}"}}',
        "onestep_queue_depth 0.0",
        "onestep_in_flight 0.0",
    ):
        assert line in text
