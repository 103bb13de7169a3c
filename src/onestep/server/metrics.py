"""Prometheus metrics of one server instance (own registry, so several apps can live in one process).

With ``$PROMETHEUS_MULTIPROC_DIR`` set (``onestep serve --processes N`` sets it for its server processes,
:mod:`onestep.server.supervisor`), prometheus-client keeps every value in a file of that directory and
``/metrics``, whichever process answers it, reports the sum over all the server's processes (counters and
histograms of processes that died included; the two gauges over the live ones), as one server.
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from onestep.runtime.idle_gc import in_idle_collection
from onestep.server.scheduler import Scheduler

_LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
_PAUSE_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0)
#: How often the event-loop lag probe wakes up, seconds.
LAG_PROBE_S = 0.05
_STAGE_BUCKETS = (
    0.0001, 0.00025, 0.0005, 0.001, 0.0015, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.05, 0.1, 1.0
)  # fmt: skip
_BATCH_BUCKETS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64, 128, 256)
_TTFA_BUCKETS = (0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

CONTENT_TYPE = CONTENT_TYPE_LATEST
#: The variable that switches prometheus-client to multi-process mode (read when it is first imported).
MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def multiprocess_dir() -> str | None:
    """The directory of prometheus-client's multi-process mode, or None (single-process metrics)."""
    return os.environ.get(MULTIPROC_ENV) or None


