"""Replay issue 26's memory and event-loop probes against a real ``onestep serve`` (shipped voices, loopback).

Starts the server as a subprocess with default settings, waits for ``/health``, then:

1. ``say-as``: the issue's request (``<speak><say-as interpret-as="characters">A x 4900</say-as></speak>``,
   speed 0.25, 48 kHz, pcm) once, read normally: its status (the audio cap answers 413 before any work).
2. ``never-read``: two sockets with a 4 KiB receive buffer each send the largest streaming request the
   server allows of plain prose (English, speed 0.25 -> 0.5, 48 kHz, pcm) and never read. The server's RSS
   (process tree) is sampled every 0.1 s and ``/health`` is polled until both streams are cut (write timeout)
   plus 3 s: peak RSS above the idle baseline, RSS after, the slowest ``/health``.
   ``never-read-ws``: the same with two WebSocket clients (a raw handshake, one request, then never read).
3. ``largest-synthesize``: ``/synthesize`` of the largest allowed prose text (48 kHz, mp3 or flac, timestamps)
   while ``/health`` is polled: the slowest ``/health`` and the reply's duration.

4. ``never-read-wyoming``: ``onestep wyoming`` started after the HTTP server stops; two never-reading clients
   each send one ``synthesize`` of the same text (24 kHz); RSS as in 2.

Prints one JSON object. Usage::

    PYTHONPATH=src:dev/src python lab/tools/one_client_probe.py [--port 8765] [--voice en-heart] [--write-timeout-wait 45]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time

import httpx
import psutil

PROSE = (
    "The committee met on a grey morning to weigh the plan for the new library, and every member had brought "
    "a different idea of what a library should be. Some wanted quiet rooms and long tables; others wanted "
    "workshops, music and a cafe by the door. "
)


def tree_rss_mb(proc: psutil.Process) -> float:
    """RSS of ``proc`` and its children, MB."""
    total = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            total += p.memory_info().rss
        except psutil.Error:
            pass
    return total / 1e6


def wait_health(url: str, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url + "/health", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise TimeoutError("server never became healthy")


def largest_prose(url: str, voice: str, speed: float, max_chars: int = 5000) -> str:
    """The longest repetition of :data:`PROSE` (up to ``max_chars``) that the streaming route admits (no 413)."""
    n = max_chars // len(PROSE)
    while n > 0:
        text = (PROSE * n)[:max_chars]
        body = {"input": text, "voice": voice, "speed": speed, "response_format": "pcm", "sample_rate": 48000}
        with httpx.stream("POST", url + "/v1/audio/speech", json=body, timeout=120) as r:
            if r.status_code != 413:
                return text
        n = n * 3 // 4
    raise RuntimeError("no prose text is admitted")


def never_reading(port: int, body: bytes) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"POST /v1/audio/speech HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: %d\r\n\r\n%s" % (len(body), body))  # fmt: skip
    return sock


def ws_never_reading(port: int, message: dict) -> socket.socket:
    """A WebSocket client on a 4 KiB receive buffer: handshake, one request, then it never reads."""
    import base64

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())  # fmt: skip
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    payload, mask = json.dumps(message).encode(), os.urandom(4)
    n = len(payload)
    header = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big") if n < 65536
                              else bytes([0x80 | 127]) + n.to_bytes(8, "big"))  # fmt: skip
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    return sock


def wyoming_never_reading(port: int, text: str) -> socket.socket:
    """A Wyoming client on a 4 KiB receive buffer: one synthesize event, then it never reads."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", port))
    sock.sendall(json.dumps({"type": "synthesize", "data": {"text": text}}).encode() + b"\n")
    return sock


def watch(proc: psutil.Process, url: str | None, socks: list[socket.socket], seconds: float) -> dict[str, object]:
    """Sample ``proc``'s RSS every 0.1 s (and poll ``url``/health) for ``seconds`` while ``socks`` never read."""
    base = tree_rss_mb(proc)
    stop, waits = threading.Event(), []
    poller = threading.Thread(target=poll_health, args=(url, stop, waits)) if url else None
    if poller:
        poller.start()
    peak, t0 = base, time.monotonic()
    while time.monotonic() - t0 < seconds:
        peak = max(peak, tree_rss_mb(proc))
        time.sleep(0.1)
    stop.set()
    if poller:
        poller.join()
    after = tree_rss_mb(proc)
    for s in socks:
        s.close()
    out: dict[str, object] = {"clients": len(socks), "baseline_rss_mb": round(base, 1),
                              "peak_above_baseline_mb": round(peak - base, 1), "after_mb": round(after, 1)}  # fmt: skip
    if waits:
        out.update(health_max_s=round(max(waits), 3), health_polls=len(waits))
    return out


