"""Admission control and execution of synthesis requests off the event loop.

Both schedulers admit at most ``queue_size`` waiting requests beyond the ones being worked on; one
more raises :class:`QueueFullError` at once (the HTTP layer answers 503 + Retry-After), so memory never
grows with load. Each admitted request gets a :class:`SynthesisStream` that the async side iterates.

- :class:`ThreadPoolScheduler` (CPU): ``workers`` threads share all admitted streams **chunk by chunk,
  earliest deadline first**. A new request's first chunk is due at once; a playing stream's next chunk
  is due shortly before its listener runs out of audio (first chunk time + audio sent - a margin). So a
  new request does not wait for whole earlier requests to finish: time to first audio stays low under
  concurrency while every stream is still produced ahead of real time (as long as the machine keeps up
  overall). Workers never idle while a chunk is pending (the order only decides who goes first).
- :class:`MicroBatchScheduler` (GPU): the text frontend runs on a small thread pool; one engine thread
  takes the prepared requests waiting, waits up to ``batch_window_ms`` for those still in the frontend
  (up to ``max_batch`` in all), runs them in one ``synthesize_prepared`` call and hands the whole batch
  back to the event loop at once.

A stream that is cancelled (client gone, no progress within the timeout) is dropped before it starts,
or stops at its next chunk.

Memory per stream is bounded: the engine hands a stream's chunks to its consumer through a buffer of at most
``max_buffered_s`` seconds of audio (:data:`MAX_BUFFERED_S`; past it, one more chunk). A stream whose buffer
is full is parked (no engine thread works on it) until its consumer takes a chunk, so a client that does not
read makes the engine wait instead of filling memory; the connection's write timeout then ends it. An
admitted request keeps its admission slot (:attr:`Scheduler.in_flight`) until both the engine is done and its
consumer has taken the last chunk or closed the stream: the audio has left, not only been made.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import math
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from onestep.errors import Unavailable
from onestep.server.admission import (
    CostModel,
    RequestCost,
    retry_after_s,
    start_delay_s,
)
from onestep.server.backend import PreparedRequest, SynthesisBackend, SynthesisRequest
from onestep.work_limits import DEFAULT_MAX_BUFFERED_S, TooMuchWorkError, too_much_audio_message

log = logging.getLogger("onestep.server")

#: A playing stream's next chunk is scheduled this many seconds before its listener would run dry.
PLAYBACK_MARGIN_S = 0.5
#: Seconds of audio a stream may hold between the engine and its consumer before the engine waits for it.
MAX_BUFFERED_S = DEFAULT_MAX_BUFFERED_S


class QueueFullError(Unavailable, RuntimeError):
    """The request queue is full, the request could not start within the admission deadline, or the server
    is shutting down; retry later (``code``: ``queue_full``, ``overloaded``, ``shutting_down``)."""

    def __init__(self, message: str, retry_after_s: int, code: str = "queue_full") -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s
        self.code = code


class SynthesisTimeoutError(Unavailable, TimeoutError):
    """The request ran past the server's per-request timeout."""


#: The stages a micro-batched request goes through (:meth:`SynthesisStream.stage_seconds`) and the marks
#: between them (admission and the first chunk are the stream's own times).
STAGES = ("frontend_queue", "frontend", "batch_wait", "engine", "finish", "handoff")
STAGE_MARKS = ("frontend_start", "prepared", "engine_start", "engine_done", "finished")


class _End:
    """Marker put on a stream's queue after its last chunk."""


_END = _End()


