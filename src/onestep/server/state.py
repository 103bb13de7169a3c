"""The per-app state the routes share, and the admission/first-chunk step every synthesis route takes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
from starlette.requests import Request

from onestep.errors import UserError
from onestep.server.backend import BackendInputError, SynthesisBackend, SynthesisRequest, VoiceInfo
from onestep.server.config import ServerConfig
from onestep.server.errors import ApiError
from onestep.server.metrics import ServerMetrics
from onestep.server.phrases import PhraseCache
from onestep.server.scheduler import QueueFullError, Scheduler, SynthesisStream, SynthesisTimeoutError

log = logging.getLogger("onestep.server")

T = TypeVar("T")


class ClientGone(Exception):
    """The client disconnected before its audio started; nothing is left to answer."""


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
    """

    config: ServerConfig
    backend: SynthesisBackend
    scheduler: Scheduler
    metrics: ServerMetrics
    voices: list[VoiceInfo] = field(default_factory=list)
    ready: bool = False
    warmup_error: str | None = None
    phrases: PhraseCache | None = None

    @property
    def sample_rate(self) -> int:
        return int(self.backend.sample_rate)

    def submit(self, request: SynthesisRequest) -> SynthesisStream:
        """Admit ``request`` or answer 503 with ``Retry-After`` (queue full / shutting down)."""
        try:
            return self.scheduler.submit(request)
        except QueueFullError as e:
            raise ApiError(503, str(e), code="queue_full", headers={"Retry-After": str(e.retry_after_s)}) from None

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

    def record(self, endpoint: str, stream: SynthesisStream, outcome: str, ended_at: float | None = None) -> None:
        """Feed one finished request into the metrics (``ended_at``: when its audio was complete, perf_counter
        seconds; default now)."""
        self.metrics.finished(
            endpoint,
            outcome,
            latency_s=(time.perf_counter() if ended_at is None else ended_at) - stream.submitted_at,
            ttfa_s=stream.time_to_first_chunk_s,
            audio_s=stream.samples_out / stream.request.output_rate(self.sample_rate),
            stages=stream.stage_seconds(),
            batch_size=stream.batch_size,
        )


def as_api_error(e: Exception) -> ApiError:
    """The client-facing error for an exception raised while synthesizing."""
    if isinstance(e, ApiError):
        return e
    if isinstance(e, SynthesisTimeoutError):
        return ApiError(504, str(e), code="timeout_error")
    if isinstance(e, BackendInputError):
        return ApiError(400, f"cannot synthesize this input: {e}", param="input", code="unsynthesizable_input")
    if isinstance(e, UserError):
        return ApiError(400, str(e), code="invalid_request")
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
