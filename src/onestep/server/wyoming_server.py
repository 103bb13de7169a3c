"""Wyoming protocol service (Home Assistant): Describe -> Info, Synthesize -> AudioStart/Chunk/Stop.

Streaming synthesis (``synthesize-start`` / ``-chunk`` / ``-stop``) is supported: text chunks are cut
into sentences as they arrive and each finished sentence is spoken at once (its own
AudioStart/AudioChunk.../AudioStop), then ``synthesize-stopped`` ends the stream. The text waiting for a
sentence end is bounded (:class:`SentenceBuffer`): ``max_chars`` characters (one more: an error event, the
waiting text dropped) and ``timeout`` seconds (then it is spoken as it is); each character is scanned once. As in the protocol,
the plain ``synthesize`` event a client sends alongside a stream (for older servers) is ignored while
streaming. Requests go through the same :class:`~onestep.server.scheduler.Scheduler` as the HTTP server.

Every event is checked before use (:func:`check_event`): a malformed line, a field of the wrong type, a
missing ``text`` or an oversized event gets an ``error`` event naming the field, and the connection stays
usable. A client that goes away is logged at INFO, without a traceback.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial

from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event, async_write_event
from wyoming.info import Attribution, Describe, Info, TtsProgram, TtsVoice
from wyoming.server import AsyncEventHandler, AsyncServer, AsyncStdioServer
from wyoming.tts import (
    Synthesize,
    SynthesizeChunk,
    SynthesizeStart,
    SynthesizeStop,
    SynthesizeStopped,
    SynthesizeVoice,
)

from onestep import __version__
from onestep.errors import UserError
from onestep.languages import get_language, language_codes, requested_language
from onestep.runtime.output import OutputOptions
from onestep.runtime.pcm import to_pcm16
from onestep.runtime.voices import canonical_voice, choose_voice
from onestep.server.backend import SynthesisBackend, SynthesisRequest, VoiceInfo
from onestep.server.config import ServerConfig
from onestep.server.phrases import KeptCopy, PhraseKey, shared_cache
from onestep.server.scheduler import QueueFullError, Scheduler, SynthesisTimeoutError
from onestep.server.schemas import text_problem
from onestep.server.state import TRIM_AFTER_AUDIO_S, TRIM_INTERVAL_S, check_planned_audio
from onestep.ssml import SsmlError
from onestep.work_limits import describe_skipped, trim_allocator

log = logging.getLogger("onestep.wyoming")

_ATTRIBUTION = Attribution(name="OneStep TTS", url="")
# A sentence ends at . ! ? ; (followed by space/end) or at Chinese/fullwidth end punctuation or a newline.
_SENTENCE_END = re.compile(r"(?:[.!?;](?=\s)|[。！？；…]+|\n+)")
#: Largest data or payload section of one incoming event, bytes (a TTS client sends text, never audio).
MAX_EVENT_BYTES = 1 << 20
#: Consecutive unreadable events after which the connection is closed (its framing is lost).
MAX_BAD_EVENTS = 16


class BadEvent(UserError):
    """An event that cannot be read or has a field of the wrong type; the message names the field."""


def check_event(event: Event) -> None:
    """Check the fields of the events this server acts on; raise :class:`BadEvent` naming the bad one.

    ``synthesize``: ``text`` a string (required), ``voice`` an object of optional strings ``name``,
    ``language``, ``speaker``; ``synthesize-start``: ``voice`` likewise; ``synthesize-chunk``: ``text`` a
    string (required).
    """
    data = event.data
    if not isinstance(data, dict):
        raise BadEvent(f"{event.type}: data must be an object")
    if event.type in ("synthesize", "synthesize-chunk"):
        if "text" not in data:
            raise BadEvent(f"{event.type}: missing 'text'")
        if not isinstance(data["text"], str):
            raise BadEvent(f"{event.type}: 'text' must be a string, got {type(data['text']).__name__}")
    if event.type in ("synthesize", "synthesize-start") and data.get("voice") is not None:
        voice = data["voice"]
        if not isinstance(voice, dict):
            raise BadEvent(f"{event.type}: 'voice' must be an object, got {type(voice).__name__}")
        for key in ("name", "language", "speaker"):
            if voice.get(key) is not None and not isinstance(voice[key], str):
                raise BadEvent(f"{event.type}: 'voice.{key}' must be a string, got {type(voice[key]).__name__}")


async def read_event(reader: asyncio.StreamReader) -> Event | None:
    """The next event (None at the end of the stream), like ``wyoming.event.async_read_event`` but strict:
    raises :class:`BadEvent` for a line that is not a JSON event object, sections over
    :data:`MAX_EVENT_BYTES` or data that is not an object (the library would drop the connection or crash)."""
    try:
        line = await reader.readline()
    except ValueError:  # a line over the reader's limit: skip to its end
        raise BadEvent("event header line too long") from None
    if not line:
        return None
    try:
        header = json.loads(line)
    except ValueError:
        raise BadEvent("event header is not valid JSON") from None
    if not isinstance(header, dict) or not isinstance(header.get("type"), str):
        raise BadEvent("event header must be a JSON object with a string 'type'")
    data = header.get("data") or {}
    sizes = {key: header.get(key) for key in ("data_length", "payload_length")}
    for key, size in sizes.items():
        if size is not None and (not isinstance(size, int) or isinstance(size, bool) or not 0 <= size <= MAX_EVENT_BYTES):
            raise BadEvent(f"event {key} must be an integer 0-{MAX_EVENT_BYTES}")
    if sizes["data_length"]:
        try:
            more = json.loads(await reader.readexactly(sizes["data_length"]))
        except ValueError:
            raise BadEvent("event data is not valid JSON") from None
        if not isinstance(data, dict) or not isinstance(more, dict):
            raise BadEvent("event data must be a JSON object")
        data = {**data, **more}
    payload = await reader.readexactly(sizes["payload_length"]) if sizes["payload_length"] else None
    return Event(type=header["type"], data=data, payload=payload)


def _voice_tags(native: str) -> list[str]:
    """The language tags a voice announces: its native language's first, then every other registered
    language's (a voice reads each of them: the event's ``voice.language`` selects the reading)."""
    codes = [native, *(c for c in language_codes() if c != native)]
    return [tag for code in codes for tag in get_language(code).protocol_tags]


def build_info(voices: list[VoiceInfo]) -> Info:
    """The Info event answering Describe: one TTS program listing every voice."""
    tts_voices = [
        TtsVoice(
            name=v.name,
            attribution=_ATTRIBUTION,
            installed=True,
            description=f"{v.name} ({v.language}{', placeholder' if v.placeholder else ''})",
            version=v.version or None,
            languages=_voice_tags(v.language),
        )
        for v in voices
    ]
    program = TtsProgram(
        name="onestep",
        attribution=_ATTRIBUTION,
        installed=True,
        description="OneStep TTS: one-pass multilingual text-to-speech",
        version=__version__,
        voices=tts_voices,
        supports_synthesize_streaming=True,
    )
    return Info(tts=[program])


class StreamTextTooLong(UserError):
    """Streamed text ran past the buffer's bound without a sentence end; the buffered text was dropped."""


