"""Load test of a running OneStep server: N concurrent clients for S seconds (loopback targets only).

Each client has its own HTTP connection (its own ``httpx.AsyncClient``: a shared pool serializes the
clients behind its lock and was the bottleneck of the first version) and loops: send a request, time the
first audio byte and the last byte, wait as its pacing says, repeat, until the duration is over (requests
in flight then finish) or ``max_requests`` were started. The clients are spread over ``processes`` OS
processes, so that the load generator's own Python does not limit (or delay) what it measures.

Pacing (``pace``):

- ``closed``: the next request right after the last one ended (a saturating benchmark).
- ``realtime``: the next sentence when the last one has finished playing (first byte + its audio
  duration), like a voice agent speaking a reply sentence by sentence.
- ``rate``: open loop, ``rate`` requests per second in all, evenly spaced per client.

Before the common start every client opens its connection with one ``GET /health`` (not counted): the
library's imports, its per-client setup (an SSL context each) and the first connection belong to the load
generator, and measured inside the first second they showed up as ~0.3-0.5 s "time to first audio" for the
first dozen requests of every process (GPU server, 2026-12-07, server side 5-27 ms). A client whose
connection the server closes while it waits (uvicorn's 5 s keep-alive) reconnects, as a real one would.

Clients start spread over ``ramp_s`` (real clients are not synchronized); requests that start in
``[warmup_s, duration)`` form the steady state reported beside the totals. A 503 is counted and the
client waits for ``Retry-After`` (capped at 1 s) before its next request, as a real client would.

    from onestep_dev.bench.load_test import run_load_test
    from onestep_dev.bench.load_report import format_table
    result = run_load_test("http://127.0.0.1:8000", concurrency=100, duration=30, pace="realtime")
    print(format_table(result))
"""

from __future__ import annotations

import asyncio
import gc
import ipaddress
import math
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit

from onestep_dev.bench.load_report import format_table, summarize
from onestep.errors import UserError

__all__ = ["LoadTestError", "LoadTestSettings", "check_loopback", "format_table", "run_load_test"]



def heldout_texts(languages: tuple[str, ...] = ("en", "zh")) -> tuple[str, ...]:
    """The held-out evaluation sentences of ``languages`` (``onestep_dev.eval.heldout``: text no voice was trained
    on and no warm-up has seen), the load test's default: 228 varied sentences rather than a few repeated ones,
    so the server's frontend works as it does on live traffic."""
    from onestep_dev.eval.heldout import load_heldout

    return tuple(s.text for lang in languages for s in load_heldout(lang))  # type: ignore[arg-type]


#: An empty ``texts`` means :func:`heldout_texts`.
DEFAULT_TEXTS: tuple[str, ...] = ()
ENDPOINTS = ("speech", "synthesize")
PACES = ("closed", "realtime", "rate")
#: Clients per load-generator process when the machine has cores to spare.
CLIENTS_PER_PROCESS = 13


class LoadTestError(UserError, ValueError):
    """A bad load test argument (e.g. a target that is not on this machine) or an unreachable server."""


