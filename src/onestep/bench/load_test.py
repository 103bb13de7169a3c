"""Load test of a running OneStep server: N concurrent clients for S seconds (loopback targets only).

Each client loops: send a request, time the first audio byte and the last byte, repeat, until the
duration is over (requests in flight then finish) or ``max_requests`` were started. A 503 is counted and
the client waits for ``Retry-After`` (capped at 1 s) before its next request, as a real client would.

    from onestep.bench.load_test import run_load_test, format_table
    result = run_load_test("http://127.0.0.1:8000", concurrency=20, duration=60)
    print(format_table(result))
"""

from __future__ import annotations

import asyncio
import ipaddress
import random
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import numpy as np

DEFAULT_TEXTS: tuple[str, ...] = (
    "The quick brown fox jumps over the lazy dog, and then it takes a short nap in the sun.",
    "今天天气很好，我们一起去公园散步吧。",
    "Please call me back at three fifteen this afternoon if you can.",
    "这个周末我打算在家看书，顺便整理一下房间。",
)
ENDPOINTS = ("speech", "synthesize")


class LoadTestError(ValueError):
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


@dataclass
class _Sample:
    status: int | str  # HTTP status, or "timeout" / "connection_error" / "incomplete"
    ttfa_s: float | None = None
    latency_s: float | None = None
    audio_s: float = 0.0


@dataclass
class _Run:
    samples: list[_Sample] = field(default_factory=list)
    started: int = 0


async def _one_request(
    client: Any, base: str, endpoint: str, text: str, voice: str | None, sample_rate: int, headers: dict[str, str]
) -> tuple[_Sample, float]:
    """Send one request; return its sample and the Retry-After seconds (0 if none)."""
    import httpx

    if endpoint == "speech":
        path = "/v1/audio/speech"
        body: dict[str, Any] = {"model": "onestep", "input": text, "response_format": "pcm"}
        if voice:
            body["voice"] = voice
    else:
        path = "/synthesize"
        body = {"text": text, "format": "pcm"}
        if voice:
            body["voice"] = voice
    t0 = time.perf_counter()
    try:
        async with client.stream("POST", base + path, json=body, headers=headers) as response:
            if response.status_code != 200:
                await response.aread()
                retry = float(response.headers.get("retry-after", 0) or 0)
                return _Sample(response.status_code), retry
            ttfa = None
            n_bytes = 0
            async for data in response.aiter_bytes():
                if data and ttfa is None:
                    ttfa = time.perf_counter() - t0
                n_bytes += len(data)
            latency = time.perf_counter() - t0
            return _Sample(200, ttfa, latency, n_bytes / 2 / sample_rate), 0.0
    except httpx.TimeoutException:
        return _Sample("timeout"), 0.0
    except httpx.RemoteProtocolError:
        return _Sample("incomplete"), 0.0
    except httpx.TransportError:
        return _Sample("connection_error"), 0.0


async def _client(
    run: _Run, client: Any, base: str, endpoint: str, texts: tuple[str, ...], voice: str | None,
    sample_rate: int, headers: dict[str, str], stop_at: float, max_requests: int, rng: random.Random,
) -> None:  # fmt: skip
    while time.perf_counter() < stop_at and run.started < max_requests:
        run.started += 1
        sample, retry_after = await _one_request(client, base, endpoint, rng.choice(texts), voice, sample_rate, headers)
        run.samples.append(sample)
        if sample.status == 503:
            await asyncio.sleep(min(retry_after, 1.0) * (0.5 + rng.random()))
        elif sample.status != 200:
            await asyncio.sleep(0.05)  # do not spin on a failing server


def _percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "p95": None, "p99": None, "mean": None, "max": None}
    arr = np.asarray(values) * 1000.0
    p50, p95, p99 = np.percentile(arr, [50, 95, 99])
    return {
        "p50": round(float(p50), 1),
        "p95": round(float(p95), 1),
        "p99": round(float(p99), 1),
        "mean": round(float(arr.mean()), 1),
        "max": round(float(arr.max()), 1),
    }