class SentenceBuffer:
    """Collects streamed text and hands out complete sentences, scanning each character once.

    At most ``max_chars`` characters wait for a sentence end: one more raises :class:`StreamTextTooLong` (the
    waiting text is dropped, the buffer stays usable). Text that has waited ``max_wait_s`` seconds is handed
    out by the next :meth:`add` even without an end (an LLM that never punctuates is still spoken).
    """

    def __init__(self, max_chars: int = 5000, max_wait_s: float = 10.0) -> None:
        self.max_chars = max_chars
        self.max_wait_s = max_wait_s
        self._text = ""
        self._since: float | None = None  # monotonic time the waiting text's first character came

    def add(self, text: str) -> list[str]:
        """Append ``text``; return the sentences it completed (stripped, non-empty)."""
        start = max(0, len(self._text) - 1)  # matched already, but for a last '.' that waits for a space
        self._text += text
        out, cut = [], 0
        for m in _SENTENCE_END.finditer(self._text, start):
            if (sentence := self._text[cut : m.end()].strip()):
                out.append(sentence)
            cut = m.end()
        self._text = self._text[cut:]
        now = time.monotonic()
        if not self._text.strip():
            self._since = None
        elif cut or self._since is None:
            self._since = now
        if len(self._text) > self.max_chars:
            waited, self._text, self._since = len(self._text), "", None
            raise StreamTextTooLong(
                f"streamed text has no sentence end in {waited} characters (the limit is {self.max_chars}); "
                "it was dropped: end sentences with punctuation or a newline"
            )
        if self._since is not None and now - self._since >= self.max_wait_s:
            out.append(self.finish())
        return out

    def finish(self) -> str:
        """Whatever is left (the last, unterminated sentence)."""
        rest, self._text, self._since = self._text.strip(), "", None
        return rest