def poll_health(url: str, stop: threading.Event, waits: list[float]) -> None:
    with httpx.Client(timeout=60) as client:
        while not stop.is_set():
            t0 = time.perf_counter()
            client.get(url + "/health")
            waits.append(time.perf_counter() - t0)
            time.sleep(0.05)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--voice", default="en-heart")
    ap.add_argument("--watch-s", type=float, default=45.0, help="how long to watch the never-reading clients")
    ap.add_argument("--skip-wyoming", action="store_true", help="skip the Wyoming service's never-reading clients")
    ap.add_argument("--skip-say-as", action="store_true", help="skip probe 1 (minutes of audio on a server without the cap)")
    args = ap.parse_args()
    url = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen(
        [sys.executable, "-m", "onestep.cli", "serve", "--port", str(args.port), "--log-level", "warning"],
        env=os.environ.copy(),
    )
    out: dict[str, object] = {}
    out_text = PROSE
    try:
        wait_health(url)
        proc = psutil.Process(server.pid)
        time.sleep(2)
        out["idle_rss_mb"] = round(tree_rss_mb(proc), 1)

        ssml = "" if args.skip_say_as else '<speak><say-as interpret-as="characters">' + "A" * 4900 + "</say-as></speak>"
        body = {"input": ssml, "voice": args.voice, "speed": 0.25, "response_format": "pcm", "sample_rate": 48000}
        t0 = time.perf_counter()
        r = httpx.post(url + "/v1/audio/speech", json=body, timeout=600) if ssml else httpx.Response(204)
        out["say_as"] = {"status": r.status_code, "seconds": round(time.perf_counter() - t0, 2),
                         "bytes": len(r.content), "error": r.json()["error"]["message"] if r.status_code >= 400 else None} if ssml else "skipped"  # fmt: skip

        text = out_text = largest_prose(url, args.voice, 0.25)
        out["largest_prose_chars"] = len(text)
        time.sleep(1)
        base = tree_rss_mb(proc)
        req = json.dumps({"input": text, "voice": args.voice, "speed": 0.25, "response_format": "pcm",
                          "sample_rate": 48000}).encode()  # fmt: skip
        stop, waits = threading.Event(), []
        poller = threading.Thread(target=poll_health, args=(url, stop, waits))
        poller.start()
        socks = [never_reading(args.port, req) for _ in range(2)]
        peak, t0 = base, time.monotonic()
        while time.monotonic() - t0 < args.watch_s:
            peak = max(peak, tree_rss_mb(proc))
            time.sleep(0.1)
        stop.set()
        poller.join()
        after = tree_rss_mb(proc)
        in_flight = httpx.get(url + "/health", timeout=10).json()["in_flight"]
        for s in socks:
            s.close()
        out["never_read"] = {"clients": 2, "baseline_rss_mb": round(base, 1), "peak_above_baseline_mb": round(peak - base, 1),
                             "after_mb": round(after, 1), "in_flight_after": in_flight,
                             "health_max_s": round(max(waits), 3), "health_polls": len(waits)}  # fmt: skip

        message = {"id": 1, "text": text, "voice": args.voice, "speed": 0.5, "sample_rate": 48000}
        socks = [ws_never_reading(args.port, message) for _ in range(2)]
        out["never_read_ws"] = watch(proc, url, socks, args.watch_s)
        out["never_read_ws"]["in_flight_after"] = httpx.get(url + "/health", timeout=10).json()["in_flight"]  # type: ignore[index]

        formats = httpx.get(url + "/v1/voices", timeout=10).json()["formats"]
        fmt = "mp3" if "mp3" in formats else "flac" if "flac" in formats else "wav"
        stop, waits = threading.Event(), []
        poller = threading.Thread(target=poll_health, args=(url, stop, waits))
        poller.start()
        n = len(text)
        while True:  # the largest text /synthesize admits (its 413s come before any work)
            t0 = time.perf_counter()
            r = httpx.post(url + "/synthesize", json={"text": text[:n], "voice": args.voice, "speed": 0.5, "format": fmt,
                                                      "sample_rate": 48000, "timestamps": True}, timeout=600)  # fmt: skip
            took = time.perf_counter() - t0
            if r.status_code != 413 or n < 200:
                break
            n = n * 3 // 4
        stop.set()
        poller.join()
        out["largest_synthesize"] = {
            "status": r.status_code, "format": fmt, "chars": n, "seconds": round(took, 2),
            "audio_s": r.json().get("duration") if r.status_code == 200 else r.json()["error"]["message"],
            "health_max_s": round(max(waits), 3), "health_polls": len(waits),
            "rss_after_mb": round(tree_rss_mb(proc), 1),
        }  # fmt: skip
    finally:
        server.terminate()
        try:
            server.wait(60)
        except subprocess.TimeoutExpired:
            server.kill()
    if not args.skip_wyoming:  # the same two clients on the Wyoming service (24 kHz: the protocol has no rate)
        port = args.port + 1
        wyoming = subprocess.Popen([sys.executable, "-m", "onestep.cli", "wyoming", "--uri", f"tcp://127.0.0.1:{port}",
                                    "--log-level", "warning"], env=os.environ.copy())  # fmt: skip
        try:
            deadline = time.monotonic() + 300
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.5)
            time.sleep(2)
            proc = psutil.Process(wyoming.pid)
            socks = [wyoming_never_reading(port, out_text) for _ in range(2)]
            out["never_read_wyoming"] = watch(proc, None, socks, args.watch_s)
        finally:
            wyoming.terminate()
            try:
                wyoming.wait(60)
            except subprocess.TimeoutExpired:
                wyoming.kill()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
