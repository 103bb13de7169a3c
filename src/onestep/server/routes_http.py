"""HTTP routes: OpenAI-compatible speech, ``/synthesize``, voices, health, metrics and the web page."""

from __future__ import annotations

import asyncio
import base64
import hmac
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
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
    UnsupportedFormatError,
    check_bitrate,
    check_encoding,
    encode_file,
    make_encoder,
    supported_formats,
)
from onestep.languages import LANGUAGES
from onestep.server.errors import ApiError
from onestep.server.metrics import CONTENT_TYPE
from onestep.server.phrases import KeptCopy, PhraseKey
from onestep.server.scheduler import SynthesisStream
from onestep.server.schemas import (
    OPENAI_VOICES,
    SpeechRequest,
    SynthesizeBody,
    check_language,
    check_output,
    openai_voice_table,
    check_speed,
    check_text,
    check_voice,
)
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


def check_format(fmt: str, param: str, bitrate: int | None = None) -> str:
    """``fmt`` (lower case) when it can be encoded here at ``bitrate`` kbit/s, else a 400 that says why (and
    names the extra to install where PyAV is what is missing)."""
    fmt = fmt.lower()
    if fmt not in MEDIA_TYPES:
        raise ApiError(
            400,
            f"{param} {fmt!r} is not supported; supported: {', '.join(supported_formats())}",
            param=param,
            code="unsupported_format",
        )
    try:
        check_bitrate(fmt, bitrate)
    except UnsupportedFormatError as e:
        raise ApiError(400, str(e), param="bitrate", code="invalid_bitrate") from None
    try:
        check_encoding(fmt, bitrate)
    except UnsupportedFormatError as e:
        raise ApiError(400, str(e), param=param, code="unsupported_format") from None
    return fmt


#: Longest audio whose pcm/wav file is made on the event loop (a copy: ~1 ms per 10 s); longer on a thread.
INLINE_MAX_S = 10.0

router = APIRouter()


@router.post("/v1/audio/speech", dependencies=[Depends(require_api_key)])
async def speech(body: SpeechRequest, request: Request) -> StreamingResponse:
    """OpenAI-compatible text-to-speech; the audio streams (chunked) as it is produced."""
    state = get_state(request)
    text = check_text(body.input, state.config.max_chars, "input")
    voice = check_voice(body.voice, state.voices, openai=True)
    speed = check_speed(body.speed, openai=True)
    fmt = check_format(body.response_format, "response_format", body.bitrate)
    output = check_output(body.sample_rate, body.gain_db)
    rate = output.rate(state.sample_rate)
    encoder = _encoder(fmt, rate, "response_format", body.bitrate)
    if body.timestamps and body.stream_format != "sse":
        raise ApiError(400, "timestamps come as events: use stream_format 'sse' (or POST /synthesize with "
                       "timestamps for JSON)", param="timestamps", code="timestamps_need_sse")  # fmt: skip
    cacheable = body.stream_format != "sse" and not output.gain_db and not body.timestamps and body.bitrate is None
    key = PhraseKey(text, voice, speed, fmt, rate) if cacheable else None
    if (hit := _phrase_hit(state, key, "speech")) is not None:  # a hit needs no frontend or engine work
        return hit
    whole_body = body.stream_format != "sse" and body.bitrate is None  # a worker process may encode the file
    request_ = SynthesisRequest(
        text=text, voice=voice, speed=speed, sample_rate=output.sample_rate, gain_db=output.gain_db,
        timestamps=body.timestamps, language=check_language(body.language), encoding=fmt if whole_body else None,
    )  # fmt: skip
    stream, skipped = await state.admit(request_)
    if skipped:  # a cached copy would lose the X-Skipped-Characters header
        key = None
    try:
        first = await state.first_chunk(stream, request)
    except BaseException as e:
        state.record("speech", stream, "error" if isinstance(e, ApiError) else "cancelled")
        raise
    headers = {"X-Time-To-First-Audio-Ms": _ms(stream.time_to_first_audio_s), "Cache-Control": "no-store"}
    headers.update(skipped_header(skipped))
    if speed != body.speed:
        headers["X-Speed-Applied"] = f"{speed:g}"
    if stream.whole and body.stream_format != "sse":  # the audio is complete: one plain body, no chunking
        return await _whole(state, stream, first, fmt, rate, headers, key, body.bitrate)
    audio = _encoded(state, "speech", stream, first, encoder, key, inline=fmt in INLINE_FORMATS)
    if body.stream_format == "sse":
        words = request_.words if body.timestamps else None
        clock = _audio_clock(stream, rate)
        return StreamingResponse(_sse(audio, words, clock), media_type="text/event-stream", headers=headers)
    return StreamingResponse(audio, media_type=encoder.media_type, headers=headers)


