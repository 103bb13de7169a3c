"""HTTP routes: OpenAI-compatible speech, ``/synthesize``, voices, health, metrics and the web page."""

from __future__ import annotations

import asyncio
import base64
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator
from importlib import resources

import numpy as np
from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.background import BackgroundTask

from onestep.server.backend import SynthesisRequest
from onestep.server.encoders import (
    INLINE_FORMATS,
    MEDIA_TYPES,
    StreamEncoder,
    encode_file,
    make_encoder,
    supported_formats,
)
from onestep.server.errors import ApiError
from onestep.server.metrics import CONTENT_TYPE
from onestep.server.scheduler import SynthesisStream
from onestep.server.schemas import OPENAI_VOICES, SpeechRequest, SynthesizeBody, check_speed, check_text, check_voice
from onestep.server.state import ServerState, as_api_error, skipped_header

log = logging.getLogger("onestep.server")

#: ``/synthesize`` sends nothing until the whole file is done: text estimated to take longer than this (engine
#: seconds) is refused (413), below the 60 s read timeout common proxies use.
WHOLE_FILE_MAX_ENGINE_S = 30.0


def get_state(request: Request) -> ServerState:
    return request.app.state.onestep


def check_api_key(state: ServerState, authorization: str | None) -> None:
    """401 unless ``authorization`` is ``Bearer <configured key>`` (no-op when no key is configured)."""
    key = state.config.api_key
    if key is None:
        return
    scheme, _, given = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), key.encode()):
        raise ApiError(
            401,
            "missing or invalid API key: send 'Authorization: Bearer <key>'",
            code="invalid_api_key",
            headers={"WWW-Authenticate": "Bearer"},
        )


async def require_api_key(request: Request) -> None:
    """The API routes' dependency (async: FastAPI would run a plain function on a worker thread, a thread
    hand-over per request on the latency path)."""
    check_api_key(get_state(request), request.headers.get("authorization"))


def check_format(fmt: str, param: str) -> str:
    fmt = fmt.lower()
    if fmt not in supported_formats():
        raise ApiError(
            400,
            f"{param} {fmt!r} is not supported; supported: {', '.join(supported_formats())}",
            param=param,
            code="unsupported_format",
        )
    return fmt


router = APIRouter()


@router.post("/v1/audio/speech", dependencies=[Depends(require_api_key)])
async def speech(body: SpeechRequest, request: Request) -> StreamingResponse:
    """OpenAI-compatible text-to-speech; the audio streams (chunked) as it is produced."""
    state = get_state(request)
    text = check_text(body.input, state.config.max_chars, "input")
    voice = check_voice(body.voice, state.voices, openai=True)
    speed = check_speed(body.speed, openai=True)
    fmt = check_format(body.response_format, "response_format")
    encoder = make_encoder(fmt, state.sample_rate)
    stream, skipped = await state.admit(SynthesisRequest(text=text, voice=voice, speed=speed))
    try:
        first = await state.first_chunk(stream, request)
    except BaseException as e:
        state.record("speech", stream, "error" if isinstance(e, ApiError) else "cancelled")
        raise
    headers = {"X-Time-To-First-Audio-Ms": _ms(stream.time_to_first_chunk_s), "Cache-Control": "no-store"}
    headers.update(skipped_header(skipped))
    if speed != body.speed:
        headers["X-Speed-Applied"] = f"{speed:g}"
    if stream.whole and body.stream_format != "sse":  # the audio is complete: one plain body, no chunking
        return await _whole(state, stream, first, fmt, headers)
    audio = _encoded(state, "speech", stream, first, encoder)
    if body.stream_format == "sse":
        return StreamingResponse(_sse(audio), media_type="text/event-stream", headers=headers)
    return StreamingResponse(audio, media_type=encoder.media_type, headers=headers)


async def _whole(
    state: ServerState, stream: SynthesisStream, first: np.ndarray | None, fmt: str, headers: dict[str, str]
) -> Response:
    """The response of a stream whose first chunk is its whole audio (GPU micro-batching).

    ``pcm`` and ``wav`` are encoded here (a copy of the samples); the compressed formats on a worker thread, so
    that an encoder's milliseconds do not hold up every other request on the event loop. The metrics are
    recorded after the response is sent.
    """
    try:
        async for _ in stream:  # only the end marker is left (already queued: no wait)
            raise RuntimeError("a whole-audio stream produced a second chunk")
        audio = first if first is not None else np.zeros(0, dtype=np.float32)
        if fmt in INLINE_FORMATS:
            data = encode_file(fmt, audio, state.sample_rate)
        else:
            data = await asyncio.to_thread(encode_file, fmt, audio, state.sample_rate)
    except BaseException:
        stream.cancel()
        state.record("speech", stream, "error")
        raise
    stream.cancel()
    done = BackgroundTask(state.record, "speech", stream, "ok", time.perf_counter())
    return Response(data, media_type=MEDIA_TYPES[fmt], headers=headers, background=done)


