"""``create_app``: the FastAPI application around a :class:`SynthesisBackend`.

Start-up starts the engine threads and warms the engine up in the background (``/health`` says 503
until done); shut-down stops admitting work and lets queued and running requests finish.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import replace

from fastapi import FastAPI, Request
from fastapi.responses import Response
from starlette.middleware.cors import CORSMiddleware

from onestep import __version__
from onestep.runtime.idle_gc import collect_while_idle, freeze_survivors
from onestep.server.backend import SynthesisBackend, SynthesisRequest, TTSBackend
from onestep.server.config import ServerConfig
from onestep.server.errors import install_error_handlers
from onestep.server.limits import BodySizeLimit
from onestep.server.metrics import ServerMetrics
from onestep.server.phrases import PhraseCache, shared_cache
from onestep.server.redact import install as redact_logs
from onestep.server.routes_compat import router as compat_router
from onestep.server.routes_http import router as http_router
from onestep.server.routes_ws import router as ws_router
from onestep.server.scheduler import MicroBatchScheduler, Scheduler, ThreadPoolScheduler
from onestep.server.state import ClientGone, ServerState

log = logging.getLogger("onestep.server")


def make_scheduler(config: ServerConfig, backend: SynthesisBackend) -> Scheduler:
    """Thread pool for CPU engines, micro-batching for batching (GPU) engines (unless ``config.scheduler_kind``
    names one)."""
    scheduler = _make_scheduler(config, backend)
    scheduler.max_buffered_s = float(config.max_buffered_s)
    return scheduler


def _make_scheduler(config: ServerConfig, backend: SynthesisBackend) -> Scheduler:
    if config.micro_batching:
        return MicroBatchScheduler(
            backend,
            window_ms=config.batch_window_ms,
            max_batch=config.max_batch,
            queue_size=config.queue_size,
            timeout_s=config.timeout,
            frontend_threads=max(config.frontend_threads, config.frontend_processes),
            admission_deadline_s=config.admission_deadline_s,
        )
    return ThreadPoolScheduler(
        backend,
        workers=config.workers,
        queue_size=config.queue_size,
        timeout_s=config.timeout,
        admission_deadline_s=config.admission_deadline_s,
    )


def calibrate_costs(scheduler: Scheduler, backend: TTSBackend) -> None:
    """Time one request through the engine's streaming path and seed the admission cost model with it
    (:meth:`onestep.server.admission.CostModel.calibrate`), so the first estimates fit this machine."""
    prepared = backend.prepare(SynthesisRequest(backend.warmup_text))
    started = time.perf_counter()
    first_s, samples = None, 0
    for chunk in backend.stream(replace(prepared.request, prepared=prepared)):
        first_s = time.perf_counter() - started if first_s is None else first_s
        samples += chunk.size
    total_s = time.perf_counter() - started
    scheduler.cost_model.calibrate(prepared.cost, first_s or total_s, total_s, samples / backend.sample_rate)
    model = scheduler.cost_model
    log.info("admission costs: first chunk %.2f ms/phoneme, %.2f ms/phoneme in all, real-time factor %.3f",
             model.first_s_per_phoneme * 1e3, model.s_per_phoneme * 1e3, model.rtf)  # fmt: skip


async def _warm_up(state: ServerState) -> None:
    if state.config.warmup:
        try:
            await asyncio.to_thread(state.backend.warm_up)
            if isinstance(state.backend, TTSBackend):
                await asyncio.to_thread(calibrate_costs, state.scheduler, state.backend)
        except Exception as e:  # reported by /health; the server keeps answering
            log.exception("warm-up failed")
            state.warmup_error = f"{type(e).__name__}: {e}"
            return
    if state.config.tune_gc:
        tune_gc()
    state.metrics.watch_gc(True)  # serving-time pauses only
    state.ready = True
    log.info("ready: %d voice(s) on %s", len(state.voices), state.config.engine)


#: Young-generation threshold after warm-up (CPython's default is 700 allocations).
GC_GEN0_THRESHOLD = 20_000


def tune_gc() -> None:
    """Collect once, freeze the survivors (models, frontend tables) out of every later collection, and
    collect the young generation less often. Per-request garbage is mostly freed by reference counting; what
    is left is collected at idle moments (:func:`onestep.runtime.idle_gc.collect_while_idle`), so the raised
    threshold is only reached under load that leaves none."""
    frozen = freeze_survivors()
    g0, g1, g2 = gc.get_threshold()
    gc.set_threshold(max(GC_GEN0_THRESHOLD, g0), g1, g2)
    log.info("gc: %d objects frozen, thresholds %s, young objects collected when idle", frozen, gc.get_threshold())


async def _collect_garbage_when_idle(state: ServerState) -> None:
    """Once the server is ready with its GC tuned: collect between requests (none in flight)."""
    while not state.ready:
        await asyncio.sleep(0.1)
    await collect_while_idle(lambda: state.scheduler.in_flight > 0)


def create_app(
    config: ServerConfig,
    backend: SynthesisBackend,
    scheduler: Scheduler | None = None,
    phrases: PhraseCache | None = None,
    *,
    warm_before_listening: bool = False,
) -> FastAPI:
    """The ASGI app serving ``backend`` with ``config``'s limits (``scheduler`` overrides the default one;
    ``phrases`` the process's phrase cache, :func:`onestep.server.phrases.shared_cache`).

    With ``warm_before_listening`` (a process of ``onestep serve --processes N``) the app's start-up waits for
    the warm-up, so that the server listens only once ready (no connection reaches a process that would answer
    503 warming up), and a failed warm-up fails the start-up (uvicorn exits 3: the supervisor reports it).
    """
    redact_logs()  # ?api_key=... never reaches the log
    scheduler = scheduler or make_scheduler(config, backend)
    state = ServerState(
        config=config, backend=backend, scheduler=scheduler, metrics=ServerMetrics(scheduler), voices=backend.voices()
    )
    # instant phrases: the process's cache, shared with its other interfaces, unless one is given
    state.phrases = phrases if phrases is not None else shared_cache()
    if state.phrases is not None:
        state.metrics.local_registry.register(state.phrases.collector())

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        scheduler.start()
        warm = asyncio.create_task(_warm_up(state))
        lag = asyncio.create_task(state.metrics.watch_event_loop())
        tasks = [warm, lag]
        if config.tune_gc:
            tasks.append(asyncio.create_task(_collect_garbage_when_idle(state)))
        try:
            if warm_before_listening:
                await warm
                if not state.ready:
                    raise RuntimeError(f"warm-up failed: {state.warmup_error}")
            yield
        finally:
            state.ready = False
            state.metrics.watch_gc(False)
            for task in tasks:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
            await scheduler.stop(drain_timeout_s=config.timeout)
            close = getattr(backend, "close", None)  # e.g. the frontend worker processes
            if close is not None:
                close()

    app = FastAPI(
        title="OneStep TTS",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,  # FastAPI's docs page loads its scripts from a CDN; the schema is at /openapi.json
        redoc_url=None,
    )
    app.state.onestep = state
    install_error_handlers(app, on_error=state.metrics.error, max_body_bytes=config.max_body_bytes)

    @app.exception_handler(ClientGone)
    async def _client_gone(request: Request, exc: ClientGone) -> Response:
        state.metrics.error("client_disconnected")
        return Response(status_code=499)

    app.include_router(http_router)
    app.include_router(ws_router)
    app.include_router(compat_router)
    app.add_middleware(BodySizeLimit, max_bytes=config.max_body_bytes, on_reject=state.metrics.error)
    if config.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(config.cors_origins),
            allow_methods=["GET", "POST", "OPTIONS"],
            allow_headers=["Authorization", "Content-Type"],
            expose_headers=[
                "X-Time-To-First-Byte-Ms",
                "X-Time-To-First-Audio-Ms",
                "X-Synthesis-Time-Ms",
                "X-Audio-Duration-S",
                "X-Real-Time-Factor",
                "X-Speed-Applied",
                "Retry-After",
            ],
        )
    return app