class SynthesisStream:
    """The chunks of one request, produced by engine threads, consumed on the event loop.

    Iterate with ``async for chunk in stream`` (float32 [n] arrays). Raises
    :class:`SynthesisTimeoutError` (and cancels) when ``timeout_s`` pass without a chunk: before the
    first one, or between two. A long stream that keeps producing is never cut. Re-raises engine
    errors. Call :meth:`cancel` when the consumer stops early.
    """

    def __init__(
        self,
        request: SynthesisRequest,
        loop: asyncio.AbstractEventLoop,
        timeout_s: float,
        on_cancel: Callable[[SynthesisStream], None] | None = None,
        *,
        rate: int = 24000,
        max_buffered_s: float = MAX_BUFFERED_S,
        on_resume: Callable[[SynthesisStream], None] | None = None,
        on_release: Callable[[SynthesisStream], None] | None = None,
    ) -> None:
        self.request = request
        self.rate = rate  # Hz of the chunks
        self.max_buffered_s = max_buffered_s
        #: the most samples the consumer may take before the stream fails with TooMuchWorkError (None: no cap)
        self.max_samples: int | None = None
        self._buffered = 0  # samples handed over by the engine, not yet taken by the consumer
        self._parked = False  # the engine waits for the consumer (buffer full)
        self._flow = threading.Lock()
        self._on_resume = on_resume
        self._on_release = on_release
        self._released = False
        self.cost: RequestCost | None = None  # set by the scheduler at admission
        self.estimated_start_s = 0.0  # the scheduler's estimate of its start delay, at admission
        self.submitted_at = time.perf_counter()
        #: when the server took the request up: where the route runs the text frontend before submitting
        #: (:meth:`onestep.server.state.ServerState.admit`), before it; else the submission. What the client
        #: waits through starts here (:attr:`time_to_first_audio_s`), the scheduler's own times at submission.
        self.received_at = self.submitted_at
        self.timeout_s = timeout_s
        self.first_chunk_at: float | None = None
        self.samples_out = 0
        self.whole = False  # set by a scheduler that delivers the complete audio as the first chunk
        #: perf_counter times of the micro-batching stages (:data:`STAGE_MARKS`), for the stage metrics
        self.marks: dict[str, float] = {}
        self.batch_size = 0  # requests in the engine call that produced this stream's audio (micro-batching)
        self.loop = loop
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._cancelled = threading.Event()
        self._on_cancel = on_cancel
        self._finished = False

    # --- engine side (any thread) -------------------------------------------------------------------
    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def put(self, item: Any) -> None:
        """Hand a chunk, an exception or the end marker to the consumer (thread-safe)."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is listening any more
            self.loop.call_soon_threadsafe(self._queue.put_nowait, item)

    def feed(self, item: Any) -> None:
        """:meth:`put` from the event loop's own thread (no wake-up needed)."""
        self._queue.put_nowait(item)

    def offer(self, chunk: np.ndarray) -> bool:
        """Hand ``chunk`` over (:meth:`put`) and say whether the engine may go on: False when the buffer now
        holds ``max_buffered_s`` or more, and the stream is parked until its consumer takes a chunk (the
        ``on_resume`` callback then reschedules it)."""
        with self._flow:
            self._buffered += int(chunk.size)
            full = self._buffered >= self.max_buffered_s * self.rate
            self._parked = full
        self.put(chunk)
        return not full

    @property
    def buffered_s(self) -> float:
        """Seconds of audio made and not yet taken by the consumer."""
        return self._buffered / self.rate

    def unpark(self) -> bool:
        """Clear the parked state; True when the stream was parked (its engine work must be rescheduled)."""
        with self._flow:
            parked, self._parked = self._parked, False
        return parked

    def _took(self, samples: int) -> None:
        """Consumer side: ``samples`` left the buffer; resume a parked engine once below half the bound."""
        with self._flow:
            self._buffered = max(0, self._buffered - samples)
            resume = self._parked and self._buffered < self.max_buffered_s * self.rate / 2
            if resume:
                self._parked = False
        if resume and self._on_resume is not None and not self.cancelled:
            self._on_resume(self)

    def _release(self) -> None:
        """The consumer is done with the stream (took its end, an error, or closed it): its slot may go."""
        if not self._released:
            self._released = True
            if self._on_release is not None:
                self._on_release(self)

    # --- consumer side (event loop) -------------------------------------------------------------------
    def cancel(self) -> None:
        """Stop producing: a waiting request is dropped, a running one stops at its next chunk."""
        if not self._cancelled.is_set():
            self._cancelled.set()
            if self._on_cancel is not None:
                self._on_cancel(self)
        self._release()

    def abort(self, error: BaseException) -> None:
        """Stop producing and end the consumer's iteration with ``error`` (event-loop thread; e.g. the
        shutdown deadline: the consumer sends the protocol's error frame)."""
        self.cancel()
        self.feed(error)

    @property
    def time_to_first_chunk_s(self) -> float | None:
        """Submitted (its text frontend done, where that ran before) -> first chunk produced; the sum of
        :meth:`stage_seconds` after the frontend."""
        return None if self.first_chunk_at is None else self.first_chunk_at - self.submitted_at

    @property
    def time_to_first_audio_s(self) -> float | None:
        """Taken up (:attr:`received_at`: its checks and text frontend included) -> first chunk produced: the
        server's part of what the client waits for its first audio (the header and the metric of that name)."""
        return None if self.first_chunk_at is None else self.first_chunk_at - self.received_at

    def stage_seconds(self) -> dict[str, float]:
        """Seconds spent in each micro-batching stage that this request went through (empty otherwise).

        ``frontend_queue``: admitted -> a frontend thread took it; ``frontend``: text -> ids (where the server
        ran it before admission, as the HTTP and WebSocket routes do: the time it took there);
        ``batch_wait``: ids ready (or admitted, when they were ready before) -> its engine call started;
        ``engine``: the engine pass; ``finish``: engine done -> its timings, output stage (and, in a worker
        process, its encoding) done; ``handoff``: finished -> the event loop had the audio.
        """
        m = self.marks
        if not m:
            return {}
        out: dict[str, float] = {}
        prepared = self.request.prepared
        if "frontend_start" in m:
            chain = [("frontend_queue", self.submitted_at, m.get("frontend_start")),
                     ("frontend", m.get("frontend_start"), m.get("prepared")),
                     ("batch_wait", m.get("prepared"), m.get("engine_start"))]  # fmt: skip
        else:
            if prepared is not None and prepared.frontend_s:
                out["frontend"] = prepared.frontend_s
            chain = [("batch_wait", self.submitted_at, m.get("engine_start"))]
        chain += [("engine", m.get("engine_start"), m.get("engine_done")),
                  ("finish", m.get("engine_done"), m.get("finished")),
                  ("handoff", m.get("finished"), self.first_chunk_at)]  # fmt: skip
        out.update({stage: b - a for stage, a, b in chain if a is not None and b is not None})
        return out

    def host_work(self) -> dict[str, str]:
        """Where this request's ``frontend`` and ``finish`` ran (``server_process`` / ``worker_process``); only
        the stages it went through (a request made chunk by chunk on the engine threads reports none)."""
        prepared = self.request.prepared
        out: dict[str, str] = {}
        if prepared is not None:
            out["frontend"] = prepared.frontend_in
        if "finished" in self.marks:
            out["finish"] = "worker_process" if prepared is not None and prepared.remote is not None else "server_process"
        return out

    async def _get(self) -> Any:
        return await asyncio.wait_for(self._queue.get(), self.timeout_s)

    def __aiter__(self) -> SynthesisStream:
        return self

    async def __anext__(self) -> np.ndarray:
        if self._finished:
            raise StopAsyncIteration
        try:  # an item already there (e.g. the end after a whole audio) is taken without a timer or task
            item = self._queue.get_nowait() if not self._queue.empty() else await self._get()
        except TimeoutError:
            self.cancel()
            self._finished = True
            what = "no audio" if self.first_chunk_at is None else "no further audio"
            raise SynthesisTimeoutError(f"{what} within the server timeout of {self.timeout_s:g} s") from None
        if item is _END:
            self._finished = True
            self._release()
            raise StopAsyncIteration
        if isinstance(item, BaseException):
            self._finished = True
            self._release()
            raise item
        self._took(int(item.size))
        if self.first_chunk_at is None:
            self.first_chunk_at = time.perf_counter()
        if self.max_samples is not None and self.samples_out + int(item.size) > self.max_samples:
            self.cancel()  # the estimate before the work was short: no audio past the cap, whatever the text
            self._finished = True
            raise TooMuchWorkError(too_much_audio_message(self.max_samples / self.rate), 0)
        self.samples_out += int(item.size)
        return item