def _encoder(fmt: str, rate: int, param: str, bitrate: int | None = None) -> StreamEncoder:
    """A streaming encoder of ``fmt`` at ``rate`` Hz; 400 when the format cannot carry the rate (Opus)."""
    try:
        return make_encoder(fmt, rate, bitrate)
    except UnsupportedFormatError as e:
        raise ApiError(400, str(e), param=param, code="unsupported_format") from None


async def _whole(
    state: ServerState, stream: SynthesisStream, first: np.ndarray | None, fmt: str, rate: int,
    headers: dict[str, str], key: PhraseKey | None = None, bitrate: int | None = None,
) -> Response:  # fmt: skip
    """The response of a stream whose first chunk is its whole audio (GPU micro-batching).

    Short ``pcm`` and ``wav`` are encoded here (a copy of the samples); longer ones and the compressed formats on
    a worker thread, so that an encoder's milliseconds do not hold up every other request on the event loop. The metrics are
    recorded after the response is sent.
    """
    try:
        async for _ in stream:  # only the end marker is left (already queued: no wait)
            raise RuntimeError("a whole-audio stream produced a second chunk")
        audio = first if first is not None else np.zeros(0, dtype=np.float32)
        if stream.request.encoded and bitrate is None:  # encoded where it was finished (a worker process)
            data = stream.request.encoded[0]
        elif fmt in INLINE_FORMATS and audio.size <= INLINE_MAX_S * rate:
            data = encode_file(fmt, audio, rate)
        else:
            data = await asyncio.to_thread(encode_file, fmt, audio, rate, bitrate)
    except BaseException:
        stream.cancel()
        state.record("speech", stream, "error")
        raise
    stream.cancel()
    _phrase_store(state, key, data)
    done = BackgroundTask(state.record, "speech", stream, "ok", time.perf_counter())
    return Response(data, media_type=MEDIA_TYPES[fmt], headers=headers, background=done)


async def _encoded(
    state: ServerState,
    endpoint: str,
    stream: SynthesisStream,
    first: np.ndarray | None,
    encoder: StreamEncoder,
    key: PhraseKey | None = None,
    *,
    inline: bool = True,
) -> AsyncIterator[bytes]:
    """Encoded bytes of ``first`` and every later chunk; a failure mid-stream aborts the connection.
    With a phrase-cache ``key``, the complete response is kept in the cache. ``inline``: the encoder is a plain
    int16 copy (pcm, wav), run here; else each chunk is encoded on a worker thread (a compressed format's
    milliseconds per chunk would hold up every other client on the event loop)."""
    outcome = "cancelled"
    # the copy for the phrase cache is kept only while it could still be stored (at most one cache entry)
    keep = KeptCopy(state.phrases.max_entry_bytes) if key is not None and state.phrases is not None else None

    async def encode(chunk: np.ndarray) -> bytes:
        return encoder.encode(chunk) if inline else await asyncio.to_thread(encoder.encode, chunk)

    try:
        if first is not None:
            if data := await encode(first):
                if keep is not None:
                    keep.add(data)
                yield data
        async for chunk in stream:
            if data := await encode(chunk):
                if keep is not None:
                    keep.add(data)
                yield data
        if data := encoder.finish():
            if keep is not None:
                keep.add(data)
            yield data
        outcome = "ok"
        if keep is not None and (whole := keep.value()) is not None:
            _phrase_store(state, key, whole)
    except Exception as e:
        outcome = "error"
        err = as_api_error(e)
        state.metrics.error(err.code or err.type)
        log.warning("%s: stream aborted after audio started: %s", endpoint, err.message)
        raise
    finally:
        stream.cancel()
        state.record(endpoint, stream, outcome)


