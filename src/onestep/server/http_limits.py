"""Connection-level limits of the HTTP server (below the ASGI app, where a slow or huge request lives).

uvicorn reads request headers without a size limit (httptools) and without a time limit (both parsers), so
one client can hold a connection open for ever by sending a header a byte at a time (slowloris), or send
megabytes of headers. :func:`limited_http_protocol` returns uvicorn's protocol class for the chosen parser
with these limits (``ServerConfig``):

- ``max_header_bytes``: request line + headers; more is answered ``431`` and the connection closed
  (httptools: counted here; h11: its ``max_incomplete_event_size`` (uvicorn answers 400), and the bytes
  received before the headers ended are counted here too, as h11 lets a complete oversized head through).
- ``header_timeout``: seconds from a connection's first byte (or its opening) to the end of the headers;
  then ``408`` and close. A fresh connection that sends nothing is closed after it too.
- ``body_timeout``: seconds from the end of the headers to the end of the body; then the connection is
  closed (the app sees a disconnect).

- ``write_timeout``: seconds the connection's send buffer may stay full (the transport paused writing: the
  client does not read what it asked for); then the connection is aborted, the app sees a disconnect and the
  request is cancelled. The same timer guards WebSocket connections (:func:`limited_ws_protocol`).

Idle keep-alive connections are closed by uvicorn's own ``timeout_keep_alive`` (5 s).
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from onestep.server.config import ServerConfig

log = logging.getLogger("onestep.server")


def _response(status: str, message: str) -> bytes:
    body = json.dumps({"error": {"message": message, "type": "invalid_request_error", "param": None, "code": None}}).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    ).encode()
    return head + body


class _WriteTimeout:
    """Mix-in for an asyncio protocol: abort the connection when writing stays paused for ``write_timeout``
    seconds without progress (the peer's receive window and our send buffer full: a client that does not
    read). A slow reader that keeps taking bytes (a large file over a slow link) is never cut: each time the
    timer fires with the send buffer smaller than when it was armed, it is armed again."""

    write_timeout = 30.0
    transport: asyncio.Transport
    _write_timer: asyncio.TimerHandle | None = None
    _unsent = 0  # the send buffer's size when the timer was armed, bytes

    def pause_writing(self) -> None:
        super().pause_writing()  # type: ignore[misc]
        if self._write_timer is None:
            self._arm_write_timer()

    def _arm_write_timer(self) -> None:
        self._unsent = self.transport.get_write_buffer_size()
        self._write_timer = asyncio.get_running_loop().call_later(self.write_timeout, self._write_timed_out)

    def resume_writing(self) -> None:
        self._cancel_write_timer()
        super().resume_writing()  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_write_timer()
        super().connection_lost(exc)  # type: ignore[misc]

    def _cancel_write_timer(self) -> None:
        if self._write_timer is not None:
            self._write_timer.cancel()
            self._write_timer = None

    def _write_timed_out(self) -> None:
        self._write_timer = None
        if self.transport.is_closing():
            return
        if self.transport.get_write_buffer_size() < self._unsent:  # the client took something: not stuck
            self._arm_write_timer()
            return
        log.info("closing a connection that took nothing for %g s (write timeout)", self.write_timeout)
        self.transport.abort()  # drops the unsent buffer at once (close() would wait to flush it)


class _Limits(_WriteTimeout):
    """The timers and counters shared by both parsers' protocol classes (a mix-in)."""

    max_header_bytes = 16384
    header_timeout = 10.0
    body_timeout = 30.0
    transport: asyncio.Transport
    _read_timer: asyncio.TimerHandle | None = None
    _header_bytes = 0
    _responding = False

    def connection_made(self, transport: asyncio.Transport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        self._arm(self.header_timeout, "headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self, seconds: float, what: str) -> None:
        self._disarm()
        self._read_timer = asyncio.get_running_loop().call_later(seconds, self._read_timed_out, what)

    def _disarm(self) -> None:
        if self._read_timer is not None:
            self._read_timer.cancel()
            self._read_timer = None

    def _read_timed_out(self, what: str) -> None:
        self._read_timer = None
        if self.transport.is_closing():
            return
        if what == "headers":
            self.transport.write(_response("408 Request Timeout", f"request headers not received within {self.header_timeout:g} s"))
        self.transport.close()

    def _refuse_headers(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.write(
                _response("431 Request Header Fields Too Large", f"request headers exceed {self.max_header_bytes} bytes")
            )
            self.transport.close()


def limited_http_protocol(http: str, config: ServerConfig) -> type[asyncio.Protocol]:
    """uvicorn's ``http`` protocol class (``"httptools"`` or ``"h11"``) with ``config``'s header size and
    read-time limits."""
    attrs: dict[str, Any] = {
        "max_header_bytes": int(config.max_header_bytes),
        "header_timeout": float(config.header_timeout),
        "body_timeout": float(config.body_timeout),
        "write_timeout": float(config.write_timeout),
    }
    if http == "httptools":
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        class LimitedHttpToolsProtocol(_Limits, HttpToolsProtocol):
            def data_received(self, data: bytes) -> None:
                if self.transport.is_closing():
                    return
                super().data_received(data)

            def on_message_begin(self) -> None:
                self._header_bytes = 0
                self._arm(self.header_timeout, "headers")
                super().on_message_begin()

            def on_url(self, url: bytes) -> None:
                self._count(len(url))
                super().on_url(url)

            def on_header(self, name: bytes, value: bytes) -> None:
                self._count(len(name) + len(value) + 4)
                super().on_header(name, value)

            def _count(self, n: int) -> None:
                self._header_bytes += n
                if self._header_bytes > self.max_header_bytes:
                    self._refuse_headers()
                    raise ValueError("request headers too large")  # stops the parser (answered above)

            def on_headers_complete(self) -> None:
                self._arm(self.body_timeout, "body")
                super().on_headers_complete()

            def on_message_complete(self) -> None:
                self._disarm()
                super().on_message_complete()

        cls: type = LimitedHttpToolsProtocol
    else:
        import h11
        from uvicorn.protocols.http.h11_impl import H11Protocol

        class LimitedH11Protocol(_Limits, H11Protocol):
            def data_received(self, data: bytes) -> None:
                if self.transport.is_closing():
                    return
                if self.conn.their_state is h11.IDLE:  # still reading a request line and headers
                    if self._read_timer is None:
                        self._arm(self.header_timeout, "headers")
                    end = data.find(b"\r\n\r\n")  # the head ends here (the body may follow in the same read)
                    self._header_bytes += len(data) if end < 0 else end
                    if self._header_bytes > self.max_header_bytes:  # h11 lets a complete oversized head through
                        self._refuse_headers()
                        return
                super().data_received(data)
                state = self.conn.their_state
                if state is not h11.IDLE:
                    self._header_bytes = 0
                if state is h11.SEND_BODY and (self._read_timer is None or self._reading != "body"):
                    self._arm(self.body_timeout, "body")
                    self._reading = "body"
                elif state is not h11.IDLE and state is not h11.SEND_BODY:
                    self._disarm()

            _reading = "headers"

        cls = LimitedH11Protocol
    return type(cls.__name__, (cls,), attrs)


def limited_ws_protocol(config: ServerConfig) -> type[asyncio.Protocol]:
    """uvicorn's WebSocket protocol class (``websockets``' sans-I/O implementation) with ``config``'s write
    timeout."""
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    class LimitedWebSocketProtocol(_WriteTimeout, WebSocketsSansIOProtocol):
        pass

    return type("LimitedWebSocketProtocol", (LimitedWebSocketProtocol,), {"write_timeout": float(config.write_timeout)})