class Scheduler:
    """Admission control (at most ``threads + queue_size`` requests at once) and the engine threads."""

    thread_name = "onestep-synth"

    def __init__(
        self,
        backend: SynthesisBackend,
        *,
        threads: int,
        queue_size: int,
        timeout_s: float,
        admission_deadline_s: float | None = None,
    ) -> None:
        self.backend = backend
        self.admission_deadline_s = admission_deadline_s
        self.cost_model = CostModel()
        self.timeout_s = timeout_s
        self.queue_size = queue_size
        self._n_threads = threads
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()
        self._accepting = False
        self._lock = threading.Lock()
        self._in_flight = 0
        self.max_buffered_s = MAX_BUFFERED_S
        self._holds: dict[int, int] = {}  # id(stream) -> holds on its slot left (engine, consumer)
        self._service_s = 0.5  # running mean of engine seconds per request (seeded with a guess)

    # --- observability ----------------------------------------------------------------------------
    @property
    def queue_depth(self) -> int:
        """Requests admitted that no engine thread has started yet."""
        raise NotImplementedError

    @property
    def in_flight(self) -> int:
        """Requests admitted and not finished (waiting + running)."""
        return self._in_flight

    @property
    def retry_after_s(self) -> int:
        """When a slot should be free: admitted work x mean service time / threads, 1-60 s."""
        estimate = self._in_flight * self._service_s / max(1, self._n_threads)
        return int(min(60, max(1, math.ceil(estimate))))

    def start_delay_s(self, cost: RequestCost | None) -> float:
        """Estimated seconds until a request of ``cost`` admitted now would produce its first chunk."""
        return self._in_flight * self._service_s / max(1, self._n_threads) + self.cost_model.first_chunk_s(cost)

    def _record_service(self, seconds: float) -> None:
        """Fold one request's engine time into the running mean used by :attr:`retry_after_s`."""
        self._service_s = 0.9 * self._service_s + 0.1 * seconds

    # --- lifecycle --------------------------------------------------------------------------------
    def start(self) -> None:
        for i in range(self._n_threads):
            t = threading.Thread(target=self._thread_main, name=f"{self.thread_name}-{i}", daemon=True)
            t.start()
            self._threads.append(t)
        self._accepting = True

    async def stop(self, drain_timeout_s: float) -> None:
        """Refuse new work, let admitted requests finish (up to ``drain_timeout_s``), end the threads."""
        self._accepting = False
        self._stopping.set()
        self._wake_all()
        deadline = time.perf_counter() + drain_timeout_s
        for t in self._threads:
            await asyncio.to_thread(t.join, max(0.0, deadline - time.perf_counter()))
        alive = [t.name for t in self._threads if t.is_alive()]
        if alive:
            log.warning("synthesis threads still busy after %.1f s drain: %s", drain_timeout_s, alive)

    # --- admission --------------------------------------------------------------------------------
    def check_admission(self, cost: RequestCost | None) -> None:
        """Raise :class:`QueueFullError` if a request of ``cost`` would be refused now (admits nothing)."""
        if not self._accepting:
            raise QueueFullError("the server is shutting down", self.retry_after_s, "shutting_down")
        with self._lock:
            self._check_admission(cost)

    def _check_admission(self, cost: RequestCost | None) -> float:
        """The count limit, then the time limit (caller holds the lock); returns the estimated start delay."""
        if self._in_flight >= self._n_threads + self.queue_size:
            raise QueueFullError(f"server busy: {self.queue_size} requests already waiting", self.retry_after_s)
        delay = self.start_delay_s(cost) * self.cost_model.delay_scale
        deadline = self.admission_deadline_s
        if deadline is not None and self._in_flight >= self._n_threads and delay > deadline:
            raise QueueFullError(
                f"server busy: this request could not start within {deadline * 1000:.0f} ms (estimated {delay:.1f} s)",
                retry_after_s(delay, deadline),
                "overloaded",
            )
        return delay

    def stop_accepting(self) -> None:
        """Refuse new requests from now on (503 ``shutting_down``); admitted ones go on."""
        self._accepting = False

    def submit(
        self, request: SynthesisRequest, cost: RequestCost | None = None, max_audio_s: float | None = None
    ) -> SynthesisStream:
        """Admit ``request`` (of ``cost``, when known); raise :class:`QueueFullError` at once when no slot is
        free, or when its first chunk could not come within :attr:`admission_deadline_s`. ``max_audio_s``: the
        request's audio cap (past it the stream fails with ``TooMuchWorkError``; None: none)."""
        if not self._accepting:
            raise QueueFullError("the server is shutting down", self.retry_after_s, "shutting_down")
        with self._lock:
            estimate = self._check_admission(cost)
            self._in_flight += 1
        stream = SynthesisStream(
            request, asyncio.get_running_loop(), self.timeout_s, self._cancelled,
            rate=request.output_rate(self.backend.sample_rate), max_buffered_s=self.max_buffered_s,
            on_resume=self._resume, on_release=self._release,
        )  # fmt: skip
        stream.cost = cost
        stream.estimated_start_s = estimate
        if max_audio_s is not None:
            stream.max_samples = int(max_audio_s * stream.rate)
        with self._lock:
            self._holds[id(stream)] = 2
        self._enqueue(stream)
        return stream

    def _release(self, stream: SynthesisStream) -> None:
        """One side (engine or consumer) is done with ``stream``; its slot is free when both are."""
        with self._lock:
            left = self._holds.get(id(stream), 0) - 1
            if left > 0:
                self._holds[id(stream)] = left
            elif left == 0:
                del self._holds[id(stream)]
                self._in_flight -= 1

    def _done(self, stream: SynthesisStream, error: BaseException | None = None) -> None:
        stream.put(error if error is not None else _END)
        self._release(stream)

    # --- subclass hooks ---------------------------------------------------------------------------
    def _enqueue(self, stream: SynthesisStream) -> None:
        raise NotImplementedError

    def _cancelled(self, stream: SynthesisStream) -> None:
        """Called (on the event loop) when a stream is cancelled."""

    def _resume(self, stream: SynthesisStream) -> None:
        """Called (on the event loop) when a parked stream's consumer has made room in its buffer."""

    def _wake_all(self) -> None:
        """Wake idle threads so that they notice :attr:`_stopping`."""

    def _thread_main(self) -> None:
        raise NotImplementedError


