"""Soak test: hours of mixed traffic against fresh ``onestep serve`` and ``onestep wyoming`` processes, with
their resident memory sampled, to find leaks and rare errors.

``onestep bench --mode soak --duration 1h`` starts both servers on free loopback ports (the voices of
``--voices-dir`` / ``--voice``), then ``concurrency`` clients loop over the interfaces in turn:
``/v1/audio/speech`` in every format the server lists (plain and SSE), ``/synthesize`` (wav), the WebSocket
``/v1/stream`` (when ``websockets`` is installed) and Wyoming ``synthesize``. Every ``sample_s`` seconds it
samples both processes' RSS and prints a progress line. At the end it fits a line to each process's RSS
after the warm-up part (the first :data:`WARMUP_SHARE` of the run) and reports the slope in MB per hour,
with the request and error counts.

A request counts as an error when its answer is not 200 / a complete audio stream with samples; 503s (the
server shedding load) are counted apart as ``busy``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from onestep.errors import UserError

#: Share of the run left out of the RSS slope (allocator arenas, caches and lazily loaded parts settle).
WARMUP_SHARE = 0.2

TEXTS: tuple[str, ...] = (
    "The soak test keeps talking for a long time, one request after another.",
    "今天的天气预报说下午可能会有小雨，记得带伞。",
    "Order 66 shipped on May 4th for $12.50, ETA 3:30 pm.",
    "混合文本 mixed text 也要读得清楚，例如 API 和 GPU。",
    "Short one.",
    "加½杯糖，温度25℃，增长5‰ ①②③。",
)


class SoakError(UserError, RuntimeError):
    """The soak test could not start (a server did not come up) or got bad arguments."""


def parse_duration(text: str) -> float:
    """Seconds from ``"90"``, ``"90s"``, ``"10m"``, ``"1h"`` or ``"1.5h"``."""
    units = {"s": 1.0, "m": 60.0, "h": 3600.0}
    text = text.strip().lower()
    scale = units.get(text[-1:], None)
    number = text[:-1] if scale is not None else text
    try:
        seconds = float(number) * (scale or 1.0)
    except ValueError:
        raise SoakError(f"duration must be a number of seconds or like 10m / 1h, got {text!r}") from None
    if not seconds > 0:
        raise SoakError(f"duration must be positive, got {text!r}")
    return seconds


def rss_mb(pid: int) -> float:
    """Resident set size of process ``pid`` in MB (Linux ``/proc``; psutil elsewhere)."""
    statm = Path(f"/proc/{pid}/statm")
    if statm.exists():
        return int(statm.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    import psutil

    return psutil.Process(pid).memory_info().rss / 1e6


def slope_mb_per_h(samples: Sequence[tuple[float, float]]) -> float:
    """Least-squares slope of ``(seconds, MB)`` samples, in MB per hour (0 with fewer than 2 samples)."""
    if len(samples) < 2:
        return 0.0
    n = len(samples)
    mt = sum(t for t, _ in samples) / n
    mm = sum(m for _, m in samples) / n
    var = sum((t - mt) ** 2 for t, _ in samples)
    if var == 0:
        return 0.0
    return sum((t - mt) * (m - mm) for t, m in samples) / var * 3600.0


@dataclass
class SoakStats:
    """What the clients saw, per interface."""

    requests: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    busy: int = 0
    audio_s: float = 0.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    handle = log.open("wb")
    return subprocess.Popen([sys.executable, "-m", "onestep", *args], stdout=handle, stderr=subprocess.STDOUT)


async def _wait_tcp(port: int, proc: subprocess.Popen[bytes], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            raise SoakError(f"{what} exited with status {proc.returncode} while starting (see its log)")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise SoakError(f"{what} did not start within {timeout:.0f} s") from None
            await asyncio.sleep(0.5)


class _Client:
    """One client: cycles through the interfaces, one request at a time."""

    def __init__(self, index: int, http_url: str, wyoming_port: int, formats: Sequence[str], voice: str | None,
                 stats: SoakStats, rng: random.Random) -> None:  # fmt: skip
        self.index = index
        self.http_url = http_url
        self.wyoming_port = wyoming_port
        self.voice = voice
        self.stats = stats
        self.rng = rng
        kinds = [f"speech-{f}" for f in formats] + ["speech-sse", "synthesize-wav", "websocket", "wyoming"]
        try:
            import websockets  # noqa: F401
        except ImportError:
            kinds.remove("websocket")
        self.kinds = itertools.cycle(kinds[index % len(kinds) :] + kinds[: index % len(kinds)])

    async def run(self, stop_at: float) -> None:
        import httpx

        async with httpx.AsyncClient(base_url=self.http_url, timeout=httpx.Timeout(120.0, connect=10.0)) as http:
            while time.monotonic() < stop_at:
                kind = next(self.kinds)
                text = self.rng.choice(TEXTS)
                self.stats.requests[kind] += 1
                try:
                    outcome = await self._one(http, kind, text)
                except Exception as e:  # noqa: BLE001 - every failure is an error of the soak, by its kind
                    outcome = f"{type(e).__name__}"
                if outcome == "busy":
                    self.stats.busy += 1
                    await asyncio.sleep(0.5 + self.rng.random())
                elif outcome != "ok":
                    self.stats.errors[f"{kind}: {outcome}"] += 1
                    await asyncio.sleep(0.2)

    async def _one(self, http: Any, kind: str, text: str) -> str:
        voice = {"voice": self.voice} if self.voice else {}
        if kind.startswith("speech-"):
            fmt = kind.removeprefix("speech-")
            body: dict[str, Any] = {"model": "onestep", "input": text, **voice}
            if fmt == "sse":
                body["stream_format"] = "sse"
            else:
                body["response_format"] = fmt
            r = await http.post("/v1/audio/speech", json=body)
            if r.status_code == 503:
                return "busy"
            if r.status_code != 200 or not r.content:
                return f"http {r.status_code}"
            if fmt == "sse" and b"speech.audio.done" not in r.content:
                return "sse without done"
            return "ok"
        if kind == "synthesize-wav":
            r = await http.post("/synthesize", json={"text": text, "format": "wav", **voice})
            if r.status_code == 503:
                return "busy"
            if r.status_code != 200 or len(r.content) <= 44:
                return f"http {r.status_code}"
            self.stats.audio_s += float(r.headers.get("x-audio-duration-s", 0))
            return "ok"
        if kind == "websocket":
            return await self._websocket(text)
        return await self._wyoming(text)

    async def _websocket(self, text: str) -> str:
        from websockets.asyncio.client import connect

        url = "ws" + self.http_url.removeprefix("http") + "/v1/stream"
        async with connect(url) as ws:
            await ws.send(json.dumps({"text": text, "id": self.index, **({"voice": self.voice} if self.voice else {})}))
            pcm = 0
            while True:
                message = await asyncio.wait_for(ws.recv(), 120)
                if isinstance(message, bytes):
                    pcm += len(message)
                    continue
                frame = json.loads(message)
                if frame["type"] == "end":
                    return "ok" if pcm > 0 else "no audio"
                if frame["type"] == "error":
                    return "busy" if frame["error"]["type"] == "server_busy" else frame["error"]["code"] or "error"

    async def _wyoming(self, text: str) -> str:
        from wyoming.client import AsyncTcpClient
        from wyoming.event import Event

        async with AsyncTcpClient("127.0.0.1", self.wyoming_port) as client:
            data: dict[str, Any] = {"text": text}
            if self.voice:
                data["voice"] = {"name": self.voice}
            await client.write_event(Event("synthesize", data))
            audio = 0
            while True:
                event = await asyncio.wait_for(client.read_event(), 120)
                if event is None:
                    return "closed"
                if event.type == "audio-chunk":
                    audio += len(event.payload or b"")
                elif event.type == "audio-stop":
                    return "ok" if audio > 0 else "no audio"
                elif event.type == "error":
                    return "busy" if "busy" in str(event.data.get("text")) else str(event.data.get("code"))


async def _soak(duration_s: float, concurrency: int, server_args: list[str], voice: str | None, sample_s: float,
                log_dir: Path) -> dict[str, Any]:  # fmt: skip
    import httpx

    http_port, wyoming_port = _free_port(), _free_port()
    log_dir.mkdir(parents=True, exist_ok=True)
    serve = _start(["serve", "--port", str(http_port), *server_args], log_dir / "soak-serve.log")
    wyoming = _start(["wyoming", "--uri", f"tcp://127.0.0.1:{wyoming_port}", *server_args], log_dir / "soak-wyoming.log")
    procs = {"serve": serve, "wyoming": wyoming}
    try:
        await _wait_tcp(http_port, serve, 300, "onestep serve")
        await _wait_tcp(wyoming_port, wyoming, 300, "onestep wyoming")
        url = f"http://127.0.0.1:{http_port}"
        async with httpx.AsyncClient(base_url=url, timeout=10) as http:
            while (await http.get("/health")).status_code != 200:
                await asyncio.sleep(0.5)
            formats = [f for f in (await http.get("/v1/voices")).json()["formats"]]
        stats = SoakStats()
        rng = random.Random(14)
        t0 = time.monotonic()
        stop_at = t0 + duration_s
        rss: dict[str, list[tuple[float, float]]] = {name: [] for name in procs}
        clients = [_Client(i, url, wyoming_port, formats, voice, stats, random.Random(rng.random()))
                   for i in range(concurrency)]  # fmt: skip
        tasks = [asyncio.create_task(c.run(stop_at)) for c in clients]
        while time.monotonic() < stop_at:
            await asyncio.sleep(min(sample_s, max(0.0, stop_at - time.monotonic())))
            t = time.monotonic() - t0
            for name, proc in procs.items():
                if proc.poll() is None:
                    rss[name].append((t, rss_mb(proc.pid)))
            done = sum(stats.requests.values())
            errors = sum(stats.errors.values())
            memory = "  ".join(f"{n} {s[-1][1]:.0f} MB" for n, s in rss.items() if s)
            print(f"[soak {t / 60:6.1f}/{duration_s / 60:.1f} min] requests {done}  errors {errors}  busy {stats.busy}  "
                  f"{memory}", file=sys.stderr, flush=True)  # fmt: skip
        await asyncio.gather(*tasks)
        for name, proc in procs.items():
            if proc.poll() is not None:
                stats.errors[f"{name}: exited with {proc.returncode}"] += 1
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in procs.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=60)
    settled = {n: [(t, m) for t, m in s if t >= WARMUP_SHARE * duration_s] for n, s in rss.items()}
    return {
        "duration_s": duration_s,
        "concurrency": concurrency,
        "requests": sum(stats.requests.values()),
        "requests_by_interface": dict(sorted(stats.requests.items())),
        "errors": sum(stats.errors.values()),
        "errors_by_kind": dict(sorted(stats.errors.items())),
        "busy_503": stats.busy,
        "rss_mb": {n: _rss_summary(s) for n, s in rss.items()},
        "rss_slope_mb_per_h": {n: round(slope_mb_per_h(s), 2) for n, s in settled.items()},
        "exit_status": {n: p.returncode for n, p in procs.items()},
        "rss_samples": rss,
    }


def _rss_summary(samples: Sequence[tuple[float, float]]) -> dict[str, float | None]:
    """First, last and largest RSS of a process's ``(seconds, MB)`` samples (None when there are none)."""
    if not samples:
        return {"first": None, "last": None, "max": None}
    return {"first": samples[0][1], "last": samples[-1][1], "max": max(m for _, m in samples)}