async def run_load_test_async(
    url: str,
    concurrency: int,
    duration: float,
    *,
    endpoint: str = "speech",
    texts: tuple[str, ...] = DEFAULT_TEXTS,
    voice: str | None = None,
    api_key: str | None = None,
    request_timeout: float = 120.0,
    max_requests: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Async form of :func:`run_load_test` (same arguments and result)."""
    import httpx

    base = check_loopback(url)
    if endpoint not in ENDPOINTS:
        raise LoadTestError(f"endpoint must be one of {ENDPOINTS}, got {endpoint!r}")
    if not 1 <= concurrency <= 10_000:
        raise LoadTestError(f"concurrency must be 1-10000, got {concurrency}")
    if not 0 < duration <= 3600:
        raise LoadTestError(f"duration must be in (0, 3600] seconds, got {duration}")
    if not texts:
        raise LoadTestError("texts must not be empty")
    cap = max_requests if max_requests is not None else concurrency * int(duration + 1) * 100
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    timeout = httpx.Timeout(request_timeout, connect=10.0)
    async with httpx.AsyncClient(limits=limits, timeout=timeout) as client:
        try:
            voices = await client.get(base + "/v1/voices", headers=headers)
            voices.raise_for_status()
        except httpx.HTTPError as e:
            raise LoadTestError(f"cannot list the voices of {base}: {e}") from e
        rates = [v["sample_rate"] for v in voices.json()["voices"]]
        sample_rate = int(rates[0]) if rates else 24000
        run = _Run()
        rng = random.Random(seed)
        t0 = time.perf_counter()
        stop_at = t0 + duration
        await asyncio.gather(
            *(
                _client(
                    run,
                    client,
                    base,
                    endpoint,
                    texts,
                    voice,
                    sample_rate,
                    headers,
                    stop_at,
                    cap,
                    random.Random(rng.random()),
                )  # fmt: skip
                for _ in range(concurrency)
            )
        )
        wall = time.perf_counter() - t0
    ok = [s for s in run.samples if s.status == 200]
    statuses: dict[str, int] = {}
    for s in run.samples:
        if s.status != 200:
            statuses[str(s.status)] = statuses.get(str(s.status), 0) + 1
    audio_s = sum(s.audio_s for s in ok)
    return {
        "url": base,
        "endpoint": endpoint,
        "concurrency": concurrency,
        "duration_s": duration,
        "wall_s": round(wall, 2),
        "requests": len(run.samples),
        "ok": len(ok),
        "errors": statuses,
        "error_count": len(run.samples) - len(ok),
        "ttfa_ms": _percentiles([s.ttfa_s for s in ok if s.ttfa_s is not None]),
        "latency_ms": _percentiles([s.latency_s for s in ok if s.latency_s is not None]),
        "throughput": {
            "requests_per_s": round(len(ok) / wall, 2),
            "audio_s_per_s": round(audio_s / wall, 2),
        },
        "audio_s": round(audio_s, 2),
    }


def run_load_test(
    url: str,
    concurrency: int,
    duration: float,
    *,
    endpoint: str = "speech",
    texts: tuple[str, ...] = DEFAULT_TEXTS,
    voice: str | None = None,
    api_key: str | None = None,
    request_timeout: float = 120.0,
    max_requests: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """Run ``concurrency`` clients against ``url`` for ``duration`` seconds and summarize.

    Args:
        url: server base URL on this machine (``http://127.0.0.1:8000``); other hosts are refused.
        concurrency: simultaneous clients (each has at most one request in flight).
        duration: seconds during which clients start new requests (in-flight ones then finish).
        endpoint: ``"speech"`` (streaming ``/v1/audio/speech``, pcm) or ``"synthesize"`` (``/synthesize``, pcm).
        texts: request texts, drawn at random (seeded) per request.
        voice: voice name for every request (None: the server picks by language).
        api_key: sent as ``Authorization: Bearer``.
        request_timeout: seconds before a client gives up on one request (counted as ``timeout``).
        max_requests: cap on requests started (default: concurrency x (duration + 1) x 100).
        seed: text choice / back-off jitter seed.
    Returns:
        dict: ``requests``, ``ok``, ``errors`` (count by HTTP status or ``timeout`` /
        ``connection_error`` / ``incomplete``), ``ttfa_ms`` and ``latency_ms`` (p50/p95/p99/mean/max over
        successful requests, client side), ``throughput`` (``requests_per_s``, ``audio_s_per_s``), ``wall_s``.
    """
    return asyncio.run(
        run_load_test_async(
            url,
            concurrency,
            duration,
            endpoint=endpoint,
            texts=texts,
            voice=voice,
            api_key=api_key,
            request_timeout=request_timeout,
            max_requests=max_requests,
            seed=seed,
        )  # fmt: skip
    )


def format_table(result: dict[str, Any]) -> str:
    """A plain-text summary table of a :func:`run_load_test` result."""
    t, lat = result["ttfa_ms"], result["latency_ms"]

    def ms(v: float | None) -> str:
        return "-" if v is None else f"{v:.0f}"

    errors = ", ".join(f"{k}: {v}" for k, v in sorted(result["errors"].items())) or "none"
    rows = [
        ("target", f"{result['url']} ({result['endpoint']})"),
        ("clients x duration", f"{result['concurrency']} x {result['duration_s']:g} s (wall {result['wall_s']:.1f} s)"),
        ("requests ok / total", f"{result['ok']} / {result['requests']}"),
        ("errors", errors),
        ("time to first audio ms", f"p50 {ms(t['p50'])}  p95 {ms(t['p95'])}  p99 {ms(t['p99'])}"),
        ("total latency ms", f"p50 {ms(lat['p50'])}  p95 {ms(lat['p95'])}  p99 {ms(lat['p99'])}"),
        (
            "throughput",
            f"{result['throughput']['requests_per_s']:.2f} req/s, "
            f"{result['throughput']['audio_s_per_s']:.2f} audio s/s",
        ),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)