class WyomingService:
    """Shared state of all Wyoming connections: the backend, the scheduler and the Info event."""

    def __init__(self, config: ServerConfig, backend: SynthesisBackend, scheduler: Scheduler,
                 samples_per_chunk: int = 1024, output: OutputOptions = OutputOptions()) -> None:  # fmt: skip
        self.output = output  # the protocol's synthesize event has no rate or volume: the server's options
        self.config = config
        self.backend = backend
        self.scheduler = scheduler
        self.samples_per_chunk = samples_per_chunk
        self.voices = backend.voices()
        self.info_event = build_info(self.voices).event()

    def resolve_voice(self, voice: SynthesizeVoice | None, text: str) -> str:
        """The voice for ``text`` by the one resolver (:func:`onestep.runtime.voices.choose_voice`): by name,
        else the default voice of the requested language, else of the text's language."""
        if voice is None:
            return choose_voice(self.voices, text=text).name
        if voice.name:
            return canonical_voice(self.voices, voice.name)  # a name or a blend
        return choose_voice(self.voices, None, language=voice.language, text=text).name

    async def run(self, uri: str, started: Callable[[], None] | None = None) -> None:
        """Serve ``uri`` (``tcp://host:port``, ``unix://path`` or ``stdio://``) until cancelled.

        ``started`` is called once the socket accepts connections. On the way out, running requests
        are allowed to finish (up to ``config.drain_timeout``).
        """
        self.scheduler.start()
        try:
            if self.config.warmup:
                await asyncio.to_thread(self.backend.warm_up)
            server = AsyncServer.from_uri(uri)
            handler = partial(WyomingHandler, self)
            log.info("wyoming: serving %d voice(s) on %s", len(self.voices), uri)
            if isinstance(server, AsyncStdioServer):
                await server.run(handler)
                return
            await server.start(handler)
            if started is not None:
                started()
            try:
                await asyncio.Event().wait()
            finally:
                await server.stop()
        finally:
            await self.scheduler.stop(drain_timeout_s=self.config.drain_timeout)


_last_trim = 0.0


async def _trim_after(audio_s: float) -> None:
    """Give the C heap's free memory back after a long answer (as the HTTP server does,
    :meth:`onestep.server.state.ServerState.trim_after`), at most once per ``TRIM_INTERVAL_S``."""
    global _last_trim
    now = time.monotonic()
    if audio_s >= TRIM_AFTER_AUDIO_S and now - _last_trim >= TRIM_INTERVAL_S:
        _last_trim = now
        await asyncio.to_thread(trim_allocator)


