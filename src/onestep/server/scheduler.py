"""Admission control and execution of synthesis requests off the event loop.

Two schedulers share one shape: a bounded queue in front of engine threads, and per request a
:class:`SynthesisStream` the async side iterates.

- :class:`ThreadPoolScheduler` (CPU): ``workers`` threads, each runs one request at a time through the
  engine's streaming entry point (ONNX Runtime releases the GIL, so threads run in parallel).
- :class:`MicroBatchScheduler` (GPU): one thread collects the requests that arrive within
  ``batch_window_ms`` (up to ``max_batch``) and runs them in one ``synthesize_batch`` call.

A full queue raises :class:`QueueFullError` at once (the HTTP layer answers 503 + Retry-After), so memory
never grows with load. A stream that is cancelled (client gone, timeout) is skipped if still queued and
stops at its next chunk if running.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from onestep.server.backend import SynthesisBackend, SynthesisRequest

log = logging.getLogger("onestep.server")


class QueueFullError(RuntimeError):
    """The request queue is full (or the server is shutting down); retry later."""

    def __init__(self, message: str, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class SynthesisTimeoutError(TimeoutError):
    """The request ran past the server's per-request timeout."""


class _End:
    """Marker put on a stream's queue after its last chunk."""


_END = _End()


class SynthesisStream:
    """The chunks of one request, produced by an engine thread, consumed on the event loop.

    Iterate with ``async for chunk in stream`` (float32 [n] arrays). Raises
    :class:`SynthesisTimeoutError` past the deadline and re-raises engine errors. Always call
    :meth:`cancel` (or use ``async with``) when the consumer stops early.
    """

    def __init__(self, request: SynthesisRequest, loop: asyncio.AbstractEventLoop, timeout_s: float) -> None:
        self.request = request
        self.submitted_at = time.perf_counter()
        self.deadline = self.submitted_at + timeout_s
        self.first_chunk_at: float | None = None
        self.samples_out = 0
        self._loop = loop
        self._queue: asyncio.Queue[Any] = asyncio.Queue()
        self._cancelled = threading.Event()
        self._finished = False

    # --- engine side (any thread) -------------------------------------------------------------------
    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def expired(self) -> bool:
        return time.perf_counter() > self.deadline

    def put(self, item: Any) -> None:
        """Hand a chunk, an exception or the end marker to the consumer (thread-safe)."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is listening any more
            self._loop.call_soon_threadsafe(self._queue.put_nowait, item)

    # --- consumer side (event loop) -------------------------------------------------------------------
    def cancel(self) -> None:
        """Stop producing: a queued request is skipped, a running one stops at its next chunk."""
        self._cancelled.set()

    @property
    def time_to_first_chunk_s(self) -> float | None:
        return None if self.first_chunk_at is None else self.first_chunk_at - self.submitted_at

    def __aiter__(self) -> SynthesisStream:
        return self

    async def __anext__(self) -> np.ndarray:
        if self._finished:
            raise StopAsyncIteration
        remaining = self.deadline - time.perf_counter()
        try:
            if remaining <= 0:
                raise TimeoutError
            item = await asyncio.wait_for(self._queue.get(), remaining)
        except TimeoutError:
            self.cancel()
            self._finished = True
            raise SynthesisTimeoutError("synthesis did not finish within the server timeout") from None
        if item is _END:
            self._finished = True
            raise StopAsyncIteration
        if isinstance(item, BaseException):
            self._finished = True
            raise item
        if self.first_chunk_at is None:
            self.first_chunk_at = time.perf_counter()
        self.samples_out += int(item.size)
        return item

    async def collect(self) -> np.ndarray:
        """All remaining chunks joined: float32 [n]."""
        chunks = [c async for c in self]
        return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)

    async def __aenter__(self) -> SynthesisStream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.cancel()


def _expired_error(stream: SynthesisStream) -> BaseException | None:
    """The error to hand a stream dropped by its engine thread: a timeout, or none if it was cancelled."""
    if stream.cancelled:
        return None
    return SynthesisTimeoutError("synthesis did not finish within the server timeout")


class Scheduler:
    """Bounded queue + engine threads; subclasses define what a thread does with queued streams."""

    thread_name = "onestep-synth"

    def __init__(self, backend: SynthesisBackend, *, threads: int, queue_size: int, timeout_s: float) -> None:
        self.backend = backend
        self.timeout_s = timeout_s
        self.queue_size = queue_size
        self._queue: queue.Queue[SynthesisStream] = queue.Queue(maxsize=queue_size)
        self._n_threads = threads
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()
        self._accepting = False
        self._lock = threading.Lock()
        self._in_flight = 0
        self._service_s = 0.5  # running mean of engine seconds per request (seeded with a guess)

    # --- observability ----------------------------------------------------------------------------
    @property
    def queue_depth(self) -> int:
        """Requests admitted and waiting for an engine thread."""
        return self._queue.qsize()

    @property
    def in_flight(self) -> int:
        """Requests admitted and not finished (queued + running)."""
        return self._in_flight

    @property
    def retry_after_s(self) -> int:
        """When a queue slot should be free: queued work x mean service time / threads, 1-60 s."""
        estimate = self._queue.qsize() * self._service_s / max(1, self._n_threads)
        return int(min(60, max(1, math.ceil(estimate))))

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
        """Refuse new work, let queued and running requests finish (up to ``drain_timeout_s``), end threads."""
        self._accepting = False
        self._stopping.set()
        deadline = time.perf_counter() + drain_timeout_s
        for t in self._threads:
            await asyncio.to_thread(t.join, max(0.0, deadline - time.perf_counter()))
        alive = [t.name for t in self._threads if t.is_alive()]
        if alive:
            log.warning("synthesis threads still busy after %.1f s drain: %s", drain_timeout_s, alive)

    # --- admission --------------------------------------------------------------------------------
    def submit(self, request: SynthesisRequest) -> SynthesisStream:
        """Queue ``request``; raise :class:`QueueFullError` at once when no slot is free."""
        if not self._accepting:
            raise QueueFullError("the server is shutting down", self.retry_after_s)
        stream = SynthesisStream(request, asyncio.get_running_loop(), self.timeout_s)
        with self._lock:
            try:
                self._queue.put_nowait(stream)
            except queue.Full:
                raise QueueFullError(
                    f"server busy: {self.queue_size} requests already waiting", self.retry_after_s
                ) from None
            self._in_flight += 1
        return stream

    # --- engine threads ---------------------------------------------------------------------------
    def _next(self, timeout: float) -> SynthesisStream | None:
        """Next live stream from the queue, or None after ``timeout`` s (skips cancelled/expired ones)."""
        while True:
            try:
                stream = self._queue.get(timeout=timeout)
            except queue.Empty:
                return None
            if stream.cancelled or stream.expired():
                self._done(stream, _expired_error(stream))
                continue
            return stream

    def _done(self, stream: SynthesisStream, error: BaseException | None = None) -> None:
        stream.put(error if error is not None else _END)
        with self._lock:
            self._in_flight -= 1

    def _thread_main(self) -> None:
        while not (self._stopping.is_set() and self._queue.empty()):
            self._work(0.1)

    def _work(self, poll_s: float) -> None:
        raise NotImplementedError


class ThreadPoolScheduler(Scheduler):
    """CPU: ``workers`` threads, each streams one request at a time through the engine."""

    def __init__(self, backend: SynthesisBackend, *, workers: int, queue_size: int, timeout_s: float) -> None:
        super().__init__(backend, threads=workers, queue_size=queue_size, timeout_s=timeout_s)

    def _work(self, poll_s: float) -> None:
        stream = self._next(poll_s)
        if stream is None:
            return
        error: BaseException | None = None
        started = time.perf_counter()
        chunks: Iterator[np.ndarray] = self.backend.stream(stream.request)
        try:
            for chunk in chunks:
                if stream.cancelled or stream.expired():
                    error = _expired_error(stream)
                    break
                stream.put(chunk)
        except Exception as e:  # reported to the consumer, never kills the thread
            error = e
        finally:
            close = getattr(chunks, "close", None)
            if close is not None:
                close()
            self._record_service(time.perf_counter() - started)
            self._done(stream, error)


class MicroBatchScheduler(Scheduler):
    """GPU: one thread gathers requests for ``window_ms`` and runs up to ``max_batch`` in one engine call.

    Each request receives its whole audio as one chunk. If a batch call fails, its requests are retried
    one by one so that one bad input cannot fail its neighbours.
    """

    thread_name = "onestep-batch"

    def __init__(
        self, backend: SynthesisBackend, *, window_ms: float, max_batch: int, queue_size: int, timeout_s: float
    ) -> None:
        super().__init__(backend, threads=1, queue_size=queue_size, timeout_s=timeout_s)
        self.window_s = window_ms / 1000.0
        self.max_batch = max_batch
        self.batch_sizes: list[int] = []  # sizes of the engine calls made, most recent last (bounded)

    def _work(self, poll_s: float) -> None:
        first = self._next(poll_s)
        if first is None:
            return
        batch = [first]
        until = time.perf_counter() + self.window_s
        while len(batch) < self.max_batch:
            remaining = until - time.perf_counter()
            nxt = self._next(remaining) if remaining > 0 else self._next_nowait()
            if nxt is None:
                break
            batch.append(nxt)
        live = [s for s in batch if not s.cancelled]
        for s in batch:
            if s.cancelled:
                self._done(s)
        if not live:
            return
        self.batch_sizes = [*self.batch_sizes[-999:], len(live)]
        started = time.perf_counter()
        try:
            audios = self.backend.synthesize_batch([s.request for s in live])
        except Exception:
            log.exception("batch of %d failed; retrying its requests one by one", len(live))
            for s in live:
                try:
                    (audio,) = self.backend.synthesize_batch([s.request])
                except Exception as e:
                    self._done(s, e)
                else:
                    s.put(audio)
                    self._done(s)
            return
        self._record_service((time.perf_counter() - started) / len(live))
        for s, audio in zip(live, audios, strict=True):
            s.put(audio)
            self._done(s)

    def _next_nowait(self) -> SynthesisStream | None:
        try:
            stream = self._queue.get_nowait()
        except queue.Empty:
            return None
        if stream.cancelled or stream.expired():
            self._done(stream, _expired_error(stream))
            return self._next_nowait()
        return stream
