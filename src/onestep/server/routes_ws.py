"""WebSocket ``/v1/stream``: JSON requests in, raw PCM out, one connection for many requests.

Protocol (server messages):

1. ``{"type": "start", "id", "sample_rate": 24000, "format": "pcm_s16le", "channels": 1, "skipped"}``
2. binary messages: little-endian int16 mono PCM, in order (they belong to the request of the last ``start``);
   with ``"timestamps": true`` in the request, ``{"type": "timestamps", "id", "words": [{text, spoken, start,
   end, char_start, char_end, phonemes}]}`` before the audio of the chunk in which those words start
3. ``{"type": "end", "id", "first_chunk_ms", "total_ms", "audio_seconds", "real_time_factor"}``

A request may carry an ``id`` (string of at most 128 characters, or integer); every JSON frame about it
echoes it (``null`` without one). ``skipped`` maps characters of the text that cannot be spoken to their
counts. A bad message gets ``{"type": "error", "id", "error": {"message", "type", "param", "code"}}`` and
the connection stays open. Requests sent while one is playing are served in order; at most
``ws_max_pending`` may wait, and each one more is refused at once with its own ``too_many_pending`` error.
Closing the socket cancels the request in progress. With an API key configured, pass it as
``Authorization: Bearer`` or (browsers cannot set headers) as the ``api_key`` query parameter.

The handshake's ``Origin`` (sent by browsers) must be the server's own origin or one of the CORS origins
(``--cors-origin``); others are refused (403), so a web page cannot drive the server on its visitors' behalf.
The server's own origin counts only under a ``Host`` it answers to without DNS (an IP address, ``localhost``,
``--host``, a CORS origin's host): a DNS-rebinding page has a matching ``Origin`` under a foreign name.
Clients that send no ``Origin`` (not browsers) are not affected.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from onestep.runtime.pcm import to_pcm16
from onestep.server.backend import SynthesisRequest
from onestep.server.errors import ApiError
from onestep.server.routes_http import check_api_key, due_words
from onestep.server.scheduler import SynthesisStream
from onestep.server.schemas import (
    StreamMessage,
    check_language,
    check_output,
    check_speed,
    check_text,
    check_voice,
)
from onestep.server.state import ServerState, as_api_error

log = logging.getLogger("onestep.server")

router = APIRouter()

_CLOSED = object()  # put on the inbox when the client has gone
MAX_PENDING = 8  # default of ServerConfig.ws_max_pending
MAX_ID_CHARS = 128

RequestId = str | int | None


def request_id(raw: str | bytes | None) -> RequestId:
    """The ``id`` of a raw request message, if it has a valid one (best effort: None otherwise)."""
    if not isinstance(raw, str):
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    rid = data.get("id") if isinstance(data, dict) else None
    if isinstance(rid, bool) or not isinstance(rid, str | int) or (isinstance(rid, str) and len(rid) > MAX_ID_CHARS):
        return None
    return rid


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...], bind_host: str = "") -> bool:
    """A WebSocket handshake's ``Origin`` is accepted when absent (not a browser), ``*`` or listed in
    ``allowed`` (the CORS origins), or the same host as the ``Host`` header (the server's own page) when that
    host is one the server answers to by itself (:func:`host_trusted`: a page served under any other name is
    a DNS-rebinding page: its name resolves to this server, its origin is its own)."""
    if origin is None:
        return True
    if "*" in allowed or origin.rstrip("/") in {a.rstrip("/") for a in allowed}:
        return True
    same = host is not None and urlsplit(origin).netloc.lower() == host.lower()
    return same and host_trusted(host or "", bind_host, allowed)


def host_trusted(host: str, bind_host: str, allowed: tuple[str, ...]) -> bool:
    """Whether a ``Host`` header (``name[:port]``) names this server without DNS: an IP address literal,
    ``localhost``, the address it binds (``--host``) or the host of a CORS origin (``--cors-origin``)."""
    name = urlsplit(f"//{host}").hostname or ""
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    names = {"localhost", bind_host.lower()} | {(urlsplit(a).hostname or "").lower() for a in allowed}
    return name.lower() in names - {""}


class _Connection:
    """One socket: a reader task feeding an inbox, and the stream currently being played."""

    def __init__(self, ws: WebSocket, state: ServerState) -> None:
        self.ws = ws
        self.state = state
        self.inbox: asyncio.Queue[Any] = asyncio.Queue()
        self.current: SynthesisStream | None = None
        self.max_pending = state.config.ws_max_pending
        self._send_lock = asyncio.Lock()  # the reader's refusals and the player's frames never interleave

    async def read(self) -> None:
        """Move client messages to the inbox (refusing each one over the pending limit at once, by its id);
        on disconnect cancel the playing stream."""
        try:
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text") if message.get("text") is not None else message.get("bytes")
                if self.inbox.qsize() >= self.max_pending:
                    err = ApiError(
                        429,
                        f"request refused: {self.max_pending} requests already wait on this connection",
                        code="too_many_pending",
                    )
                    await self.send_error(err, request_id(raw))
                    continue
                self.inbox.put_nowait(raw)
        finally:
            if self.current is not None:
                self.current.cancel()
            self.inbox.put_nowait(_CLOSED)

    async def send_json(self, frame: dict[str, Any]) -> None:
        async with self._send_lock:
            await self.ws.send_json(frame)

    async def send_bytes(self, data: bytes) -> None:
        async with self._send_lock:
            await self.ws.send_bytes(data)

    async def send_error(self, err: ApiError, rid: RequestId, *, count: bool = True) -> None:
        if count:
            self.state.metrics.error(err.code or err.type)
        await self.send_json({"type": "error", "id": rid, "error": err.body()["error"]})

    def parse(self, raw: str | bytes | None) -> SynthesisRequest:
        if not isinstance(raw, str):
            raise ApiError(400, "send requests as JSON text messages, not binary", code="binary_message")
        try:
            data = json.loads(raw)
        except ValueError:
            raise ApiError(400, "malformed JSON message", code="json_invalid") from None
        if isinstance(data, dict) and "id" in data:
            rid = data.pop("id")
            if isinstance(rid, bool) or not isinstance(rid, str | int) or len(str(rid)) > MAX_ID_CHARS:
                raise ApiError(
                    400, f"id must be a string of at most {MAX_ID_CHARS} characters or an integer",
                    param="id", code="invalid_id",
                )  # fmt: skip
        try:
            msg = StreamMessage.model_validate(data)
        except ValidationError as e:
            first = e.errors()[0]
            if first.get("type") == "json_invalid":
                raise ApiError(400, "malformed JSON message", code="json_invalid") from None
            param = ".".join(str(p) for p in first.get("loc", ())) or None
            if first.get("type") == "model_type":
                raise ApiError(400, "message must be a JSON object", code="model_type") from None
            raise ApiError(
                400, f"{param}: {first.get('msg')}" if param else str(first.get("msg")), param=param,
                code=first.get("type"),
            ) from None  # fmt: skip
        state = self.state
        output = check_output(msg.sample_rate, msg.gain_db)
        return SynthesisRequest(
            text=check_text(msg.text, state.config.max_chars, "text"),
            voice=check_voice(msg.voice, state.voices, openai=False),
            speed=check_speed(msg.speed, openai=False),
            sample_rate=output.sample_rate,
            gain_db=output.gain_db,
            timestamps=msg.timestamps,
            language=check_language(msg.language),
        )

    async def play(self, request: SynthesisRequest, rid: RequestId) -> None:
        """Stream one request's audio; errors after admission are sent as error messages."""
        state = self.state
        stream, skipped = await state.admit(request)
        self.current = stream
        outcome = "cancelled"
        rate = request.output_rate(state.sample_rate)
        sent = 0  # words of request.words already sent
        try:
            await self.send_json(
                {"type": "start", "id": rid, "sample_rate": rate, "format": "pcm_s16le",
                 "channels": 1, "skipped": skipped}
            )  # fmt: skip
            while True:
                try:
                    chunk = await stream.__anext__()
                except StopAsyncIteration:
                    break
                except Exception as e:
                    outcome = "error"
                    await self.send_error(as_api_error(e), rid)
                    return
                words, sent = due_words(request.words, sent, stream.samples_out / rate)  # those starting in it
                if words:
                    await self.send_json({"type": "timestamps", "id": rid, "words": words})
                await self.send_bytes(to_pcm16(chunk))
            if stream.cancelled:
                return
            words, sent = due_words(request.words, sent, float("inf"))
            if words:
                await self.send_json({"type": "timestamps", "id": rid, "words": words})
            total_s = time.perf_counter() - stream.received_at
            audio_s = stream.samples_out / rate
            ttfa = stream.time_to_first_audio_s
            await self.send_json(
                {
                    "type": "end",
                    "id": rid,
                    "first_chunk_ms": None if ttfa is None else round(ttfa * 1000, 1),
                    "total_ms": round(total_s * 1000, 1),
                    "audio_seconds": round(audio_s, 3),
                    "real_time_factor": round(total_s / audio_s, 4) if audio_s > 0 else None,
                }
            )
            outcome = "ok"
        finally:
            stream.cancel()
            self.current = None
            state.record("stream", stream, outcome)

    async def serve(self) -> None:
        while True:
            raw = await self.inbox.get()
            if raw is _CLOSED:
                return
            rid = request_id(raw)
            try:
                request = self.parse(raw)
                await self.play(request, rid)
            except (WebSocketDisconnect, OSError):  # the client went away (uvicorn's ClientDisconnected)
                raise
            except Exception as e:  # any bad input is this id's error frame; the connection and its queue stay
                await self.send_error(as_api_error(e), rid)


@router.websocket("/v1/stream")
async def stream_ws(ws: WebSocket) -> None:
    state: ServerState = ws.app.state.onestep
    origin = ws.headers.get("origin")
    if not origin_allowed(origin, ws.headers.get("host"), state.config.cors_origins, state.config.host):
        state.metrics.error("origin_not_allowed")
        log.info("websocket refused: origin %r is not allowed (see --cors-origin)", origin)
        await ws.close(code=1008)  # before accept: the handshake is answered 403
        return
    await ws.accept()
    try:
        auth = ws.headers.get("authorization") or (
            f"Bearer {ws.query_params['api_key']}" if "api_key" in ws.query_params else None
        )
        check_api_key(state, auth)
    except ApiError as e:
        state.metrics.error(e.code or e.type)
        await ws.send_json({"type": "error", "error": e.body()["error"]})
        await ws.close(code=1008, reason="invalid API key")
        return
    conn = _Connection(ws, state)
    reader = asyncio.create_task(conn.read())
    try:
        await conn.serve()
    except (WebSocketDisconnect, RuntimeError, OSError) as e:  # the client went away mid-send
        log.debug("websocket closed: %s", e)
    finally:
        reader.cancel()
        with contextlib.suppress(BaseException):
            await reader
        if ws.client_state == WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await ws.close()
