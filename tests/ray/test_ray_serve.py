"""The server behind Ray Serve: the same HTTP surface (streaming included), explicit backpressure, and a
replica killed under load (its requests end, a new replica takes its place)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import numpy as np
import pytest

from onestep.runtime.pcm import to_pcm16
from onestep.server.backend import SynthesisRequest, TTSBackend
from onestep.server.config import ServerConfig

from .conftest import FIXTURES, VOICE

TEXT = "你好，世界。这是对服务器的一个简短测试。"
PORT_KEY = "port"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def serve_url(ray_cluster: Any) -> Iterator[str]:
    from ray import serve

    port = _free_port()
    serve.start(http_options={"host": "127.0.0.1", PORT_KEY: port})
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        serve.shutdown()


def deploy(admission_deadline_ms: float = 2000.0, **scaling: Any) -> None:
    """(Re)deploy the app as ``onestep`` at ``/`` and wait until it is running."""
    from ray import serve

    from onestep.server.ray_serve import ReplicaSettings, ScalingOptions, build_app

    server = ServerConfig(voices_dirs=(FIXTURES,), workers=1, threads=1, max_chars=2000,
                          admission_deadline_ms=admission_deadline_ms)  # fmt: skip
    options = {"num_cpus": 0.5, "health_check_period_s": 1.0} | scaling
    serve.run(build_app(ReplicaSettings(server), ScalingOptions(**options)), name="onestep", route_prefix="/")


def replica_actors() -> list[str]:
    import ray

    return sorted(
        a["name"]
        for a in ray.util.list_named_actors(all_namespaces=True)
        if a["name"].startswith("SERVE_REPLICA::onestep#")
    )


def running_replicas() -> int:
    from ray import serve

    status = serve.status().applications["onestep"]
    return sum(d.replica_states.get("RUNNING", 0) for d in status.deployments.values())


def test_same_http_surface_streaming_through_serve(serve_url: str) -> None:
    from onestep import TTS

    deploy(min_replicas=2, max_replicas=2)
    expected = b"".join(
        to_pcm16(c) for c in TTSBackend(TTS(voices_dir=[FIXTURES], threads=1)).stream(SynthesisRequest(TEXT, VOICE))
    )
    with httpx.Client(base_url=serve_url, timeout=60) as http:
        assert http.get("/health").json()["status"] == "ok"
        assert VOICE in {v["name"] for v in http.get("/v1/voices").json()["voices"]}
        body = {"model": "onestep", "input": TEXT, "voice": VOICE, "response_format": "pcm"}
        with http.stream("POST", "/v1/audio/speech", json=body) as r:
            assert r.status_code == 200 and r.headers["content-type"] == "audio/pcm"
            assert r.headers.get("transfer-encoding") == "chunked"  # streamed, not buffered by the proxy
            assert float(r.headers["x-time-to-first-audio-ms"]) > 0
            data = b"".join(r.iter_raw())
        assert data == expected  # the same audio as the engine alone
        with http.stream("POST", "/v1/audio/speech", json=body | {"stream_format": "sse"}) as r:
            events = [line for line in r.iter_lines() if line.startswith("data: ")]
        assert events[-1] == 'data: {"type": "speech.audio.done"}' and len(events) >= 2
        r = http.post("/synthesize", json={"text": TEXT, "voice": VOICE, "format": "wav"})
        assert r.status_code == 200 and r.content[:4] == b"RIFF" and float(r.headers["x-audio-duration-s"]) > 0.5
        bad = http.post("/v1/audio/speech", json=body | {"input": " "})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "empty_input"
        assert "onestep_requests_total" in http.get("/metrics").text


def test_backpressure_is_503_with_retry_after(serve_url: str) -> None:
    # Serve's own backpressure is under test: the replica's admission by time (which refuses on its own when a
    # loaded machine makes the estimated wait long) is set to count-based only
    deploy(admission_deadline_ms=0, min_replicas=1, max_replicas=1, max_ongoing_requests=1, max_queued_requests=1,
           retry_after_s=2)  # fmt: skip
    long_text = "今天天气很好，我们一起去公园散步吧。" * 60  # ~1000 characters: a few hundred ms each
    results: dict[int, tuple[int, str | None]] = {}

    def one(i: int) -> None:
        r = httpx.post(f"{serve_url}/synthesize", json={"text": long_text, "voice": VOICE, "format": "pcm"},
                       timeout=120)  # fmt: skip
        results[i] = (r.status_code, r.headers.get("retry-after"))

    # The first request arrives alone, so the replica takes it; the other nine arrive together while it runs:
    # one may wait in the proxy's queue, the rest must be refused at once. (Which of the nine gets the queue
    # slot is Ray's race: nine arrivals at the same instant can all be refused.)
    first = threading.Thread(target=one, args=(0,))
    first.start()
    time.sleep(0.3)
    threads = [threading.Thread(target=one, args=(i,)) for i in range(1, 10)]
    for t in threads:
        t.start()
    for t in [first, *threads]:
        t.join(timeout=150)
    assert len(results) == 10, "a request was never answered"
    codes = [results[i][0] for i in range(10)]
    assert codes[0] == 200 and set(codes) <= {200, 503} and codes.count(503) >= 1, codes
    assert all(retry == "2" for code, retry in results.values() if code == 503)


def test_replica_killed_mid_load_requests_end_and_it_is_replaced(serve_url: str) -> None:
    import ray

    deploy(min_replicas=2, max_replicas=2)
    before = replica_actors()
    assert len(before) == 2
    outcomes: list[str] = []
    stop = time.monotonic() + 12
    body = {"model": "onestep", "input": TEXT * 4, "voice": VOICE, "response_format": "pcm"}

    def client() -> None:
        with httpx.Client(base_url=serve_url, timeout=httpx.Timeout(30.0, connect=5.0)) as http:
            while time.monotonic() < stop:
                try:
                    with http.stream("POST", "/v1/audio/speech", json=body) as r:
                        n = sum(len(b) for b in r.iter_raw())
                        outcomes.append("ok" if r.status_code == 200 and n > 0 else f"status {r.status_code}")
                except httpx.TimeoutException:
                    outcomes.append("timeout")  # a hang: what must not happen
                except httpx.TransportError:
                    outcomes.append("cut")  # the stream of a request on the killed replica

    clients = [threading.Thread(target=client) for _ in range(4)]
    for t in clients:
        t.start()
    time.sleep(3)
    ok_before_kill = outcomes.count("ok")
    ray.kill(ray.get_actor(before[0], namespace="serve"), no_restart=True)
    for t in clients:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in clients), "a client hung"
    assert "timeout" not in outcomes
    assert ok_before_kill > 0 and outcomes.count("ok") > ok_before_kill  # the live replica kept serving
    assert set(outcomes) <= {"ok", "cut", "status 500", "status 502", "status 503"}, set(outcomes)
    deadline = time.monotonic() + 90
    while not (running_replicas() == 2 and before[0] not in replica_actors()):
        assert time.monotonic() < deadline, "the killed replica was not replaced"
        time.sleep(0.5)
    assert len(replica_actors()) == 2
    with httpx.Client(base_url=serve_url, timeout=30) as http:
        codes = [http.post("/v1/audio/speech", json=body).status_code for _ in range(6)]
    assert codes == [200] * 6
    # the replacement is warm and serves (both replicas answer /health)
    assert np.all([httpx.get(f"{serve_url}/health", timeout=10).status_code == 200 for _ in range(4)])


def test_autoscaling_adds_a_replica_under_load(serve_url: str) -> None:
    from ray import serve

    serve.delete("onestep")  # a fresh deployment (a redeployment would keep the replicas running now)
    deploy(min_replicas=1, max_replicas=2, target_ongoing_requests=1)
    assert running_replicas() == 1
    done = threading.Event()
    text = "今天天气很好，我们一起去公园散步吧。" * 10

    def client() -> None:
        with httpx.Client(base_url=serve_url, timeout=60) as http:
            while not done.is_set():
                r = http.post("/synthesize", json={"text": text, "voice": VOICE, "format": "pcm"})
                # 503: the replica's admission by time refuses what could not start within its deadline
                assert r.status_code in (200, 503), r.status_code

    clients = [threading.Thread(target=client) for _ in range(4)]
    for t in clients:
        t.start()
    try:
        deadline = time.monotonic() + 60
        while running_replicas() < 2:  # 4 requests in flight against a target of 1 per replica
            assert time.monotonic() < deadline, "no second replica under load"
            time.sleep(0.5)
    finally:
        done.set()
        for t in clients:
            t.join(timeout=60)