def check_loopback(url: str) -> str:
    """``url`` without a trailing slash if its host is on this machine (localhost, 127.0.0.0/8, ::1)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise LoadTestError(f"load test URL must be http(s)://, got {url!r}")
    host = parts.hostname or ""
    loopback = host == "localhost"
    if not loopback:
        try:
            loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            loopback = False
    if not loopback:
        raise LoadTestError(f"load tests only target this machine (localhost, 127.0.0.0/8, [::1]); got host {host!r}")
    return url.rstrip("/")


def default_processes(concurrency: int) -> int:
    """Load-generator processes: 1 on a machine of <= 2 cores (the server needs them), else one per
    :data:`CLIENTS_PER_PROCESS` clients, at most half the cores."""
    cores = os.cpu_count() or 1
    if cores <= 2:
        return 1
    return max(1, min(math.ceil(concurrency / CLIENTS_PER_PROCESS), cores // 2))


@dataclass(frozen=True)
class LoadTestSettings:
    """One load test (see the module docstring); validated on construction (:class:`LoadTestError`).

    Attributes:
        url: server base URL on this machine.
        concurrency: simultaneous clients (each has at most one request in flight).
        duration: seconds during which clients start new requests.
        endpoint: ``"speech"`` (``/v1/audio/speech``, pcm) or ``"synthesize"`` (``/synthesize``, pcm).
        pace: ``"closed"``, ``"realtime"`` or ``"rate"``.
        rate: requests per second in all (``pace="rate"`` only).
        texts: request texts (empty: :func:`heldout_texts`). They are dealt in one seeded shuffled order:
            load-generator process ``p`` of ``P`` sends texts ``p, p + P, p + 2P, ...`` of it (its clients take
            the next one in turn), so that no text repeats before every text was sent once.
        voice: voice name for every request (None: the server picks by language).
        api_key: sent as ``Authorization: Bearer``.
        request_timeout: seconds before a client gives up on one request (counted as ``timeout``).
        max_requests: cap on requests started (None: no cap).
        processes: load-generator processes (None: :func:`default_processes`; 1 runs in this process).
        ramp_s: client starts are spread over this many seconds (None: 3 s for realtime/rate, else 0).
        warmup_s: requests started before this are left out of the steady state (None: ramp + 1 s,
            at most a fifth of the duration).
        seed: text choice / jitter seed.
    """

    url: str
    concurrency: int
    duration: float
    endpoint: str = "speech"
    pace: str = "closed"
    rate: float | None = None
    texts: tuple[str, ...] = DEFAULT_TEXTS
    voice: str | None = None
    api_key: str | None = None
    request_timeout: float = 120.0
    max_requests: int | None = None
    processes: int | None = None
    ramp_s: float | None = None
    warmup_s: float | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "url", check_loopback(self.url))
        if not self.texts:
            object.__setattr__(self, "texts", heldout_texts())
        if self.endpoint not in ENDPOINTS:
            raise LoadTestError(f"endpoint must be one of {ENDPOINTS}, got {self.endpoint!r}")
        if self.pace not in PACES:
            raise LoadTestError(f"pace must be one of {PACES}, got {self.pace!r}")
        if (self.pace == "rate") != (self.rate is not None):
            raise LoadTestError("rate is given exactly when pace is 'rate'")
        if self.rate is not None and not 0 < self.rate <= 100_000:
            raise LoadTestError(f"rate must be in (0, 100000] requests/s, got {self.rate}")
        if not 1 <= self.concurrency <= 10_000:
            raise LoadTestError(f"concurrency must be 1-10000, got {self.concurrency}")
        if not 0 < self.duration <= 3600:
            raise LoadTestError(f"duration must be in (0, 3600] seconds, got {self.duration}")
        if not self.texts or not all(t.strip() for t in self.texts):
            raise LoadTestError("texts must be non-empty strings")
        if self.max_requests is not None and self.max_requests < 1:
            raise LoadTestError(f"max_requests must be >= 1, got {self.max_requests}")
        if self.processes is not None and not 1 <= self.processes <= 256:
            raise LoadTestError(f"processes must be 1-256, got {self.processes}")
        if self.request_timeout <= 0:
            raise LoadTestError(f"request_timeout must be > 0, got {self.request_timeout}")
        for name in ("ramp_s", "warmup_s"):
            v = getattr(self, name)
            if v is not None and not 0 <= v < self.duration:
                raise LoadTestError(f"{name} must be in [0, duration), got {v}")

    @property
    def n_processes(self) -> int:
        return min(self.concurrency, self.processes or default_processes(self.concurrency))

    @property
    def ramp(self) -> float:
        if self.ramp_s is not None:
            return self.ramp_s
        return min(3.0, self.duration / 5) if self.pace != "closed" else 0.0

    @property
    def warmup(self) -> float:
        if self.warmup_s is not None:
            return self.warmup_s
        return min(self.ramp + 1.0, self.duration / 5)


class _Client:
    """One simulated client: its own connection, its own pacing, rows of :data:`load_report.FIELDS`."""

    def __init__(self, index: int, s: LoadTestSettings, sample_rate: int, budget: list[int], rng: random.Random,
                 deal: list[int], stride: int = 1) -> None:  # fmt: skip
        self.index = index
        self.s = s
        self.sample_rate = sample_rate
        self.t0 = 0.0  # the common start (perf_counter), set by :meth:`run`
        self.stop_at = 0.0
        self.http: Any = None  # httpx.AsyncClient, from :meth:`open` to :meth:`close`
        self.budget = budget  # [requests left], shared by the clients of one process
        self.deal = deal  # [next position in the text order], shared by the clients of one process
        self.stride = stride  # load-generator processes: each deals every stride-th text
        self.rng = rng
        self.rows: list[tuple[Any, ...]] = []
        if s.endpoint == "speech":
            self.path = "/v1/audio/speech"
            self.bodies = [{"model": "onestep", "input": t, "response_format": "pcm"} for t in s.texts]
        else:
            self.path = "/synthesize"
            self.bodies = [{"text": t, "format": "pcm"} for t in s.texts]
        if s.voice:
            for b in self.bodies:
                b["voice"] = s.voice
        order = list(range(len(self.bodies)))
        random.Random(s.seed).shuffle(order)  # the same order in every client (and process)
        self.order = order
        self.headers = {"Authorization": f"Bearer {s.api_key}"} if s.api_key else {}
        self.interval = s.concurrency / s.rate if s.rate else 0.0

    async def open(self) -> None:
        """Create this client's connection and use it once (``GET /health``, any status) before the start."""
        import httpx

        s = self.s
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1)
        timeout = httpx.Timeout(s.request_timeout, connect=10.0)
        self.http = httpx.AsyncClient(base_url=s.url, limits=limits, timeout=timeout, headers=self.headers)
        try:
            await self.http.get("/health")
        except httpx.TransportError as e:
            raise LoadTestError(f"client {self.index} cannot connect to {s.url}: {e}") from e

    async def close(self) -> None:
        if self.http is not None:
            await self.http.aclose()

    async def run(self, t0: float) -> None:
        """Send requests from ``t0`` (perf_counter, plus this client's place in the ramp) until the end."""
        s = self.s
        self.t0, self.stop_at = t0, t0 + s.duration
        start = t0 + (s.ramp * (self.index + self.rng.random()) / s.concurrency if s.ramp else 0.0)
        await _sleep_until(start)
        next_at = start
        while time.perf_counter() < self.stop_at and self.budget[0] > 0:
            self.budget[0] -= 1
            row, retry_after, played_at = await self._one(self.http)
            self.rows.append(row)
            if row[2] == 503:
                next_at = time.perf_counter() + min(retry_after, 1.0) * (0.5 + self.rng.random())
            elif row[2] != 200:
                next_at = time.perf_counter() + 0.05  # do not spin on a failing server
            elif s.pace == "realtime":
                next_at = played_at
            elif s.pace == "rate":
                next_at += self.interval
            else:
                next_at = 0.0
            await _sleep_until(next_at)

    async def _one(self, http: Any) -> tuple[tuple[Any, ...], float, float]:
        """Send one request: (row, Retry-After seconds, when its audio has finished playing)."""
        import httpx

        body = self.bodies[self.order[self.deal[0] % len(self.order)]]
        self.deal[0] += self.stride
        t_start = time.perf_counter()
        rel = round(t_start - self.t0, 4)
        try:
            async with http.stream("POST", self.path, json=body) as response:
                if response.status_code != 200:
                    await response.aread()
                    retry = float(response.headers.get("retry-after", 0) or 0)
                    return (self.index, rel, response.status_code, None, None, 0.0, None), retry, 0.0
                first = None
                n_bytes = 0
                async for data in response.aiter_raw():
                    if data and first is None:
                        first = time.perf_counter()
                    n_bytes += len(data)
                end = time.perf_counter()
                server_ttfa = response.headers.get("x-time-to-first-audio-ms") or None
        except httpx.TimeoutException:
            return (self.index, rel, "timeout", None, None, 0.0, None), 0.0, 0.0
        except httpx.RemoteProtocolError:
            return (self.index, rel, "incomplete", None, None, 0.0, None), 0.0, 0.0
        except httpx.TransportError:
            return (self.index, rel, "connection_error", None, None, 0.0, None), 0.0, 0.0
        audio_s = n_bytes / 2 / self.sample_rate
        ttfa = None if first is None else round((first - t_start) * 1000, 3)
        row = (self.index, rel, 200, ttfa, round((end - t_start) * 1000, 3), round(audio_s, 3),
               None if server_ttfa is None else float(server_ttfa))  # fmt: skip
        return row, 0.0, (first or end) + audio_s