class ServerMetrics:
    """The server's counters, gauges and histograms.

    - ``onestep_request_latency_seconds{endpoint}``: admission (its checks and text frontend included) to last
      audio byte produced.
    - ``onestep_time_to_first_audio_seconds{endpoint}``: admission (its checks and text frontend included) to
      first audio chunk produced.
    - ``onestep_audio_seconds_total{endpoint}``: seconds of audio produced.
    - ``onestep_requests_total{endpoint,outcome}``: finished requests (``ok``, ``cancelled``, ``error``).
    - ``onestep_errors_total{type}``: errors answered, by type/code (``queue_full``, ``timeout_error``, ...).
    - ``onestep_queue_depth``: requests waiting for an engine thread.
    - ``onestep_in_flight``: requests admitted and not finished.
    - ``onestep_gc_pause_seconds{generation,trigger}``: garbage-collection pauses (any thread; see
      :meth:`watch_gc`); ``trigger="idle"`` between requests (:mod:`onestep.runtime.idle_gc`), ``"automatic"``
      wherever CPython's threshold struck (inside requests, under load that leaves no idle moment).
    - ``onestep_event_loop_lag_seconds``: how late the event loop ran a timer (blocking work on the loop).
    - ``onestep_stage_seconds{stage}``: micro-batching (GPU) only: each request's time per stage
      (``frontend_queue``, ``frontend``, ``batch_wait``, ``engine``, ``finish``, ``handoff``; see
      :meth:`SynthesisStream.stage_seconds`), so a slow time to first audio can be traced to its stage.
    - ``onestep_batch_size``: micro-batching only: per request, how many requests shared its engine call.
    - ``onestep_host_work_total{stage,process}``: requests whose ``frontend`` / ``finish`` (timings, output stage,
      and there the encoding) ran in the ``server_process`` or a ``worker_process`` (``--frontend-processes``).

    :attr:`registry` holds the metrics above; :attr:`local_registry` collectors that only this process can
    answer (the phrase cache's): the same registry in one process, in multi-process mode (:func:`multiprocess_dir`)
    the answering process's own, rendered after the sum over the processes.
    """

    def __init__(self, scheduler: Scheduler) -> None:
        self.registry = CollectorRegistry()
        self.multiprocess = multiprocess_dir() is not None
        self.local_registry = CollectorRegistry() if self.multiprocess else self.registry
        self._scheduler = scheduler
        r = self.registry
        self.latency = Histogram(
            "onestep_request_latency_seconds", "Request latency, admission (text frontend included) to last audio chunk.", ["endpoint"],
            buckets=_LATENCY_BUCKETS, registry=r,
        )  # fmt: skip
        self.ttfa = Histogram(
            "onestep_time_to_first_audio_seconds", "Admission (text frontend included) to first audio chunk.", ["endpoint"],
            buckets=_TTFA_BUCKETS, registry=r,
        )  # fmt: skip
        self.audio_seconds = Counter("onestep_audio_seconds", "Seconds of audio produced.", ["endpoint"], registry=r)
        self.requests = Counter("onestep_requests", "Finished synthesis requests.", ["endpoint", "outcome"], registry=r)
        self.errors = Counter("onestep_errors", "Errors answered, by type.", ["type"], registry=r)
        # multi-process: summed over the live processes, refreshed by the event-loop probe and at each render
        self.queue_depth = Gauge(
            "onestep_queue_depth", "Requests waiting for an engine thread.", registry=r, multiprocess_mode="livesum"
        )
        self.in_flight = Gauge(
            "onestep_in_flight", "Requests admitted and not finished.", registry=r, multiprocess_mode="livesum"
        )
        if not self.multiprocess:
            self.queue_depth.set_function(lambda: scheduler.queue_depth)
            self.in_flight.set_function(lambda: scheduler.in_flight)
        self.gc_pause = Histogram(
            "onestep_gc_pause_seconds",
            "Garbage-collection pauses (trigger: idle = collected between requests, automatic = CPython's threshold).",
            ["generation", "trigger"],
            buckets=_PAUSE_BUCKETS,
            registry=r,
        )
        self.loop_lag = Histogram(
            "onestep_event_loop_lag_seconds", "Event-loop timer lateness.", buckets=_PAUSE_BUCKETS, registry=r
        )
        self.stage = Histogram(
            "onestep_stage_seconds", "Micro-batching: time per request stage.", ["stage"], buckets=_STAGE_BUCKETS,
            registry=r,
        )  # fmt: skip
        self.batch_size = Histogram(
            "onestep_batch_size", "Micro-batching: requests per engine call, per request.", buckets=_BATCH_BUCKETS,
            registry=r,
        )  # fmt: skip
        self._gc_started = 0.0
        self.host_work = Counter(
            "onestep_host_work", "Requests by where their frontend / finishing ran.", ["stage", "process"], registry=r
        )

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            trigger = "idle" if in_idle_collection() else "automatic"
            self.gc_pause.labels(generation=str(info.get("generation", "?")), trigger=trigger).observe(
                time.perf_counter() - self._gc_started
            )

    def watch_gc(self, on: bool) -> None:
        """Start (``on``) or stop timing every garbage collection of the process."""
        if on and self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)
        elif not on and self._on_gc in gc.callbacks:
            gc.callbacks.remove(self._on_gc)

    async def watch_event_loop(self, period_s: float = LAG_PROBE_S) -> None:
        """Run forever: sleep ``period_s`` and record how much later than asked the loop woke up."""
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(period_s)
            self.loop_lag.observe(max(0.0, time.perf_counter() - t0 - period_s))
            self._refresh_gauges()

    def _refresh_gauges(self) -> None:
        """Multi-process mode: write this process's queue depth and requests in flight to its gauge file."""
        if self.multiprocess:
            self.queue_depth.set(self._scheduler.queue_depth)
            self.in_flight.set(self._scheduler.in_flight)

    def error(self, error_type: str) -> None:
        self.errors.labels(type=error_type).inc()

    def finished(
        self,
        endpoint: str,
        outcome: str,
        *,
        latency_s: float,
        ttfa_s: float | None,
        audio_s: float,
        stages: dict[str, float] | None = None,
        batch_size: int = 0,
        where: dict[str, str] | None = None,
    ) -> None:
        """Record one request that reached its end (``outcome``: ``ok``, ``cancelled`` or ``error``);
        ``stages`` (seconds per stage) and ``batch_size`` come from the micro-batching scheduler; ``where``: the
        process each stage of its host work ran in (:meth:`SynthesisStream.host_work`)."""
        for stage, seconds in (stages or {}).items():
            self.stage.labels(stage=stage).observe(seconds)
        for stage, process in (where or {}).items():
            self.host_work.labels(stage=stage, process=process).inc()
        if batch_size:
            self.batch_size.observe(batch_size)
        self.requests.labels(endpoint=endpoint, outcome=outcome).inc()
        if outcome == "ok":
            self.latency.labels(endpoint=endpoint).observe(latency_s)
        if ttfa_s is not None:
            self.ttfa.labels(endpoint=endpoint).observe(ttfa_s)
        if audio_s > 0:
            self.audio_seconds.labels(endpoint=endpoint).inc(audio_s)

    def render(self) -> bytes:
        """The Prometheus text exposition: this server's metrics (multi-process mode: summed over its processes)."""
        if not self.multiprocess:
            return generate_latest(self.registry)
        from prometheus_client.multiprocess import MultiProcessCollector

        self._refresh_gauges()
        total = CollectorRegistry()
        MultiProcessCollector(total)
        return generate_latest(total) + generate_latest(self.local_registry)