def run_soak(duration_s: float, *, concurrency: int = 4, voices_dir: Sequence[Path] = (), voice: str | None = None,
             sample_s: float = 10.0, log_dir: Path = Path("runs/bench")) -> dict[str, Any]:  # fmt: skip
    """Run the soak test (see the module docstring) and return its report."""
    if concurrency < 1:
        raise SoakError(f"concurrency must be >= 1, got {concurrency}")
    server_args = [a for d in voices_dir for a in ("--voices-dir", str(d))]
    return asyncio.run(_soak(duration_s, concurrency, server_args, voice, sample_s, log_dir))


def format_soak(report: dict[str, Any]) -> str:
    """A plain-text summary of :func:`run_soak`'s report."""
    rows = [
        ("duration", f"{report['duration_s'] / 60:.1f} min, {report['concurrency']} clients"),
        ("requests", f"{report['requests']} ({', '.join(f'{k} {v}' for k, v in report['requests_by_interface'].items())})"),
        ("errors", f"{report['errors']}" + (f" ({report['errors_by_kind']})" if report["errors"] else "")),
        ("503 busy", str(report["busy_503"])),
    ]
    for name, slope in report["rss_slope_mb_per_h"].items():
        r = report["rss_mb"][name]
        rows.append((f"RSS {name}", f"{r['first']:.0f} -> {r['last']:.0f} MB (max {r['max']:.0f}), slope {slope:+.2f} MB/h"
                     if r["first"] is not None else "not sampled"))  # fmt: skip
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)
