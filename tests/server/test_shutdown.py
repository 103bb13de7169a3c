"""Graceful shutdown with streams in flight (issue 14, item 3): drain, /health says draining, new work is
refused, streams past the drain deadline end with an error frame, and ``onestep serve`` exits 0 on SIGTERM."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from .conftest import FIXTURES, TEXT, VOICE, GatedBackend, free_port, wait_for
from .test_abuse_http import hardened_server

SRC = Path(__file__).resolve().parents[2] / "src"


async def _open_streams(ws_url: str, n: int) -> list:
    sockets = []
    for i in range(n):
        ws = await connect(ws_url)
        await ws.send(json.dumps({"text": " ".join([TEXT] * 3), "voice": VOICE, "id": i}))
        assert json.loads(await ws.recv())["type"] == "start"
        sockets.append(ws)
    return sockets


async def _finish(ws) -> dict:
    while True:
        message = await asyncio.wait_for(ws.recv(), 30)
        if isinstance(message, str):
            return json.loads(message)


def test_drain_finishes_streams_in_flight_and_refuses_new_work(gated: GatedBackend) -> None:
    with hardened_server(gated, workers=2, drain_timeout=30) as (live, server):
        ws_url = "ws" + live.url[4:] + "/v1/stream"

        async def scenario() -> list[dict]:
            gated.gate.clear()
            sockets = await _open_streams(ws_url, 2)
            server.request_drain()
            await asyncio.to_thread(wait_for, lambda: live.state.draining)
            health = await asyncio.to_thread(httpx.get, live.url + "/health")
            assert health.status_code == 503 and health.json()["status"] == "draining"
            refused = await asyncio.to_thread(
                httpx.post, live.url + "/synthesize", json={"text": TEXT, "voice": VOICE}, timeout=30
            )
            assert refused.status_code == 503 and refused.json()["error"]["code"] == "shutting_down"
            assert "retry-after" in refused.headers
            gated.gate.set()
            ends = [await _finish(ws) for ws in sockets]
            for ws in sockets:
                await ws.close()
            return ends

        ends = asyncio.run(scenario())
        assert [e["type"] for e in ends] == ["end", "end"]
        wait_for(lambda: not live.thread.is_alive())
    assert server.clean


def test_streams_past_the_drain_deadline_end_with_an_error_frame(gated: GatedBackend) -> None:
    with hardened_server(gated, workers=2, drain_timeout=0.5) as (live, server):
        ws_url = "ws" + live.url[4:] + "/v1/stream"

        async def scenario() -> list[dict]:
            gated.gate.clear()
            sockets = await _open_streams(ws_url, 3)
            server.request_drain()
            frames = [await _finish(ws) for ws in sockets]
            gated.gate.set()
            return frames

        frames = asyncio.run(scenario())
        wait_for(lambda: not live.thread.is_alive())
    assert [f["type"] for f in frames] == ["error"] * 3
    assert sorted(f["id"] for f in frames) == [0, 1, 2]
    assert {f["error"]["code"] for f in frames} == {"shutting_down"}
    assert not server.clean


def test_serve_exits_0_after_a_clean_drain_on_sigterm() -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    command = [sys.executable, "-m", "onestep.cli", "serve", "--voices-dir", str(FIXTURES), "--port", str(port),
               "--no-warmup", "--workers", "1", "--drain-timeout", "10"]  # fmt: skip
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stdout.read().decode()  # type: ignore[union-attr]
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)
        body = {"input": " ".join([TEXT] * 40), "voice": VOICE, "response_format": "pcm"}  # ~4 MB of PCM
        with httpx.stream("POST", f"http://127.0.0.1:{port}/v1/audio/speech", json=body, timeout=60) as r:
            assert r.status_code == 200
            proc.send_signal(signal.SIGTERM)  # while the body is still on its way (unread: the socket fills up)
            time.sleep(0.5)
            assert proc.poll() is None  # draining: waits for this response
            data = r.read()
        assert len(data) > 1_000_000 and len(data) % 2 == 0
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