def _audio_clock(stream: SynthesisStream, rate: int) -> Callable[[], float]:
    """Seconds of audio the stream has handed out so far (the chunk being sent included)."""
    return lambda: stream.samples_out / rate


def due_words(words: list, sent: int, until_s: float) -> tuple[list[dict[str, object]], int]:
    """The words after ``words[:sent]`` that start before ``until_s`` seconds, as dicts, and the new count.

    ``words`` is a request's word timings (:attr:`SynthesisRequest.words`, in time order, filled by the engine
    thread before the chunk a sentence starts in): each word goes out just before the audio it starts in.
    """
    end = sent
    while end < len(words) and words[end].start < until_s:
        end += 1
    return [w.as_dict() for w in words[sent:end]], end


async def _sse(
    audio: AsyncIterator[bytes], words: list | None = None, clock: Callable[[], float] | None = None
) -> AsyncIterator[bytes]:
    """OpenAI's ``stream_format="sse"``: ``speech.audio.delta`` events (base64 audio), then ``speech.audio.done``;
    a stream cut after it started (timeout, shutdown deadline) ends with an ``error`` event instead.

    With ``words`` (the request's word timings) and ``clock`` (seconds of audio handed out): a
    ``speech.timestamps`` event with the words that start in the audio about to be sent goes out before it.
    """
    sent = 0
    try:
        async for data in audio:
            if words is not None and clock is not None:
                due, sent = due_words(words, sent, clock())
                if due:
                    yield f"data: {json.dumps({'type': 'speech.timestamps', 'words': due}, ensure_ascii=False)}\n\n".encode()
            event = {"type": "speech.audio.delta", "audio": base64.b64encode(data).decode()}
            yield f"data: {json.dumps(event)}\n\n".encode()
    except Exception as e:
        yield f"data: {json.dumps({'type': 'error', 'error': as_api_error(e).body()['error']})}\n\n".encode()
        return
    if words is not None:
        due, sent = due_words(words, sent, float("inf"))
        if due:
            yield f"data: {json.dumps({'type': 'speech.timestamps', 'words': due}, ensure_ascii=False)}\n\n".encode()
    yield b'data: {"type": "speech.audio.done"}\n\n'


