"""Fixtures for the server tests: the real ``onestep.TTS`` on the tiny fixture voice, served by a real
uvicorn server on a free loopback port.

``GatedBackend`` wraps the real backend with a gate the test opens and closes, so that queue-full,
timeout, cancellation and shutdown behaviour can be produced deterministically (no sleeps racing the
engine).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import pytest
import uvicorn

from onestep.server.app import create_app
from onestep.server.backend import PreparedRequest, SynthesisBackend, SynthesisRequest, TTSBackend, VoiceInfo
from onestep.server.config import ServerConfig
from onestep.server.phrases import PhraseCache
from onestep.server.scheduler import Scheduler
from onestep.server.state import ServerState

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VOICE = "tiny"
# Mandarin text throughout: the Mandarin frontend loads in ~2 s, the English one in ~10 s (kept out of this suite).
TEXT = "你好，世界。这是对服务器的一个简短测试。"


@pytest.fixture(scope="session")
def tts():  # noqa: ANN201 - onestep.TTS
    from onestep import TTS

    return TTS(voices_dir=[FIXTURES], threads=1)


@pytest.fixture(scope="session")
def backend(tts) -> TTSBackend:  # noqa: ANN001
    return TTSBackend(tts, warmup_text="你好。")


class GatedBackend:
    """The real backend, but each chunk (and warm-up) waits until ``gate`` / ``warm_gate`` is open, and
    then ``delay_s`` more (to stand in for a slower machine or model).

    Records the texts whose synthesis started and those whose stream was closed before its end.
    """

    def __init__(self, inner: SynthesisBackend) -> None:
        self.inner = inner
        self.gate = threading.Event()
        self.gate.set()
        self.warm_gate = threading.Event()
        self.warm_gate.set()
        self.started: list[str] = []
        self.closed_early: list[str] = []
        self.batches: list[int] = []
        self.delay_s = 0.0

    @property
    def sample_rate(self) -> int:
        return self.inner.sample_rate

    def voices(self) -> list[VoiceInfo]:
        return self.inner.voices()

    def stream(self, request: SynthesisRequest) -> Iterator[np.ndarray]:
        self.started.append(request.text)
        finished = False
        try:
            for chunk in self.inner.stream(request):
                assert self.gate.wait(timeout=30), "test left the gate closed"
                time.sleep(self.delay_s)
                yield chunk
            finished = True
        finally:
            if not finished:
                self.closed_early.append(request.text)

    def synthesize_batch(self, requests: Sequence[SynthesisRequest]) -> list[np.ndarray]:
        return self.synthesize_prepared([self.prepare(r) for r in requests])

    def prepare(self, request: SynthesisRequest) -> PreparedRequest:
        return self.inner.prepare(request)  # text only: ``started`` records engine work

    def synthesize_prepared(self, batch: Sequence[PreparedRequest]) -> list[np.ndarray]:
        self.started.extend(p.request.text for p in batch)
        assert self.gate.wait(timeout=30), "test left the gate closed"
        time.sleep(self.delay_s)
        self.batches.append(len(batch))
        return self.inner.synthesize_prepared(batch)

    def warm_up(self) -> None:
        assert self.warm_gate.wait(timeout=30), "test left the warm-up gate closed"
        self.inner.warm_up()


@dataclass
class LiveServer:
    """A uvicorn server running ``app`` in a background thread."""

    url: str
    state: ServerState
    server: uvicorn.Server
    thread: threading.Thread
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def ws_url(self) -> str:
        return "ws" + self.url[len("http") :] + "/v1/stream"

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.state.ready:
            if time.monotonic() > deadline:
                raise TimeoutError("server did not finish warming up")
            time.sleep(0.01)


@contextmanager
def live_server(
    backend: SynthesisBackend,
    scheduler: Scheduler | None = None,
    *,
    wait_ready: bool = True,
    phrases: PhraseCache | None = None,
    **config: object,
) -> Iterator[LiveServer]:
    """Serve ``backend`` on a free loopback port with ``ServerConfig(**config)`` (and the phrase cache
    ``phrases``); stop on exit."""
    cfg = replace(ServerConfig(port=0, workers=2, threads=1), **config)  # type: ignore[arg-type]
    app = create_app(cfg, backend, scheduler, phrases)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                           ws_max_size=cfg.max_body_bytes, timeout_graceful_shutdown=5))  # fmt: skip
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    live = LiveServer(f"http://127.0.0.1:{port}", app.state.onestep, server, thread)
    if wait_ready:
        live.wait_ready()
    try:
        yield live
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@pytest.fixture(scope="session")
def server(backend: TTSBackend) -> Iterator[LiveServer]:
    """The shared server: real TTS, default limits but a 200-character input limit."""
    with live_server(backend, max_chars=200) as live:
        yield live


@pytest.fixture
def gated(backend: TTSBackend) -> GatedBackend:
    return GatedBackend(backend)


def metric_values(page: str, name: str) -> list[str]:
    """The values of the sample ``name`` (with its labels) in a Prometheus text page (``/metrics``)."""
    return [line.rsplit(" ", 1)[1] for line in page.splitlines() if line.startswith(name + " ")]


def wait_for(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    """Poll ``predicate`` until it holds (fails the test after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.005)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