class WyomingHandler(AsyncEventHandler):
    """One client connection."""

    def __init__(self, service: WyomingService, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.service = service
        self._stream_voice: SynthesizeVoice | None = None
        self._sentences: SentenceBuffer | None = None  # set while a text stream is open
        peer = self.writer.get_extra_info("peername")
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) >= 2 else str(peer or "stdio")

    async def run(self) -> None:
        """Read events until the client leaves; unreadable events get an error event (the connection stays
        up, unless :data:`MAX_BAD_EVENTS` come in a row); a disconnect is logged at INFO."""
        self._is_running = True
        bad = 0
        try:
            while self._is_running:
                try:
                    event = await read_event(self.reader)
                except BadEvent as e:
                    bad += 1
                    await self.write_event(Error(text=str(e), code="BadEvent").event())
                    if bad >= MAX_BAD_EVENTS:
                        log.info("wyoming: %s: closing after %d unreadable events", self.peer, bad)
                        break
                    continue
                bad = 0
                if event is None or not await self.handle_event(event):
                    break
        except (ConnectionError, asyncio.IncompleteReadError) as e:
            log.info("wyoming: %s disconnected (%s)", self.peer, type(e).__name__)
        finally:
            await self.disconnect()
            self.writer.close()

    async def write_event(self, event: Event) -> None:
        """Send ``event``; raises ``ConnectionResetError`` when the client has gone (the write buffer is
        drained, so a dead peer is noticed instead of buffering audio for it) or has not taken anything for
        ``config.write_timeout`` seconds (then the connection is aborted)."""
        if self.writer.is_closing():
            raise ConnectionResetError("client disconnected")
        try:  # a client that does not read: its slot and buffers go after the write timeout
            async with asyncio.timeout(self.service.config.write_timeout):  # a timer, no task per event
                await async_write_event(event, self.writer)
        except TimeoutError:
            self.writer.transport.abort()
            raise ConnectionResetError(f"client took nothing for {self.service.config.write_timeout:g} s") from None

    async def handle_event(self, event: Event) -> bool:
        try:
            check_event(event)
            if Describe.is_type(event.type):
                await self.write_event(self.service.info_event)
            elif Synthesize.is_type(event.type):
                if self._sentences is None:  # inside a stream it is the compatibility copy: ignore it
                    synth = Synthesize.from_event(event)
                    await self._speak(synth.text, synth.voice)
            elif SynthesizeStart.is_type(event.type):
                self._stream_voice = SynthesizeStart.from_event(event).voice
                self._sentences = SentenceBuffer(self.service.config.max_chars, self.service.config.timeout)
            elif SynthesizeChunk.is_type(event.type):
                if self._sentences is None:
                    raise UserError("synthesize-chunk without synthesize-start")
                for sentence in self._sentences.add(SynthesizeChunk.from_event(event).text):
                    await self._speak(sentence, self._stream_voice)
            elif SynthesizeStop.is_type(event.type):
                if self._sentences is not None:
                    rest = self._sentences.finish()
                    self._sentences = None
                    if rest:
                        await self._speak(rest, self._stream_voice)
                await self.write_event(SynthesizeStopped().event())
        except (ConnectionError, asyncio.IncompleteReadError) as e:  # the client went away mid-answer
            log.info("wyoming: %s disconnected (%s)", self.peer, type(e).__name__)
            return False
        except (UserError, QueueFullError, SynthesisTimeoutError) as e:  # the client's input, or overload
            await self.write_event(Error(text=str(e), code=type(e).__name__).event())
        except Exception as e:  # an internal error: logged with its trace; the connection stays usable
            log.exception("wyoming: synthesis failed")
            await self.write_event(Error(text=f"internal error: {type(e).__name__}", code="InternalError").event())
        return True

    async def _speak(self, text: str, voice: SynthesizeVoice | None) -> None:
        """Synthesize ``text`` and send AudioStart, AudioChunk..., AudioStop."""
        service = self.service
        text = " ".join(text.strip().splitlines())
        if not text:
            raise UserError("nothing to synthesize: empty text")
        if len(text) > service.config.max_chars:
            raise UserError(f"text is {len(text)} characters; the limit is {service.config.max_chars}")
        if (problem := text_problem(text)) is not None:  # a lone surrogate, malformed or empty SSML: before any audio
            raise (SsmlError if problem[1] == "invalid_ssml" else UserError)(problem[0])
        out = service.output
        request = SynthesisRequest(
            text=text, voice=service.resolve_voice(voice, text), speed=1.0, sample_rate=out.sample_rate,
            gain_db=out.gain_db, language=spoken_language(voice),
        )  # fmt: skip
        rate = request.output_rate(service.backend.sample_rate)
        step = service.samples_per_chunk
        # instant phrases: the process's cache, shared with the HTTP routes (gain-adjusted output is not kept);
        # a hit needs no frontend or engine work, so it is looked up before admission
        phrases = shared_cache() if not out.gain_db else None
        key = PhraseKey(request.text, request.voice, request.speed, "pcm", rate)
        if phrases is not None and (pcm := phrases.get(key)) is not None:
            await self.write_event(AudioStart(rate=rate, width=2, channels=1).event())
            for i in range(0, len(pcm), 2 * step):
                await self.write_event(AudioChunk(rate=rate, width=2, channels=1, audio=pcm[i : i + 2 * step]).event())
            await self.write_event(AudioStop().event())
            return
        keep = KeptCopy(phrases.max_entry_bytes) if phrases is not None else None  # at most one cache entry
        service.scheduler.check_admission(None)  # a quick 'busy' before the frontend's work
        prepared = await asyncio.to_thread(service.backend.prepare, request)  # 413/422-like errors: UserError
        if prepared.skipped:
            log.info("wyoming: %s: skipped characters: %s", self.peer, describe_skipped(prepared.skipped))
        check_planned_audio(prepared, service.config.max_audio_s)  # TooMuchWorkError: a UserError, an error event
        stream = service.scheduler.submit(replace(request, prepared=prepared), prepared.cost, service.config.max_audio_s)
        try:
            await self.write_event(AudioStart(rate=rate, width=2, channels=1).event())
            async for samples in stream:
                for i in range(0, samples.size, step):
                    pcm = to_pcm16(samples[i : i + step])
                    if keep is not None:
                        keep.add(pcm)
                    await self.write_event(AudioChunk(rate=rate, width=2, channels=1, audio=pcm).event())
            await self.write_event(AudioStop().event())
            if phrases is not None and keep is not None and (whole := keep.value()) is not None:
                phrases.put(key, whole)
        finally:
            stream.cancel()
            await _trim_after(stream.samples_out / rate)


def spoken_language(voice: SynthesizeVoice | None) -> str | None:
    """The registry language a Wyoming ``synthesize`` event asks for (``voice.language``, a tag such as
    ``es_ES``): the text is read in it (Home Assistant sends the pipeline's language); an unknown one is an
    error event naming the languages spoken here."""
    if voice is None or not voice.language:
        return None
    return requested_language(voice.language)