@router.post("/synthesize", dependencies=[Depends(require_api_key)])
async def synthesize(body: SynthesizeBody, request: Request) -> Response:
    """Whole-file synthesis with timing headers (server-side, milliseconds / seconds)."""
    state = get_state(request)
    text = check_text(body.text, state.config.max_chars, "text")
    voice = check_voice(body.voice, state.voices, openai=False)
    speed = check_speed(body.speed, openai=False)
    fmt = check_format(body.format, "format", body.bitrate)
    output = check_output(body.sample_rate, body.gain_db)
    rate = output.rate(state.sample_rate)
    _encoder(fmt, rate, "format", body.bitrate)  # the format can carry the rate: checked before any synthesis
    cacheable = not output.gain_db and not body.timestamps and body.bitrate is None
    key = PhraseKey(text, voice, speed, fmt, rate) if cacheable else None
    if (hit := _phrase_hit(state, key, "synthesize")) is not None:  # a hit needs no frontend or engine work
        return hit
    request_ = SynthesisRequest(
        text=text, voice=voice, speed=speed, sample_rate=output.sample_rate, gain_db=output.gain_db,
        timestamps=body.timestamps, language=check_language(body.language),
        encoding=fmt if body.bitrate is None else None,
    )  # fmt: skip
    stream, skipped = await state.admit(request_, max_engine_s=WHOLE_FILE_MAX_ENGINE_S)
    if skipped:  # a cached copy would lose the X-Skipped-Characters header
        key = None
    outcome = "cancelled"
    try:
        chunks = await state.collect(stream, request)
        outcome = "ok"
    except ApiError:
        outcome = "error"
        raise
    finally:
        stream.cancel()
        state.record("synthesize", stream, outcome, trim=False)  # trimmed once the file is sent (below)
    total_s = time.perf_counter() - stream.received_at
    audio_s = sum(c.size for c in chunks) / rate
    headers = {
        "X-Time-To-First-Byte-Ms": _ms(stream.time_to_first_audio_s),
        "X-Synthesis-Time-Ms": _ms(total_s),
        "X-Audio-Duration-S": f"{audio_s:.3f}",
        "X-Real-Time-Factor": f"{total_s / audio_s:.4g}" if audio_s > 0 else "0",
        **skipped_header(skipped),
    }
    words = request_.words if body.timestamps else None
    # the file (and the JSON around it) is assembled on a worker thread: minutes of audio encode for seconds,
    # which on the event loop would hold up every other client, /health included
    encoded = request_.encoded[0] if request_.encoded and len(chunks) == 1 else None  # made by a worker process
    data = await asyncio.to_thread(whole_file, chunks, fmt, rate, words, body.bitrate, encoded)
    del chunks
    trim = BackgroundTask(state.trim_after, audio_s)  # the heap is trimmed after the reply has been sent
    if words is not None:
        return Response(data, media_type="application/json", headers=headers, background=trim)
    _phrase_store(state, key, data)
    return Response(data, media_type=MEDIA_TYPES[fmt], headers=headers, background=trim)


def whole_file(
    chunks: list[np.ndarray], fmt: str, rate: int, words: list | None = None, bitrate: int | None = None,
    encoded: bytes | None = None,
) -> bytes:  # fmt: skip
    """``/synthesize``'s body (any thread): the chunks (float32 [n_i]) as one ``fmt`` file at ``rate`` Hz (or
    ``encoded``, that file made already), or with ``words`` (word timings) the JSON ``{"audio": base64 file,
    "format", "media_type", "sample_rate", "duration", "words"}``."""
    audio = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)
    data = encoded if encoded is not None else encode_file(fmt, audio, rate, bitrate)
    if words is None:
        return data
    payload = {
        "audio": base64.b64encode(data).decode(), "format": fmt, "media_type": MEDIA_TYPES[fmt],
        "sample_rate": rate, "duration": round(audio.size / rate, 4), "words": [w.as_dict() for w in words],
    }  # fmt: skip
    del audio, data
    return json.dumps(payload, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def _phrase_hit(state: ServerState, key: PhraseKey | None, endpoint: str) -> Response | None:
    """The whole response from the phrase cache (``onestep.server.phrases``), or None on a miss / no cache."""
    if key is None or state.phrases is None or state.draining:  # draining: admission answers 503
        return None
    t0 = time.perf_counter()
    data = state.phrases.get(key)
    if data is None:
        return None
    took = time.perf_counter() - t0
    state.metrics.finished(endpoint, "ok", latency_s=took, ttfa_s=took, audio_s=0.0)
    headers = {"X-Time-To-First-Audio-Ms": _ms(took), "X-Phrase-Cache": "hit", "Cache-Control": "no-store"}
    if endpoint == "synthesize":
        headers["X-Time-To-First-Byte-Ms"] = _ms(took)
    return Response(data, media_type=MEDIA_TYPES[key.format], headers=headers)


def _phrase_store(state: ServerState, key: PhraseKey | None, data: bytes) -> None:
    if key is not None and state.phrases is not None and data:
        state.phrases.put(key, data)


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
                    "gender": v.gender,
                }
                for v in state.voices
            ],
            "openai_aliases": sorted(OPENAI_VOICES),
            "openai_voices": openai_voice_table(state.voices),
            "languages": [{"code": lang.code, "name": lang.name} for lang in LANGUAGES],
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
    if state.config.processes > 1:  # one of several server processes: it answers for itself
        body["pid"] = os.getpid()
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
