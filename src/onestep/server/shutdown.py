"""Graceful shutdown of the HTTP server: drain, then stop.

On the first SIGTERM / SIGINT, :class:`DrainingServer` (a ``uvicorn.Server``) does not stop at once:

1. it marks the app draining: ``/health`` answers 503 ``{"status": "draining"}`` (a load balancer stops
   sending), every new synthesis request gets 503 ``shutting_down`` with ``Retry-After``; the socket stays
   open so that both answers reach the clients;
2. it lets admitted requests finish, up to ``ServerConfig.drain_timeout`` seconds;
3. streams still open at the deadline are cut with the protocol's error frame (WebSocket ``error`` message,
   SSE ``error`` event; a plain chunked body is closed without its final chunk, which clients report as an
   incomplete body);
4. then uvicorn closes the connections and the process exits: status 0 after a clean drain, 1 when streams
   had to be cut. A second signal stops at once.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import time
from collections.abc import Callable
from types import FrameType

import uvicorn
from fastapi import FastAPI

from onestep.server.config import ServerConfig
from onestep.server.http_limits import limited_http_protocol, limited_ws_protocol
from onestep.server.state import ServerDraining, ServerState

log = logging.getLogger("onestep.server")

#: Seconds uvicorn waits for responses to end after the drain (the error frames to go out).
CLOSE_GRACE_S = 3.0


async def drain(state: ServerState, timeout_s: float, poll_s: float = 0.05) -> bool:
    """Stop admitting, wait for the open streams to end (up to ``timeout_s``), then cut the rest with
    :class:`ServerDraining`. True when nothing had to be cut."""
    state.draining = True
    state.scheduler.stop_accepting()
    deadline = time.monotonic() + timeout_s
    log.info("draining: %d request(s) in progress, up to %.1f s", len(state.open_streams), timeout_s)
    while state.open_streams and time.monotonic() < deadline:
        await asyncio.sleep(poll_s)
    left = list(state.open_streams)
    for stream in left:
        stream.abort(ServerDraining(f"the server is shutting down: stream cut at the {timeout_s:g} s drain deadline"))
    if left:
        log.warning("drain deadline: cut %d stream(s) still playing", len(left))
    else:
        log.info("drained: every request finished")
    return not left


class DrainingServer(uvicorn.Server):
    """``uvicorn.Server`` whose first exit signal drains ``state`` before stopping (see the module doc).

    After :meth:`run`, :attr:`clean` says whether the drain finished without cutting a stream; the signal
    that started it is not re-raised (uvicorn's default, which makes the exit status 143).
    """

    def __init__(
        self,
        config: uvicorn.Config,
        state: ServerState,
        drain_timeout_s: float,
        on_started: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(config)
        self.state = state
        self.drain_timeout_s = drain_timeout_s
        self.on_started = on_started
        self.clean = True
        self._drain_task: asyncio.Task[bool] | None = None
        self._drain_requested = False

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self._drain_requested or self.should_exit:  # a second signal: stop now
            self.should_exit = True
            self.force_exit = sig == signal.SIGINT or self.force_exit
            return
        self._drain_requested = True

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        """uvicorn's start-up (the app's, then listening), then ``on_started`` once it listens."""
        await super().startup(sockets)
        if self.started and self.on_started is not None:
            self.on_started()

    def request_drain(self) -> None:
        """Start the drain as a signal would (tests, embedding)."""
        self._drain_requested = True

    async def on_tick(self, counter: int) -> bool:
        if self._drain_requested and self._drain_task is None:
            self._drain_task = asyncio.create_task(drain(self.state, self.drain_timeout_s))
        if self._drain_task is not None and self._drain_task.done():
            self.clean = self._drain_task.result()
            self.should_exit = True
        return await super().on_tick(counter)

    def capture_signals(self):  # type: ignore[no-untyped-def]
        """uvicorn's signal capture, without re-raising the signal after a drain (exit status 0, not 143)."""
        outer = super().capture_signals()

        class _Capture:
            def __enter__(inner) -> None:
                outer.__enter__()

            def __exit__(inner, *exc: object) -> bool | None:
                self._captured_signals.clear()
                return outer.__exit__(*exc)

        return _Capture()


def build_server(
    app: FastAPI,
    config: ServerConfig,
    *,
    http: str = "httptools",
    on_started: Callable[[], None] | None = None,
    **options: object,
) -> DrainingServer:
    """The uvicorn server of ``app``: ``config``'s address, its HTTP limits (:mod:`onestep.server.http_limits`)
    and drain (``options``: more ``uvicorn.Config`` settings, e.g. ``loop``, ``log_level``); ``on_started``
    is called once it listens."""
    uv = uvicorn.Config(
        app,
        host=config.host,
        port=config.port,
        http=limited_http_protocol(http, config),
        ws=limited_ws_protocol(config),  # type: ignore[arg-type]
        ws_max_size=config.max_body_bytes,
        timeout_graceful_shutdown=CLOSE_GRACE_S,  # type: ignore[arg-type]
        h11_max_incomplete_event_size=config.max_header_bytes,
        **options,  # type: ignore[arg-type]
    )
    return DrainingServer(uv, app.state.onestep, config.drain_timeout, on_started)