async def _encoded(
    state: ServerState, endpoint: str, stream: SynthesisStream, first: np.ndarray | None, encoder: StreamEncoder
) -> AsyncIterator[bytes]:
    """Encoded bytes of ``first`` and every later chunk; a failure mid-stream aborts the connection."""
    outcome = "cancelled"
    try:
        if first is not None:
            if data := encoder.encode(first):
                yield data
        async for chunk in stream:
            if data := encoder.encode(chunk):
                yield data
        if data := encoder.finish():
            yield data
        outcome = "ok"
    except Exception as e:
        outcome = "error"
        err = as_api_error(e)
        state.metrics.error(err.code or err.type)
        log.warning("%s: stream aborted after audio started: %s", endpoint, err.message)
        raise
    finally:
        stream.cancel()
        state.record(endpoint, stream, outcome)


async def _sse(audio: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """OpenAI's ``stream_format="sse"``: ``speech.audio.delta`` events (base64 audio), then ``speech.audio.done``;
    a stream cut after it started (timeout, shutdown deadline) ends with an ``error`` event instead."""
    try:
        async for data in audio:
            event = {"type": "speech.audio.delta", "audio": base64.b64encode(data).decode()}
            yield f"data: {json.dumps(event)}\n\n".encode()
    except Exception as e:
        yield f"data: {json.dumps({'type': 'error', 'error': as_api_error(e).body()['error']})}\n\n".encode()
        return
    yield b'data: {"type": "speech.audio.done"}\n\n'


@router.post("/synthesize", dependencies=[Depends(require_api_key)])
async def synthesize(body: SynthesizeBody, request: Request) -> Response:
    """Whole-file synthesis with timing headers (server-side, milliseconds / seconds)."""
    state = get_state(request)
    text = check_text(body.text, state.config.max_chars, "text")
    voice = check_voice(body.voice, state.voices, openai=False)
    speed = check_speed(body.speed, openai=False)
    fmt = check_format(body.format, "format")
    stream, skipped = await state.admit(
        SynthesisRequest(text=text, voice=voice, speed=speed), max_engine_s=WHOLE_FILE_MAX_ENGINE_S
    )
    outcome = "cancelled"
    try:
        chunks = await state.collect(stream, request)
        outcome = "ok"
    except ApiError:
        outcome = "error"
        raise
    finally:
        stream.cancel()
        state.record("synthesize", stream, outcome)
    audio = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)
    total_s = time.perf_counter() - stream.submitted_at
    audio_s = audio.size / state.sample_rate
    headers = {
        "X-Time-To-First-Byte-Ms": _ms(stream.time_to_first_chunk_s),
        "X-Synthesis-Time-Ms": _ms(total_s),
        "X-Audio-Duration-S": f"{audio_s:.3f}",
        "X-Real-Time-Factor": f"{total_s / audio_s:.4g}" if audio_s > 0 else "0",
        **skipped_header(skipped),
    }
    return Response(encode_file(fmt, audio, state.sample_rate), media_type=MEDIA_TYPES[fmt], headers=headers)


def _ms(seconds: float | None) -> str:
    return "" if seconds is None else f"{seconds * 1000:.2f}"


@router.get("/v1/voices", dependencies=[Depends(require_api_key)])
async def voices(request: Request) -> JSONResponse:
    """Voices the API accepts, plus the OpenAI names that map to the language defaults."""
    state = get_state(request)
    return JSONResponse(
        {
            "voices": [
                {
                    "name": v.name,
                    "language": v.language,
                    "sample_rate": v.sample_rate,
                    "version": v.version,
                    "placeholder": v.placeholder,
                }
                for v in state.voices
            ],
            "openai_aliases": sorted(OPENAI_VOICES),
            "formats": list(supported_formats()),
        }
    )


@router.get("/health")
async def health(request: Request) -> JSONResponse:
    """503 while warming up (or if warm-up failed) and while draining for shutdown, else 200."""
    state = get_state(request)
    status = "ok" if state.ready else ("error" if state.warmup_error else "warming_up")
    if state.draining:
        status = "draining"
    body = {
        "status": status,
        "voices": len(state.voices),
        "device": state.config.engine_kind.device,
        "engine": state.config.engine,
        "queue_depth": state.scheduler.queue_depth,
        "in_flight": state.scheduler.in_flight,
    }
    if state.warmup_error:
        body["error"] = state.warmup_error
    return JSONResponse(body, status_code=200 if status == "ok" else 503)


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    """Prometheus text exposition."""
    return Response(get_state(request).metrics.render(), media_type=CONTENT_TYPE)


@router.get("/", response_class=HTMLResponse)
async def index() -> HTMLResponse:
    """The single-file demo page."""
    page = resources.files("onestep.server").joinpath("static/index.html").read_text(encoding="utf-8")
    return HTMLResponse(page, headers={"Cache-Control": "no-cache"})
