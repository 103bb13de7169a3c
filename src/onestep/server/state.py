"""The per-app state the routes share, and the admission/first-chunk step every synthesis route takes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field, replace
from typing import TypeVar

import numpy as np
from starlette.requests import Request

from onestep.errors import OnestepError, Unavailable, UserError
from onestep.server.admission import RequestCost
from onestep.server.backend import (
    BackendInputError,
    PreparedRequest,
    SynthesisBackend,
    SynthesisRequest,
    VoiceInfo,
)
from onestep.server.config import ServerConfig
from onestep.server.errors import ApiError
from onestep.server.metrics import ServerMetrics
from onestep.server.phrases import PhraseCache
from onestep.server.scheduler import (
    QueueFullError,
    Scheduler,
    SynthesisStream,
    SynthesisTimeoutError,
)
from onestep.work_limits import (
    NothingToSpeakError,
    TooMuchWorkError,
    too_much_audio_message,
    too_much_work,
    trim_allocator,
)

log = logging.getLogger("onestep.server")

T = TypeVar("T")


class ClientGone(OnestepError):
    """The client disconnected before its audio started; nothing is left to answer."""


class ServerDraining(Unavailable):
    """The drain deadline of a graceful shutdown passed while this stream was still playing."""


#: After a request with at least this much audio, glibc's heap is trimmed (its freed buffers go back to the
#: system), at most once per :data:`TRIM_INTERVAL_S`.
TRIM_AFTER_AUDIO_S = 60.0
TRIM_INTERVAL_S = 5.0


@dataclass
class ServerState:
    """Everything a request handler needs.

    Attributes:
        config: validated server settings.
        backend: the synthesizer.
        scheduler: admission control + engine threads.
        metrics: Prometheus metrics of this app.
        voices: the backend's voices (read once at start-up).
        ready: set when warm-up has finished (``/health`` answers 200 from then on).
        warmup_error: why warm-up failed, if it did.
        phrases: the process's phrase cache (``onestep.server.phrases``), or None when caching is off.
        draining: a graceful shutdown is under way (``/health`` 503 ``draining``, new requests 503).
        open_streams: admitted streams whose response has not finished (what a drain waits for).
        preparing: requests in the text frontend before admission (at most ``workers + queue_size``: the
            frontend's own queue is bounded too).
    """

    config: ServerConfig
    backend: SynthesisBackend
    scheduler: Scheduler
    metrics: ServerMetrics
    voices: list[VoiceInfo] = field(default_factory=list)
    ready: bool = False
    warmup_error: str | None = None
    phrases: PhraseCache | None = None
    draining: bool = False
    open_streams: set[SynthesisStream] = field(default_factory=set)
    preparing: int = 0
    _last_trim: float = 0.0

    @property
    def sample_rate(self) -> int:
        return int(self.backend.sample_rate)

    def trim_after(self, audio_s: float) -> None:
        """After a request of ``audio_s`` seconds whose buffers are freed: give the C heap's free memory back
        (:func:`onestep.work_limits.trim_allocator`, on a worker thread) when it was long
        (:data:`TRIM_AFTER_AUDIO_S`), at most once per :data:`TRIM_INTERVAL_S`."""
        now = time.perf_counter()
        if audio_s >= TRIM_AFTER_AUDIO_S and now - self._last_trim >= TRIM_INTERVAL_S:
            self._last_trim = now
            try:
                asyncio.get_running_loop().run_in_executor(None, trim_allocator)
            except RuntimeError:  # no loop in this thread (a background task's worker thread): trim here
                trim_allocator()

    def submit(self, request: SynthesisRequest, cost: RequestCost | None = None) -> SynthesisStream:
        """Admit ``request`` or answer 503 with ``Retry-After`` (queue full, too slow to start, shutting down);
        its audio is capped at ``config.max_audio_s``."""
        if self.draining:
            raise ApiError(503, "the server is shutting down", code="shutting_down", headers={"Retry-After": "5"})
        try:
            stream = self.scheduler.submit(request, cost, self.config.max_audio_s)
        except QueueFullError as e:
            raise ApiError(503, str(e), code=e.code, headers={"Retry-After": str(e.retry_after_s)}) from None
        self.open_streams.add(stream)
        return stream

    async def admit(
        self, request: SynthesisRequest, max_engine_s: float | None = None
    ) -> tuple[SynthesisStream, dict[str, int]]:
        """Run the text frontend (off the event loop), bound the work and admit by time.

        Returns the admitted stream and the characters of the text that cannot be spoken. Raises
        :class:`ApiError`: 413 over ``max_phonemes`` or over ``max_audio_s`` of planned audio, 422 nothing speakable, 400 other bad input, 503 when
        the request could not start within the admission deadline (checked before the frontend with the
        backlog alone, and after it with the request's own cost); 413 when ``max_engine_s`` is given and the
        request's estimated engine time is longer. The stream's ``received_at`` is this call's start, so its
        time to first audio counts the frontend and the hops to and from it.
        """
        received = time.perf_counter()
        if self.draining:
            raise ApiError(503, "the server is shutting down", code="shutting_down", headers={"Retry-After": "5"})
        try:
            self.scheduler.check_admission(RequestCost(1, 1))
        except QueueFullError as e:
            raise ApiError(503, str(e), code=e.code, headers={"Retry-After": str(e.retry_after_s)}) from None
        if self.preparing >= self.config.workers + self.config.queue_size:
            raise ApiError(
                503, "server busy: too many requests in the text frontend", code="queue_full",
                headers={"Retry-After": str(self.scheduler.retry_after_s)},
            )  # fmt: skip
        here = self.config.inline_when_idle and self.preparing == 0 and not self.open_streams  # a lone request
        self.preparing += 1
        try:
            prepare_future = None if here else getattr(self.backend, "prepare_future", None)  # in a worker process:
            pending = prepare_future(request) if prepare_future is not None else None  # no thread hand-over here
            if pending is not None:
                prepared = await asyncio.wrap_future(pending)
            else:
                prepared = await asyncio.to_thread(_timed_prepare, self.backend, request, here)
        except TooMuchWorkError as e:  # name the server's limit (the backend's may differ)
            limit = min(e.limit, self.config.max_phonemes)
            raise as_api_error(too_much_work(limit)) from None
        except Exception as e:
            raise as_api_error(e) from e
        finally:
            self.preparing -= 1
        try:
            if prepared.cost.phonemes > self.config.max_phonemes:  # the backend's own limit may be higher
                raise as_api_error(too_much_work(self.config.max_phonemes))
            try:
                check_planned_audio(prepared, self.config.max_audio_s)
            except UserError as e:
                raise as_api_error(e) from None
            if max_engine_s is not None and (estimate := self.scheduler.cost_model.total_s(prepared.cost)) > max_engine_s:
                raise ApiError(
                    413,
                    f"this text would take about {estimate:.0f} s to synthesize, longer than this endpoint's "
                    f"{max_engine_s:g} s (it sends nothing until the whole file is done): use /v1/audio/speech, "
                    "which streams, or split the text",
                    param="text",
                    code="too_slow_for_whole_file",
                )
            stream = self.submit(replace(request, prepared=prepared), prepared.cost)
            stream.received_at = received
        except BaseException:  # refused: what a worker process kept for it goes
            discard = getattr(self.backend, "discard", None)
            if discard is not None:
                discard(prepared)
            raise
        return stream, prepared.skipped

    async def first_chunk(self, stream: SynthesisStream, http: Request | None = None) -> np.ndarray | None:
        """The stream's first chunk (``None`` if it produced no audio); see :meth:`until_done`."""
        return await self.until_done(stream, _next_or_none(stream), http)

    async def collect(self, stream: SynthesisStream, http: Request | None = None) -> list[np.ndarray]:
        """All of the stream's remaining chunks; see :meth:`until_done`."""
        return await self.until_done(stream, _all_chunks(stream), http)

    async def until_done(self, stream: SynthesisStream, work: Awaitable[T], http: Request | None) -> T:
        """Await ``work`` (reading ``stream``), mapping failures to :class:`ApiError`.

        With ``http`` given, a client that disconnects meanwhile cancels the stream and raises
        :class:`ClientGone`. Any failure cancels the stream.
        """
        task = asyncio.ensure_future(work)
        watch = asyncio.ensure_future(wait_disconnect(http)) if http is not None else None
        try:
            pending = {task} if watch is None else {task, watch}
            done, _ = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            if task not in done:
                raise ClientGone
            try:
                return task.result()
            except Exception as e:
                raise as_api_error(e) from e
        except BaseException:
            stream.cancel()
            raise
        finally:
            for t in (task, watch):
                if t is not None and not t.done():
                    t.cancel()
                    with contextlib.suppress(BaseException):
                        await t

    def record(
        self, endpoint: str, stream: SynthesisStream, outcome: str, ended_at: float | None = None, *, trim: bool = True
    ) -> None:
        """Feed one finished request into the metrics (``ended_at``: when its audio was complete, perf_counter
        seconds; default now), and trim the C heap after a long one (``trim=False``: the caller does, once its
        buffers are gone: :meth:`trim_after`)."""
        self.open_streams.discard(stream)
        audio_s = stream.samples_out / stream.request.output_rate(self.sample_rate)
        if trim:
            self.trim_after(audio_s)
        self.metrics.finished(
            endpoint,
            outcome,
            latency_s=(time.perf_counter() if ended_at is None else ended_at) - stream.received_at,
            ttfa_s=stream.time_to_first_audio_s,
            audio_s=audio_s,
            stages=stream.stage_seconds(),
            batch_size=stream.batch_size,
            where=stream.host_work(),
        )


def _timed_prepare(backend: SynthesisBackend, request: SynthesisRequest, here: bool = False) -> PreparedRequest:
    """``backend.prepare(request)`` with the seconds it took in ``frontend_s`` (the frontend stage's metric);
    ``here``: ``backend.prepare_here`` where it has one (this process's frontend, no worker process)."""
    started = time.perf_counter()
    prepare = getattr(backend, "prepare_here", None) if here else None
    prepared = (prepare or backend.prepare)(request)
    return replace(prepared, frontend_s=time.perf_counter() - started)


def check_planned_audio(prepared: PreparedRequest, max_audio_s: float) -> None:
    """Raise :class:`TooMuchWorkError` (413) when ``prepared`` would make more than ``max_audio_s`` seconds of
    audio (:attr:`PreparedRequest.planned_audio_s`: say-as, sub and phoneme expanded, divided by speed, breaks
    added), before any engine work; and :class:`NothingToSpeakError` (422) when it would make none."""
    planned = prepared.planned_audio_s
    if planned > max_audio_s:
        raise TooMuchWorkError(too_much_audio_message(max_audio_s, planned), round(max_audio_s))
    if prepared.cost.phonemes <= 0 and planned <= 0:
        raise NothingToSpeakError("nothing to speak in the text", prepared.skipped)


def as_api_error(e: Exception) -> ApiError:
    """The client-facing error for an exception raised while synthesizing."""
    if isinstance(e, ApiError):
        return e
    if isinstance(e, SynthesisTimeoutError):
        return ApiError(504, str(e), code="timeout_error")
    if isinstance(e, ServerDraining):
        return ApiError(503, str(e), code="shutting_down")
    if isinstance(e, TooMuchWorkError):
        return ApiError(413, str(e), param="input", code="too_much_work")
    if isinstance(e, NothingToSpeakError):
        return ApiError(422, str(e), param="input", code="nothing_to_speak")
    if isinstance(e, BackendInputError):
        return ApiError(400, f"cannot synthesize this input: {e}", param="input", code="unsynthesizable_input")
    if isinstance(e, UserError):
        return ApiError(400, str(e), code="invalid_request")
    if isinstance(e, Unavailable):  # e.g. the host worker process holding it died: the same request may succeed
        return ApiError(503, f"synthesis failed, retry: {e}", code="worker_unavailable", headers={"Retry-After": "1"})
    log.error("synthesis failed", exc_info=e)  # an internal error: the trace goes to the log, not the client
    return ApiError(500, f"synthesis failed: {type(e).__name__}", code="synthesis_error")


async def _next_or_none(stream: SynthesisStream) -> np.ndarray | None:
    try:
        return await stream.__anext__()
    except StopAsyncIteration:
        return None


async def _all_chunks(stream: SynthesisStream) -> list[np.ndarray]:
    return [chunk async for chunk in stream]


async def wait_disconnect(http: Request) -> None:
    """Return when the HTTP client disconnects (the body must already have been read)."""
    while True:
        message = await http.receive()
        if message["type"] == "http.disconnect":
            return


def skipped_header(skipped: dict[str, int]) -> dict[str, str]:
    """``{"X-Skipped-Characters": "U+2605*2 U+1F600"}`` for a request whose text had unspeakable characters
    (code points, as headers are Latin-1), else ``{}``."""
    if not skipped:
        return {}
    items = sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0]))[:50]
    return {"X-Skipped-Characters": " ".join(f"U+{ord(c):04X}" + (f"*{n}" if n > 1 else "") for c, n in items)}
