"""WebSocket ``/v1/stream``: JSON requests in, raw PCM out, one connection for many requests.

Protocol (server messages):

1. ``{"type": "start", "sample_rate": 24000, "format": "pcm_s16le", "channels": 1}``
2. binary messages: little-endian int16 mono PCM, in order; with ``"timestamps": true`` in the request,
   ``{"type": "timestamps", "words": [{text, spoken, start, end, char_start, char_end, phonemes}]}`` before
   the audio of the chunk in which those words start
3. ``{"type": "end", "first_chunk_ms", "total_ms", "audio_seconds", "real_time_factor"}``

A bad message gets ``{"type": "error", "error": {"message", "type", "param", "code"}}`` and the
connection stays open. Requests sent while one is playing are served in order. Closing the socket
cancels the request in progress. With an API key configured, pass it as ``Authorization: Bearer`` or
(browsers cannot set headers) as the ``api_key`` query parameter.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect, WebSocketState

from onestep.server.backend import SynthesisRequest
from onestep.runtime.pcm import to_pcm16
from onestep.server.errors import ApiError
from onestep.server.routes_http import check_api_key, due_words
from onestep.server.scheduler import SynthesisStream
from onestep.server.schemas import StreamMessage, check_output, check_speed, check_text, check_voice
from onestep.server.state import ServerState, as_api_error

log = logging.getLogger("onestep.server")

router = APIRouter()

_CLOSED = object()  # put on the inbox when the client has gone
MAX_PENDING = 8  # requests a connection may queue behind the one playing; more are dropped with an error


class _Connection:
    """One socket: a reader task feeding an inbox, and the stream currently being played."""

    def __init__(self, ws: WebSocket, state: ServerState) -> None:
        self.ws = ws
        self.state = state
        self.inbox: asyncio.Queue[Any] = asyncio.Queue()
        self.current: SynthesisStream | None = None
        self.dropped = 0  # messages refused because MAX_PENDING were already waiting

    async def read(self) -> None:
        """Move client messages to the inbox; on disconnect cancel the playing stream."""
        try:
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if self.inbox.qsize() >= MAX_PENDING:
                    self.dropped += 1
                    self.state.metrics.error("too_many_pending")
                    continue
                self.inbox.put_nowait(message.get("text") if message.get("text") is not None else message.get("bytes"))
        finally:
            if self.current is not None:
                self.current.cancel()
            self.inbox.put_nowait(_CLOSED)

    async def send_error(self, err: ApiError, *, count: bool = True) -> None:
        if count:
            self.state.metrics.error(err.code or err.type)
        await self.ws.send_json({"type": "error", "error": err.body()["error"]})

    def parse(self, raw: str | bytes | None) -> SynthesisRequest:
        if not isinstance(raw, str):
            raise ApiError(400, "send requests as JSON text messages, not binary", code="binary_message")
        try:
            msg = StreamMessage.model_validate_json(raw)
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
        )

    async def play(self, request: SynthesisRequest) -> None:
        """Stream one request's audio; errors after admission are sent as error messages."""
        state = self.state
        stream = state.submit(request)
        self.current = stream
        outcome = "cancelled"
        rate = request.output_rate(state.sample_rate)
        sent = 0  # words of request.words already sent
        try:
            await self.ws.send_json({"type": "start", "sample_rate": rate, "format": "pcm_s16le", "channels": 1})
            while True:
                try:
                    chunk = await stream.__anext__()
                except StopAsyncIteration:
                    break
                except Exception as e:
                    outcome = "error"
                    await self.send_error(as_api_error(e))
                    return
                words, sent = due_words(request.words, sent, stream.samples_out / rate)  # those starting in it
                if words:
                    await self.ws.send_json({"type": "timestamps", "words": words})
                await self.ws.send_bytes(to_pcm16(chunk))
            if stream.cancelled:
                return
            words, sent = due_words(request.words, sent, float("inf"))
            if words:
                await self.ws.send_json({"type": "timestamps", "words": words})
            total_s = time.perf_counter() - stream.submitted_at
            audio_s = stream.samples_out / rate
            ttfa = stream.time_to_first_chunk_s
            await self.ws.send_json(
                {
                    "type": "end",
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
            if self.dropped:  # each drop was counted in the metrics when it happened
                n, self.dropped = self.dropped, 0
                message = f"{n} message(s) dropped: at most {MAX_PENDING} requests may wait per connection"
                await self.send_error(ApiError(429, message, code="too_many_pending"), count=False)
            try:
                request = self.parse(raw)
                await self.play(request)
            except ApiError as e:
                await self.send_error(e)


@router.websocket("/v1/stream")
async def stream_ws(ws: WebSocket) -> None:
    state: ServerState = ws.app.state.onestep
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