class _Job:
    """Engine-side state of one stream in :class:`ThreadPoolScheduler`."""

    __slots__ = ("audio_out_s", "chunks", "due", "engine_s", "first_out_at", "first_s", "started", "stream", "version")

    def __init__(self, stream: SynthesisStream) -> None:
        self.stream = stream
        self.chunks: Iterator[np.ndarray] | None = None  # created by the first thread that runs the job
        self.started = False
        self.first_out_at = 0.0
        self.audio_out_s = 0.0
        self.engine_s = 0.0
        self.version = 0  # heap entries of older versions are stale
        self.first_s = 0.0  # estimated engine seconds of its first chunk (counted while it waits)
        self.due = 0.0  # when its next chunk is due (kept while it is parked)


class ThreadPoolScheduler(Scheduler):
    """CPU: ``workers`` threads advance all admitted streams one chunk at a time, earliest deadline first."""

    def __init__(
        self,
        backend: SynthesisBackend,
        *,
        workers: int,
        queue_size: int,
        timeout_s: float,
        margin_s: float = PLAYBACK_MARGIN_S,
        admission_deadline_s: float | None = None,
    ) -> None:
        super().__init__(
            backend, threads=workers, queue_size=queue_size, timeout_s=timeout_s,
            admission_deadline_s=admission_deadline_s,
        )  # fmt: skip
        self.margin_s = margin_s
        self._heap: list[tuple[float, int, int, _Job]] = []  # (due, tie-break, version, job)
        self._jobs: dict[int, _Job] = {}  # id(stream) -> job, for cancellation
        self._order = itertools.count()
        self._ready = threading.Condition(self._lock)
        self._waiting = 0  # admitted, not yet started
        self._waiting_first_s = 0.0  # their estimated first-chunk engine seconds

    @property
    def queue_depth(self) -> int:
        return self._waiting

    def start_delay_s(self, cost: RequestCost | None) -> float:
        """The first chunks waiting and this one's, on the threads the playing streams leave (caller may hold
        the lock; see :mod:`onestep.server.admission`)."""
        model = self.cost_model
        playing = len(self._jobs) - self._waiting
        return start_delay_s(
            self._waiting_first_s, model.first_chunk_s(cost), self._n_threads, playing, model.rtf,
            self._waiting, self.admission_deadline_s or 0.0,
        )  # fmt: skip

    def _push(self, job: _Job, due: float) -> None:
        """(Re)schedule ``job`` at ``due``; caller holds the lock."""
        job.version += 1
        heapq.heappush(self._heap, (due, next(self._order), job.version, job))
        self._ready.notify()

    def _enqueue(self, stream: SynthesisStream) -> None:
        with self._lock:
            job = _Job(stream)
            job.first_s = self.cost_model.first_chunk_s(stream.cost)
            self._jobs[id(stream)] = job
            self._waiting += 1
            self._waiting_first_s += job.first_s
            self._push(job, stream.submitted_at)

    def _cancelled(self, stream: SynthesisStream) -> None:
        with self._lock:
            job = self._jobs.get(id(stream))
            # waiting in the heap or parked: move it to the front to drop it
            if job is not None and (job.version > 0 or stream.unpark()):
                self._push(job, -math.inf)

    def _resume(self, stream: SynthesisStream) -> None:
        with self._lock:
            job = self._jobs.get(id(stream))
            if job is not None and job.version == 0:
                self._push(job, job.due)

    def _wake_all(self) -> None:
        with self._lock:
            self._ready.notify_all()

    def _take(self) -> _Job | None:
        """The job due first (None when stopping with nothing left); marks it as being worked on."""
        with self._lock:
            while True:
                while self._heap:
                    _, _, version, job = heapq.heappop(self._heap)
                    if version == job.version:
                        job.version = 0  # taken: no heap entry is current until it is pushed again
                        if not job.started:
                            job.started = True
                            self._waiting -= 1
                            self._waiting_first_s = max(0.0, self._waiting_first_s - job.first_s)
                        return job
                if self._stopping.is_set() and not self._jobs:
                    return None
                self._ready.wait(timeout=0.2)

    def _finish(self, job: _Job, error: BaseException | None) -> None:
        if job.chunks is not None:
            close = getattr(job.chunks, "close", None)
            if close is not None:
                close()
        with self._lock:
            self._jobs.pop(id(job.stream), None)
        if job.chunks is not None:
            self._record_service(job.engine_s)
            if error is None and not job.stream.cancelled:
                self.cost_model.observe_done(job.stream.cost, job.engine_s, job.audio_out_s)
        self._done(job.stream, error)

    def _thread_main(self) -> None:
        while (job := self._take()) is not None:
            self._step(job)

    def _step(self, job: _Job) -> None:
        """Produce ``job``'s next chunk and reschedule it, or finish it."""
        stream = job.stream
        if stream.cancelled:
            self._finish(job, None)
            return
        started = time.perf_counter()
        try:
            if job.chunks is None:
                job.chunks = iter(self.backend.stream(stream.request))
            chunk = next(job.chunks)
        except StopIteration:
            self._finish(job, None)
            return
        except Exception as e:  # reported to the consumer, never kills the thread
            self._finish(job, e)
            return
        now = time.perf_counter()
        job.engine_s += now - started
        if job.audio_out_s == 0:
            job.first_out_at = now
            self.cost_model.observe_first(stream.cost, job.engine_s)
            self.cost_model.observe_start(stream.estimated_start_s, now - stream.submitted_at)
        job.audio_out_s += chunk.size / stream.request.output_rate(self.backend.sample_rate)
        if stream.max_samples is not None and job.audio_out_s * stream.rate > stream.max_samples:
            # past the request's audio cap (its estimate was short): nothing more is made or handed over
            self._finish(job, TooMuchWorkError(too_much_audio_message(stream.max_samples / stream.rate), 0))
            return
        job.due = -math.inf if stream.cancelled else job.first_out_at + job.audio_out_s - self.margin_s
        if not stream.offer(chunk) and not stream.cancelled:
            return  # parked: the consumer's next take (or its cancel) reschedules it
        with self._lock:
            self._push(job, job.due)


