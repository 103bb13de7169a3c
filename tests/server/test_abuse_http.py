"""HTTP abuse suite against a live server built as ``onestep serve`` builds it (limits, admission by time,
WebSocket origin and ids): issue 14, items 1, 2, 5 and 6."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from onestep.server.app import create_app
from onestep.server.backend import SynthesisBackend, SynthesisRequest
from onestep.server.config import ServerConfig
from onestep.server.shutdown import DrainingServer, build_server

from .conftest import TEXT, VOICE, GatedBackend, LiveServer, wait_for


@contextmanager
def hardened_server(
    backend: SynthesisBackend, http: str = "httptools", **config: object
) -> Iterator[tuple[LiveServer, DrainingServer]]:
    """``backend`` served by :func:`build_server` (``http`` parser, the limits, the drain) on a free port."""
    cfg = replace(ServerConfig(port=0, workers=2, threads=1), **config)  # type: ignore[arg-type]
    app = create_app(cfg, backend)
    server = build_server(app, cfg, http=http, log_level="warning")
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started or not thread.is_alive())
    port = server.servers[0].sockets[0].getsockname()[1]
    live = LiveServer(f"http://127.0.0.1:{port}", app.state.onestep, server, thread)
    live.wait_ready()
    try:
        yield live, server
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@pytest.fixture(scope="module")
def hardened(backend) -> Iterator[LiveServer]:
    with hardened_server(backend, max_chars=5000, max_phonemes=2000, header_timeout=0.5, body_timeout=0.5,
                         max_header_bytes=8192) as (live, _):  # fmt: skip
        yield live


def _raw(live: LiveServer) -> socket.socket:
    host, port = live.url.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def _read_all(sock: socket.socket) -> bytes:
    out = b""
    while chunk := sock.recv(65536):
        out += chunk
    return out


def test_five_thousand_digits_are_refused_413_with_the_limit(hardened: LiveServer) -> None:
    # 5,000 characters of four-digit numbers (~20,000 phonemes); one unbroken run of digits is read as its
    # first sixteen digits and "and <n> more digits", so it is no longer the amplifier
    rng = random.Random(5)
    digits = " ".join(str(rng.randrange(1000, 10000)) for _ in range(1000))[:4999]
    t0 = time.perf_counter()
    r = httpx.post(hardened.url + "/synthesize", json={"text": digits, "voice": VOICE, "format": "wav"}, timeout=60)
    assert r.status_code == 413, r.text
    error = r.json()["error"]
    assert error["code"] == "too_much_work" and "2000 phonemes" in error["message"]
    assert time.perf_counter() - t0 < 30  # refused by the frontend's count, not after minutes of audio
    r = httpx.post(hardened.url + "/v1/audio/speech", json={"input": digits, "voice": VOICE}, timeout=60)
    assert r.status_code == 413


def test_huge_headers_are_refused_431(hardened: LiveServer) -> None:
    with _raw(hardened) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n")
        reply = _read_all(sock)
    assert reply.startswith(b"HTTP/1.1 431")
    assert httpx.get(hardened.url + "/health").status_code == 200


def test_slowloris_headers_are_cut_at_the_header_timeout(hardened: LiveServer) -> None:
    with _raw(hardened) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        t0 = time.monotonic()
        for _ in range(20):  # one header line every 0.1 s: never finishes
            try:
                sock.sendall(b"X-A: b\r\n")
            except OSError:
                break
            time.sleep(0.1)
        reply = _read_all(sock)
    assert reply.startswith(b"HTTP/1.1 408") and time.monotonic() - t0 < 5


def test_a_silent_connection_is_closed(hardened: LiveServer) -> None:
    with _raw(hardened) as sock:
        t0 = time.monotonic()
        assert _read_all(sock).startswith(b"HTTP/1.1 408")
    assert time.monotonic() - t0 < 5


def test_a_slow_body_is_cut_at_the_body_timeout(hardened: LiveServer) -> None:
    with _raw(hardened) as sock:
        sock.sendall(b"POST /synthesize HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{")
        t0 = time.monotonic()
        _read_all(sock)  # closed by the server (or a 4xx), not held open
    assert time.monotonic() - t0 < 5
    assert httpx.get(hardened.url + "/health").status_code == 200


def test_skipped_characters_are_reported_in_a_header(hardened: LiveServer) -> None:
    r = httpx.post(hardened.url + "/v1/audio/speech", json={"input": "你好★，世界😀。", "voice": VOICE,
                                                           "response_format": "pcm"}, timeout=60)  # fmt: skip
    assert r.status_code == 200 and len(r.content) > 0
    assert r.headers["x-skipped-characters"] == "U+2605 U+1F600"


def test_whole_file_synthesis_refuses_work_longer_than_a_proxy_allows(hardened: LiveServer) -> None:
    model = hardened.state.scheduler.cost_model
    saved = model.s_per_phoneme
    model.s_per_phoneme = 1.0  # a machine where each phoneme takes a second
    try:
        r = httpx.post(hardened.url + "/synthesize", json={"text": TEXT, "voice": VOICE}, timeout=60)
    finally:
        model.s_per_phoneme = saved
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_slow_for_whole_file"
    assert "/v1/audio/speech" in r.json()["error"]["message"]


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [(None, True), ("SAME", True), ("https://evil.example", False), ("https://app.example", True)],
)
def test_websocket_origin_is_checked_against_the_cors_list(backend, origin: str | None, allowed: bool) -> None:
    with hardened_server(backend, cors_origins=("https://app.example",)) as (live, _):
        ws_url = "ws" + live.url[4:] + "/v1/stream"
        headers = {} if origin is None else {"Origin": live.url if origin == "SAME" else origin}

        async def scenario() -> dict:
            async with connect(ws_url, additional_headers=headers, origin=None) as ws:
                await ws.send(json.dumps({"text": "你好。", "voice": VOICE, "id": 7}))
                return json.loads(await ws.recv())

        if allowed:
            assert asyncio.run(scenario())["id"] == 7
        else:
            with pytest.raises(InvalidStatus) as err:
                asyncio.run(scenario())
            assert err.value.response.status_code == 403


def test_admission_by_time_answers_503_with_retry_after_from_the_queue(gated: GatedBackend) -> None:
    with hardened_server(gated, workers=1, admission_deadline_ms=1000) as (live, _):
        model = live.state.scheduler.cost_model
        cost = gated.prepare(SynthesisRequest(TEXT, VOICE)).cost
        model.first_s_per_phoneme = 0.6 / cost.first_phonemes  # 0.6 s per first chunk: one may wait, two may not
        model.rtf = 0.0
        gated.gate.clear()
        body = {"model": "tts-1", "input": TEXT, "voice": VOICE, "response_format": "pcm"}
        with httpx.Client(timeout=60) as client:
            results: list[httpx.Response] = []
            running = threading.Thread(target=lambda: results.append(client.post(live.url + "/v1/audio/speech", json=body)))
            running.start()
            wait_for(lambda: live.state.scheduler.in_flight == 1)
            queued = threading.Thread(target=lambda: results.append(client.post(live.url + "/v1/audio/speech", json=body)))
            queued.start()
            wait_for(lambda: live.state.scheduler.in_flight == 2)
            r = httpx.post(live.url + "/v1/audio/speech", json=body, timeout=60)
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "overloaded"
            assert 1 <= int(r.headers["retry-after"]) <= 60
            gated.gate.set()
            running.join(30)
            queued.join(30)
        assert [x.status_code for x in results] == [200, 200]


def test_micro_batching_admits_by_passes_of_the_batch_not_by_the_requests_ahead(gated: GatedBackend) -> None:
    """On a batching (GPU) engine the requests ahead cost passes of up to ``max_batch``, each a batch's time.

    The per-phoneme first-chunk estimate is set as slow as a warm-up timed during a GPU's graph capture left it
    (it refused every long request behind another one, at 290 req/s with the GPU idle): it no longer decides.
    """
    config = {"scheduler_kind": "batch", "max_batch": 2, "batch_window_ms": 0, "admission_deadline_ms": 1000}
    with hardened_server(gated, **config) as (live, _):
        scheduler = live.state.scheduler
        scheduler.cost_model.first_s_per_phoneme = 1.0  # every first chunk "over the deadline" by itself
        s_per_phoneme = scheduler.cost_model.s_per_phoneme
        scheduler.batch_s = 0.4  # a batch takes 0.4 s: the running one + one pass = 0.8 s, two passes 1.2 s
        gated.gate.clear()
        body = {"model": "tts-1", "input": TEXT, "voice": VOICE, "response_format": "pcm"}
        results: list[httpx.Response] = []
        with httpx.Client(timeout=60) as client:
            post = lambda: results.append(client.post(live.url + "/v1/audio/speech", json=body))  # noqa: E731
            running = [threading.Thread(target=post)]
            running[0].start()
            wait_for(lambda: len(gated.started) == 1)  # in the engine (held at the gate), out of the queue
            for n in (2, 3):  # queued behind it: one pass of two
                running.append(threading.Thread(target=post))
                running[-1].start()
                wait_for(lambda n=n: scheduler.in_flight == n)
            r = httpx.post(live.url + "/v1/audio/speech", json=body, timeout=60)  # would need a second pass
            assert r.status_code == 503 and r.json()["error"]["code"] == "overloaded", r.text
            gated.gate.set()
            for t in running:
                t.join(30)
        assert [x.status_code for x in results] == [200, 200, 200]
        assert scheduler.cost_model.s_per_phoneme != s_per_phoneme  # each request's share of its batch taught it
        scheduler.batch_s = 5.0
        assert httpx.post(live.url + "/v1/audio/speech", json=body, timeout=60).status_code == 200
        assert scheduler.batch_s < 5.0  # and every batch run teaches the batch time


def test_start_delay_counts_waiting_first_chunks_and_refuses_what_cannot_keep_real_time() -> None:
    from onestep.server.admission import retry_after_s, start_delay_s

    # two threads, nothing playing: the waiting first chunks and this one's, over both threads
    assert start_delay_s(1.0, 0.2, threads=2, playing=0, rtf=0.1) == pytest.approx(0.6)
    # ten playing streams at rtf 0.1 take one thread: the rest goes at half the speed
    assert start_delay_s(1.0, 0.2, threads=2, playing=10, rtf=0.1) == pytest.approx(1.2)
    # 30 streams at rtf 0.1 need 3 threads of 2: past the deadline whatever the backlog
    assert start_delay_s(0.0, 0.1, threads=2, playing=29, rtf=0.1, deadline_s=2.0) > 2.0
    assert retry_after_s(5.2, 2.0) == 4 and retry_after_s(0.1, 2.0) == 1 and retry_after_s(1e9, 2.0) == 60


def test_the_h11_parser_gets_the_same_limits(backend) -> None:
    with hardened_server(backend, http="h11", header_timeout=0.5, max_header_bytes=4096) as (live, _):
        with _raw(live) as sock:  # silent: closed with a 408
            t0 = time.monotonic()
            assert _read_all(sock).startswith(b"HTTP/1.1 408") and time.monotonic() - t0 < 5
        with _raw(live) as sock:  # headers over the limit: refused (h11 answers 400 / closes)
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n")
            reply = _read_all(sock)
            assert not reply.startswith(b"HTTP/1.1 200")
        with _raw(live) as sock:  # slowloris
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            t0 = time.monotonic()
            for _ in range(20):
                try:
                    sock.sendall(b"X-A: b\r\n")
                except OSError:
                    break
                time.sleep(0.1)
            assert _read_all(sock).startswith(b"HTTP/1.1 408") and time.monotonic() - t0 < 5
        assert httpx.get(live.url + "/health").status_code == 200


class _SlowFrontend(GatedBackend):
    """The real backend whose text frontend waits for ``frontend_gate``."""

    def __init__(self, inner: SynthesisBackend) -> None:
        super().__init__(inner)
        self.frontend_gate = threading.Event()

    def prepare(self, request: SynthesisRequest):  # noqa: ANN201
        assert self.frontend_gate.wait(timeout=30), "test left the frontend gate closed"
        return super().prepare(request)


def test_requests_waiting_for_the_frontend_are_bounded_too(backend) -> None:  # noqa: ANN001
    slow = _SlowFrontend(backend)
    with hardened_server(slow, workers=1, queue_size=1, warmup=False) as (live, _):
        body = {"text": "你好。", "voice": VOICE}
        results: list[int] = []
        held = [threading.Thread(target=lambda: results.append(httpx.post(live.url + "/synthesize", json=body,
                                                                          timeout=60).status_code))
                for _ in range(2)]  # fmt: skip
        for t in held:
            t.start()
        wait_for(lambda: live.state.preparing == 2)
        r = httpx.post(live.url + "/synthesize", json=body, timeout=60)
        assert r.status_code == 503 and r.json()["error"]["code"] == "queue_full"
        slow.frontend_gate.set()
        for t in held:
            t.join(30)
        assert results == [200, 200]