async def _sleep_until(t: float) -> None:
    delay = t - time.perf_counter()
    if delay > 0:
        await asyncio.sleep(delay)


async def _run_clients(s: LoadTestSettings, indices: range, sample_rate: int, start: Callable[[], Awaitable[float]],
                       budget: int, process: int = 0, processes: int = 1) -> list[tuple[Any, ...]]:  # fmt: skip
    """Open the clients ``indices`` on this process's event loop, await ``start()`` (the common start, a
    perf_counter value), run them from it and close them.

    The garbage collector is frozen for the run (as in the server) so that its pauses do not show up as
    the server's latency."""
    shared_budget = [budget]
    deal = [process]  # this process's texts: process, process + processes, ...
    clients = [
        _Client(i, s, sample_rate, shared_budget, random.Random(s.seed * 100_003 + i), deal, processes)
        for i in indices
    ]
    try:
        await asyncio.gather(*(c.open() for c in clients))
        gc.collect()
        gc.freeze()
        t0 = await start()
        await asyncio.gather(*(c.run(t0) for c in clients))
    finally:
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)
    return [row for c in clients for row in c.rows]


def _process_main(s: LoadTestSettings, indices: range, sample_rate: int, budget: int, barrier: Any,
                  start_wall: Any, out: Any, process: int = 0, processes: int = 1) -> None:  # fmt: skip
    """A load-generator process: open its clients, wait for the common start, run them, send back their rows
    (or the :class:`LoadTestError` that stopped it)."""
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass

    async def common_start() -> float:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, barrier.wait)  # every process is up and its clients connected ...
        await loop.run_in_executor(None, barrier.wait)  # ... and the parent has set the common start
        return time.perf_counter() + (start_wall.value - time.time())

    try:
        out.put(asyncio.run(_run_clients(s, indices, sample_rate, common_start, budget, process, processes)))
    except LoadTestError as e:
        barrier.abort()  # the parent and the other processes stop waiting
        out.put(e)
    except threading.BrokenBarrierError:
        out.put(None)  # another process (or the parent) gave up: its reason is reported, not this