class MicroBatchScheduler(Scheduler):
    """GPU: the text frontend on ``frontend_threads`` threads, then one thread that gathers the prepared
    requests (waiting up to ``window_ms`` for those still in the frontend) and runs up to ``max_batch`` of
    them in one engine call.

    The engine thread does no text processing, so a request's frontend work never delays a batch that is
    ready. Each request receives its whole audio as one chunk (:attr:`SynthesisStream.whole`), and a
    batch's results reach the event loop in one hand-over. If a batch call fails, its requests are retried
    one by one so that one bad input cannot fail its neighbours.
    """

    thread_name = "onestep-batch"
    #: A batch's engine seconds assumed until the first batches are timed (:attr:`batch_s`).
    BATCH_S_SEED = 0.05

    def __init__(
        self,
        backend: SynthesisBackend,
        *,
        window_ms: float,
        max_batch: int,
        queue_size: int,
        timeout_s: float,
        frontend_threads: int = 2,
        admission_deadline_s: float | None = None,
    ) -> None:
        super().__init__(backend, threads=1, queue_size=queue_size, timeout_s=timeout_s,
                         admission_deadline_s=admission_deadline_s)  # fmt: skip
        self.window_s = window_ms / 1000.0
        self.max_batch = max_batch
        self.frontend_threads = frontend_threads
        self._frontend: ThreadPoolExecutor | None = None
        self._queue: queue.SimpleQueue[tuple[SynthesisStream, PreparedRequest]] = queue.SimpleQueue()
        self._preparing = 0  # admitted, frontend not finished
        self.batch_s = self.BATCH_S_SEED  # running mean of a batch's engine seconds

    @property
    def queue_depth(self) -> int:
        return self._preparing + self._queue.qsize()

    def start_delay_s(self, cost: RequestCost | None) -> float:
        """Seconds until a request admitted now has its audio: the batch running now, then the passes of up to
        ``max_batch`` requests that the ones admitted before it, and it, need, each :attr:`batch_s` long.

        On a GPU a batch costs about the same whatever its size, so the requests ahead cost passes, not their
        sum of single-request times (what :meth:`Scheduler.start_delay_s` counts for threads that serve one
        stream at a time): counting them one by one refused a closed loop of 100 clients at ~290 req/s with
        the GPU idle (lab/GPU_RUNS.md, session 16)."""
        passes = math.ceil((self.queue_depth + 1) / self.max_batch)
        return (passes + 1) * self.batch_s

    def _observe_batch(self, batch: list[tuple[SynthesisStream, PreparedRequest]], seconds: float) -> None:
        """Fold one batch's engine ``seconds`` into :attr:`batch_s`, and each request's share of them into the
        service time (``Retry-After``) and the cost model (its per-phoneme rate bounds whole-file requests,
        ``too_slow_for_whole_file``)."""
        self.batch_s = 0.9 * self.batch_s + 0.1 * seconds
        share = seconds / len(batch)
        self._record_service(share)
        for stream, _ in batch:
            self.cost_model.observe_done(stream.cost, share, 0.0)

    def start(self) -> None:
        self._frontend = ThreadPoolExecutor(self.frontend_threads, thread_name_prefix="onestep-frontend")
        super().start()

    async def stop(self, drain_timeout_s: float) -> None:
        await super().stop(drain_timeout_s)
        if self._frontend is not None:
            self._frontend.shutdown(wait=False, cancel_futures=True)

    def _enqueue(self, stream: SynthesisStream) -> None:
        stream.whole = True
        if stream.request.prepared is not None:  # the server ran the frontend (to cost it): straight to the engine
            self._queue.put((stream, stream.request.prepared))
            return
        with self._lock:
            self._preparing += 1
        assert self._frontend is not None, "scheduler not started"
        self._frontend.submit(self._prepare, stream)

    def _prepare(self, stream: SynthesisStream) -> None:
        """Frontend thread: text -> ids, then hand the request to the engine thread."""
        try:
            if stream.cancelled:
                self._done(stream)
                return
            stream.marks["frontend_start"] = time.perf_counter()
            try:
                prepared = self.backend.prepare(stream.request)
            except Exception as e:  # reported to the consumer
                self._done(stream, e)
                return
            stream.marks["prepared"] = time.perf_counter()
            if stream.cancelled:  # cancelled meanwhile: what its worker kept goes now
                self._discard(prepared)
                self._done(stream)
                return
            self._queue.put((stream, prepared))
        finally:
            with self._lock:
                self._preparing -= 1

    def _discard(self, prepared: PreparedRequest) -> None:
        """``prepared`` will not be rendered: the backend may forget what it kept for it."""
        discard = getattr(self.backend, "discard", None)
        if discard is not None:
            try:
                discard(prepared)
            except Exception:
                log.exception("discarding a prepared request failed")

    def _next(self, timeout: float) -> tuple[SynthesisStream, PreparedRequest] | None:
        """Next live prepared request within ``timeout`` s (0: only one already queued); drops dead ones."""
        while True:
            try:
                item = self._queue.get(timeout=timeout) if timeout > 0 else self._queue.get_nowait()
            except queue.Empty:
                return None
            if item[0].cancelled:
                self._discard(item[1])
                self._done(item[0])
                continue
            return item

    def _thread_main(self) -> None:
        while not (self._stopping.is_set() and self._queue.empty() and self._preparing == 0):
            first = self._next(0.1)
            if first is not None:
                self._run_batch(first)

    def _collect(
        self, first: tuple[SynthesisStream, PreparedRequest]
    ) -> list[tuple[SynthesisStream, PreparedRequest]]:
        """``first`` and the requests that join it: every one already prepared, and those still in the
        frontend for at most ``window_s``. With nothing in the frontend the batch starts at once, so a lone
        request never waits for company; a burst of requests is caught whole instead of in several passes."""
        batch = [first]
        until = time.perf_counter() + self.window_s
        while len(batch) < self.max_batch:
            nxt = self._next(0)
            if nxt is None:
                left = until - time.perf_counter()
                if self._preparing == 0 or left <= 0:  # nothing on its way (a prepared one is queued first)
                    break
                nxt = self._next(left)
                if nxt is None:
                    break
            batch.append(nxt)
        return batch

    def _run_batch(self, first: tuple[SynthesisStream, PreparedRequest]) -> None:
        """One engine call over ``first`` and the requests that join it; each request's result goes to its
        stream: at once when the backend finished it here, or when its worker process has (a
        :class:`~onestep.server.backend.PendingAudio`: one hand-over per worker answer)."""
        batch = self._collect(first)
        started = time.perf_counter()
        for s, _ in batch:
            s.marks["engine_start"] = started
            s.batch_size = len(batch)
        results: list[tuple[SynthesisStream, Any]] = []
        engine_done: float | None = None
        try:
            audios = self.backend.synthesize_prepared([p for _, p in batch])
            results = [(s, a) for (s, _), a in zip(batch, audios, strict=True)]
            engine_done = getattr(audios, "engine_done_at", None)
            self._observe_batch(batch, (engine_done or time.perf_counter()) - started)
        except Exception:
            log.exception("batch of %d failed; retrying its requests one by one", len(batch))
            for s, p in batch:
                try:
                    (audio,) = self.backend.synthesize_prepared([p])
                except Exception as e:
                    self._discard(p)  # never finished: what a worker process kept for it goes
                    results.append((s, e))
                else:
                    results.append((s, audio))
        done = time.perf_counter()
        ready: list[tuple[SynthesisStream, Any]] = []
        groups: dict[int, tuple[Any, list[tuple[SynthesisStream, Any]]]] = {}
        for s, a in results:
            s.marks["engine_done"] = engine_done or done
            if isinstance(a, (np.ndarray, BaseException)):
                s.marks["finished"] = done
                self._release(s)
                ready.append((s, a))
            else:  # finished elsewhere: delivered with the others of its group when they are done
                groups.setdefault(id(a.group), (a.group, []))[1].append((s, a))
        if ready:
            deliver(first[0].loop, ready)
        for group, members in groups.values():
            group.add_done_callback(self._when_finished(first[0].loop, members))

    def _when_finished(self, loop: asyncio.AbstractEventLoop, members: list[tuple[SynthesisStream, Any]]) -> Callable[[Any], None]:
        """The callback that hands ``members`` (streams and their pending audio) their results, once done."""

        def on_done(_: Any) -> None:
            now = time.perf_counter()
            results: list[tuple[SynthesisStream, Any]] = []
            for s, a in members:
                try:
                    item: Any = a.result()
                except Exception as e:  # this request's own failure (its worker died, its finishing failed)
                    item = e
                s.marks["finished"] = now
                self._release(s)
                results.append((s, item))
            deliver(loop, results)

        return on_done


def deliver(loop: asyncio.AbstractEventLoop, results: list[tuple[SynthesisStream, Any]]) -> None:
    """Hand each stream its one item (whole audio or exception) and its end, in one event-loop wake-up."""

    def on_loop() -> None:
        for stream, item in results:
            stream.feed(item)
            if not isinstance(item, BaseException):
                stream.feed(_END)

    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is listening any more
        loop.call_soon_threadsafe(on_loop)
