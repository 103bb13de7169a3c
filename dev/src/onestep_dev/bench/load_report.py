"""Summaries of a load test: percentiles over all and over steady-state requests, and a text table.

A request is one row of :data:`FIELDS`; :func:`summarize` turns the rows of a run into the result dict
that ``onestep bench --mode server`` writes as JSON (the rows are kept in it, as ``request_log``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

#: Columns of one request row: client index, start (s after the run's start), HTTP status or an error
#: name, client-side time to first audio byte and to the last byte (ms, None unless 200), audio seconds
#: received, the server's own time to first audio (ms, from ``X-Time-To-First-Audio-Ms``; None if absent).
FIELDS = ("client", "start_s", "status", "ttfa_ms", "latency_ms", "audio_s", "server_ttfa_ms")


def percentiles(values: Sequence[float]) -> dict[str, float | None]:
    """p50/p95/p99/mean/max of ``values`` (ms in, ms out, 0.01 ms resolution); all None when empty."""
    if not values:
        return {"p50": None, "p95": None, "p99": None, "mean": None, "max": None}
    arr = np.asarray(values, dtype=np.float64)
    p50, p95, p99 = np.percentile(arr, [50, 95, 99])
    return {
        "p50": round(float(p50), 2),
        "p95": round(float(p95), 2),
        "p99": round(float(p99), 2),
        "mean": round(float(arr.mean()), 2),
        "max": round(float(arr.max()), 2),
    }


def _stats(rows: Sequence[tuple[Any, ...]], wall_s: float) -> dict[str, Any]:
    ok = [r for r in rows if r[2] == 200]
    errors = Counter(str(r[2]) for r in rows if r[2] != 200)
    audio_s = sum(r[5] for r in ok)
    wall = max(wall_s, 1e-9)
    return {
        "requests": len(rows),
        "ok": len(ok),
        "errors": dict(sorted(errors.items())),
        "error_count": len(rows) - len(ok),
        "ttfa_ms": percentiles([r[3] for r in ok if r[3] is not None]),
        "latency_ms": percentiles([r[4] for r in ok if r[4] is not None]),
        "server_ttfa_ms": percentiles([r[6] for r in ok if r[6] is not None]),
        "throughput": {"requests_per_s": round(len(ok) / wall, 2), "audio_s_per_s": round(audio_s / wall, 2)},
        "audio_s": round(audio_s, 2),
    }


def summarize(rows: Sequence[tuple[Any, ...]], *, wall_s: float, steady_from_s: float, steady_to_s: float,
              settings: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
    """The result of one run.

    Args:
        rows: one tuple of :data:`FIELDS` per request.
        wall_s: seconds from the first request's start to the last one's end.
        steady_from_s, steady_to_s: requests that started in this window (s after the start) form the
            steady state (the ramp-up and the tail, when clients stop one by one, are left out).
        settings: the run's parameters, copied into the result.
    Returns:
        ``settings`` plus the statistics of all requests (top level: ``requests``, ``ok``, ``errors``,
        ``ttfa_ms``, ``latency_ms``, ``server_ttfa_ms``, ``throughput``), ``steady`` (the same over the
        steady window, throughput per second of that window) and ``request_log`` (``fields`` + ``rows``).
    """
    steady_rows = [r for r in rows if steady_from_s <= r[1] < steady_to_s]
    steady = _stats(steady_rows, steady_to_s - steady_from_s)
    steady["window_s"] = [round(steady_from_s, 2), round(steady_to_s, 2)]
    return {
        **settings,
        "wall_s": round(wall_s, 2),
        **_stats(rows, wall_s),
        "steady": steady,
        "request_log": {"fields": list(FIELDS), "rows": [list(r) for r in sorted(rows, key=lambda r: r[1])]},
    }


def format_table(result: dict[str, Any]) -> str:
    """A plain-text summary of a :func:`summarize` result (steady-state rows when there are any)."""

    def ms(v: float | None) -> str:
        return "-" if v is None else f"{v:.1f}"

    def trio(stats: dict[str, float | None]) -> str:
        return f"p50 {ms(stats['p50'])}  p95 {ms(stats['p95'])}  p99 {ms(stats['p99'])}  max {ms(stats['max'])}"

    steady = result.get("steady") or {}
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(result["errors"].items())) or "none"
    pace = result.get("pace", "closed")
    rows = [
        ("target", f"{result['url']} ({result['endpoint']})"),
        (
            "clients x duration",
            f"{result['concurrency']} x {result['duration']:g} s, pace {pace}"
            f" ({result.get('processes', 1)} process(es), wall {result['wall_s']:.1f} s)",
        ),
        ("requests ok / total", f"{result['ok']} / {result['requests']}"),
        ("errors", errors),
        ("time to first audio ms", trio(result["ttfa_ms"])),
        ("total latency ms", trio(result["latency_ms"])),
    ]
    if steady.get("ok"):
        lo, hi = steady["window_s"]
        rows += [
            (f"steady {lo:g}-{hi:g} s: ok", f"{steady['ok']} / {steady['requests']}"),
            ("  time to first audio ms", trio(steady["ttfa_ms"])),
            ("  server-side ttfa ms", trio(steady["server_ttfa_ms"])),
            ("  total latency ms", trio(steady["latency_ms"])),
        ]
    rows.append(
        (
            "throughput",
            f"{result['throughput']['requests_per_s']:.2f} req/s, {result['throughput']['audio_s_per_s']:.2f} audio s/s",
        )
    )
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)
