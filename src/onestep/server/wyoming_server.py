"""Wyoming protocol service (Home Assistant): Describe -> Info, Synthesize -> AudioStart/Chunk/Stop.

Streaming synthesis (``synthesize-start`` / ``-chunk`` / ``-stop``) is supported: text chunks are cut
into sentences as they arrive and each finished sentence is spoken at once (its own
AudioStart/AudioChunk.../AudioStop), then ``synthesize-stopped`` ends the stream. As in the protocol,
the plain ``synthesize`` event a client sends alongside a stream (for older servers) is ignored while
streaming. Requests go through the same :class:`~onestep.server.scheduler.Scheduler` as the HTTP server.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from functools import partial

from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.error import Error
from wyoming.event import Event
from wyoming.info import Attribution, Describe, Info, TtsProgram, TtsVoice
from wyoming.server import AsyncEventHandler, AsyncServer, AsyncStdioServer
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop, SynthesizeStopped, SynthesizeVoice

from onestep import __version__
from onestep.languages import get_language
from onestep.errors import UserError
from onestep.runtime.voices import canonical_voice, choose_voice
from onestep.server.backend import SynthesisBackend, SynthesisRequest, VoiceInfo
from onestep.runtime.output import OutputOptions
from onestep.ssml import is_ssml, parse_ssml
from onestep.runtime.pcm import to_pcm16
from onestep.server.config import ServerConfig
from onestep.server.phrases import PhraseKey, shared_cache
from onestep.server.scheduler import QueueFullError, Scheduler, SynthesisTimeoutError

log = logging.getLogger("onestep.wyoming")

_ATTRIBUTION = Attribution(name="OneStep TTS", url="")
# A sentence ends at . ! ? ; (followed by space/end) or at Chinese/fullwidth end punctuation or a newline.
_SENTENCE_END = re.compile(r"(?:[.!?;](?=\s)|[。！？；…]+|\n+)")


def build_info(voices: list[VoiceInfo]) -> Info:
    """The Info event answering Describe: one TTS program listing every voice."""
    tts_voices = [
        TtsVoice(
            name=v.name,
            attribution=_ATTRIBUTION,
            installed=True,
            description=f"{v.name} ({v.language}{', placeholder' if v.placeholder else ''})",
            version=v.version or None,
            languages=list(get_language(v.language).protocol_tags),
        )
        for v in voices
    ]
    program = TtsProgram(
        name="onestep",
        attribution=_ATTRIBUTION,
        installed=True,
        description="OneStep TTS: one-pass Mandarin/English text-to-speech",
        version=__version__,
        voices=tts_voices,
        supports_synthesize_streaming=True,
    )
    return Info(tts=[program])


class SentenceBuffer:
    """Collects streamed text and hands out complete sentences."""

    def __init__(self) -> None:
        self._text = ""

    def add(self, text: str) -> list[str]:
        """Append ``text``; return the sentences it completed (stripped, non-empty)."""
        self._text += text
        out = []
        while (m := _SENTENCE_END.search(self._text)) is not None:
            sentence, self._text = self._text[: m.end()], self._text[m.end() :]
            if sentence.strip():
                out.append(sentence.strip())
        return out

    def finish(self) -> str:
        """Whatever is left (the last, unterminated sentence)."""
        rest, self._text = self._text.strip(), ""
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
        are allowed to finish (up to the request timeout).
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
            await self.scheduler.stop(drain_timeout_s=self.config.timeout)


class WyomingHandler(AsyncEventHandler):
    """One client connection."""

    def __init__(self, service: WyomingService, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.service = service
        self._stream_voice: SynthesizeVoice | None = None
        self._sentences: SentenceBuffer | None = None  # set while a text stream is open

    async def handle_event(self, event: Event) -> bool:
        try:
            if Describe.is_type(event.type):
                await self.write_event(self.service.info_event)
            elif Synthesize.is_type(event.type):
                if self._sentences is None:  # inside a stream it is the compatibility copy: ignore it
                    synth = Synthesize.from_event(event)
                    await self._speak(synth.text, synth.voice)
            elif SynthesizeStart.is_type(event.type):
                self._stream_voice = SynthesizeStart.from_event(event).voice
                self._sentences = SentenceBuffer()
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
        except (UserError, KeyError, QueueFullError, SynthesisTimeoutError) as e:  # the client's input, or overload
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
        if is_ssml(text):
            parse_ssml(text)  # a malformed document is an error event before any audio
        voice_name = service.resolve_voice(voice, text)
        out = service.output
        request = SynthesisRequest(text, voice_name, 1.0, out.sample_rate, out.gain_db)
        rate = request.output_rate(service.backend.sample_rate)
        step = service.samples_per_chunk
        # instant phrases: the process's cache, shared with the HTTP routes (gain-adjusted output is not kept)
        phrases = shared_cache() if not out.gain_db else None
        key = PhraseKey(request.text, request.voice, request.speed, "pcm", rate)
        if phrases is not None and (pcm := phrases.get(key)) is not None:
            await self.write_event(AudioStart(rate=rate, width=2, channels=1).event())
            for i in range(0, len(pcm), 2 * step):
                await self.write_event(AudioChunk(rate=rate, width=2, channels=1, audio=pcm[i : i + 2 * step]).event())
            await self.write_event(AudioStop().event())
            return
        sent: list[bytes] = []
        stream = service.scheduler.submit(request)
        try:
            await self.write_event(AudioStart(rate=rate, width=2, channels=1).event())
            async for samples in stream:
                for i in range(0, samples.size, step):
                    pcm = to_pcm16(samples[i : i + step])
                    if phrases is not None:
                        sent.append(pcm)
                    await self.write_event(AudioChunk(rate=rate, width=2, channels=1, audio=pcm).event())
            await self.write_event(AudioStop().event())
            if phrases is not None:
                phrases.put(key, b"".join(sent))
        finally:
            stream.cancel()