async def _sample_rate(s: LoadTestSettings) -> int:
    import httpx

    headers = {"Authorization": f"Bearer {s.api_key}"} if s.api_key else {}
    async with httpx.AsyncClient(timeout=10.0) as http:
        try:
            voices = await http.get(s.url + "/v1/voices", headers=headers)
            voices.raise_for_status()
        except httpx.HTTPError as e:
            raise LoadTestError(f"cannot list the voices of {s.url}: {e}") from e
    rates = [v["sample_rate"] for v in voices.json()["voices"]]
    return int(rates[0]) if rates else 24000


def run(s: LoadTestSettings) -> dict[str, Any]:
    """Run the load test ``s`` and summarize it (:func:`onestep_dev.bench.load_report.summarize`)."""
    sample_rate = asyncio.run(_sample_rate(s))
    n = s.n_processes
    cap = s.max_requests if s.max_requests is not None else 1 << 62
    shares = [range(k * s.concurrency // n, (k + 1) * s.concurrency // n) for k in range(n)]
    budgets = [math.ceil(cap * len(r) / s.concurrency) for r in shares]
    if s.max_requests is not None:  # exact cap: the rounding surplus comes off the last process
        budgets[-1] -= sum(budgets) - cap
    t_begin = time.perf_counter()
    rows: list[tuple[Any, ...]]
    if n == 1:

        async def now() -> float:
            return time.perf_counter()

        rows = asyncio.run(_run_clients(s, shares[0], sample_rate, now, budgets[0]))
    else:
        ctx = multiprocessing.get_context("spawn")
        barrier = ctx.Barrier(n + 1)
        start_wall = ctx.Value("d", 0.0)
        out = ctx.Queue()
        procs = [
            ctx.Process(
                target=_process_main, args=(s, r, sample_rate, b, barrier, start_wall, out, k, n), daemon=True
            )
            for k, (r, b) in enumerate(zip(shares, budgets, strict=True))
        ]
        for p in procs:
            p.start()
        rows = []
        started = True
        try:
            barrier.wait(timeout=120)
            start_wall.value = time.time() + 0.1
            barrier.wait(timeout=10)
            t_begin = time.perf_counter() + 0.1
        except threading.BrokenBarrierError:
            started = False  # a process could not connect (its error comes through ``out``) or start in time
        try:
            for _ in procs:
                part = out.get(timeout=s.duration + s.request_timeout + 120)
                if isinstance(part, LoadTestError):
                    raise part
                rows += part or []
            if not started:
                raise LoadTestError("the load-generator processes did not start within 120 s")
        finally:
            for p in procs:
                p.join(timeout=10)
                if p.is_alive():
                    p.terminate()
    ends = [r[1] + (r[4] or 0) / 1000 for r in rows]
    wall = max(ends) if ends else time.perf_counter() - t_begin
    settings = {k: v for k, v in asdict(s).items() if k not in ("api_key", "texts")}
    settings.update(
        processes=n, ramp_s=round(s.ramp, 3), warmup_s=round(s.warmup, 3), texts=len(s.texts), url=s.url
    )
    return summarize(rows, wall_s=wall, steady_from_s=s.warmup, steady_to_s=s.duration, settings=settings)


def run_load_test(url: str, concurrency: int, duration: float, **options: Any) -> dict[str, Any]:
    """Run ``concurrency`` clients against ``url`` for ``duration`` seconds and summarize.

    ``options`` are the other fields of :class:`LoadTestSettings` (endpoint, pace, rate, texts, voice,
    api_key, request_timeout, max_requests, processes, ramp_s, warmup_s, seed).

    Returns:
        dict: the settings, ``requests``, ``ok``, ``errors`` (count by HTTP status or ``timeout`` /
        ``connection_error`` / ``incomplete``), ``ttfa_ms``, ``latency_ms`` and ``server_ttfa_ms``
        (p50/p95/p99/mean/max, ms, over successful requests), ``throughput`` (``requests_per_s``,
        ``audio_s_per_s``), ``wall_s``, ``steady`` (the same over the steady-state window) and
        ``request_log`` (one row per request).
    """
    return run(LoadTestSettings(url, concurrency, duration, **options))
