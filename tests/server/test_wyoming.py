"""The Wyoming service on a real TCP socket, driven by the ``wyoming`` package's own client."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import pytest
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.error import Error
from wyoming.event import Event
from wyoming.info import Describe, Info
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop, SynthesizeStopped, SynthesizeVoice

from onestep.runtime.output import OutputOptions
from onestep.server.app import make_scheduler
from onestep.server.backend import TTSBackend
from onestep.server.config import ServerConfig
from onestep.server.wyoming_server import SentenceBuffer, WyomingService

from .conftest import VOICE, LiveServer, free_port

TEXT_ZH = "你好，世界。今天天气很好，我们一起去公园散步吧。"


@contextmanager
def wyoming_server(backend: TTSBackend, output: OutputOptions | None = None) -> Iterator[int]:
    """A Wyoming TCP server (the real service on ``backend``, with the server's ``output`` options) running in its
    own thread and loop; yields its port."""
    port = free_port()
    config = ServerConfig(workers=1, threads=1, warmup=False)
    service = WyomingService(config, backend, make_scheduler(config, backend), 2048, output or OutputOptions())
    started = threading.Event()
    loop = asyncio.new_event_loop()
    task = loop.create_task(service.run(f"tcp://127.0.0.1:{port}", started.set))
    thread = threading.Thread(target=lambda: loop.run_until_complete(asyncio.gather(task, return_exceptions=True)))
    thread.start()
    try:
        assert started.wait(timeout=30), "wyoming server did not start"
        yield port
    finally:
        loop.call_soon_threadsafe(task.cancel)
        thread.join(timeout=30)
        loop.close()
    assert task.cancelled()  # stopped by cancellation, not by an error


@pytest.fixture(scope="module")
def wyoming_port(backend: TTSBackend) -> Iterator[int]:
    """The Wyoming server on the shared engine."""
    with wyoming_server(backend) as port:
        yield port


async def exchange(port: int, events: list[Event], until: str) -> list[Event]:
    """Send ``events``, then read events up to and including the first of type ``until``."""
    out: list[Event] = []
    async with AsyncTcpClient("127.0.0.1", port) as client:
        for event in events:
            await client.write_event(event)
        while True:
            event = await asyncio.wait_for(client.read_event(), timeout=30)
            assert event is not None, "server closed the connection"
            out.append(event)
            if event.type == until:
                return out


def audio_of(events: list[Event]) -> bytes:
    return b"".join(AudioChunk.from_event(e).audio for e in events if AudioChunk.is_type(e.type))


def test_describe_lists_the_voices(wyoming_port: int) -> None:
    (event,) = asyncio.run(exchange(wyoming_port, [Describe().event()], "info"))
    (program,) = Info.from_event(event).tts
    assert program.name == "onestep"
    assert program.supports_synthesize_streaming
    voice = next(v for v in program.voices if v.name == VOICE)
    assert "en" in voice.languages
    assert voice.installed


def test_synthesize_sends_start_chunks_stop(wyoming_port: int, server: LiveServer) -> None:
    synth = Synthesize(TEXT_ZH, SynthesizeVoice(name=VOICE))
    events = asyncio.run(exchange(wyoming_port, [synth.event()], "audio-stop"))
    start = AudioStart.from_event(events[0])
    assert (start.rate, start.width, start.channels) == (24000, 2, 1)
    assert all(AudioChunk.is_type(e.type) for e in events[1:-1])
    assert all(len(AudioChunk.from_event(e).audio) <= 2 * 2048 for e in events[1:-1])
    assert AudioStop.is_type(events[-1].type)
    body = {"text": TEXT_ZH, "voice": VOICE, "format": "pcm"}
    expected = httpx.post(server.url + "/synthesize", json=body, timeout=60).content
    assert audio_of(events) == expected


def test_errors_are_events_and_the_connection_survives(wyoming_port: int) -> None:
    events = asyncio.run(
        exchange(
            wyoming_port,
            [
                Synthesize("你好。", SynthesizeVoice(name="../../etc/passwd")).event(),
                Synthesize("   ").event(),
                Synthesize("你好。", SynthesizeVoice(language="en_US")).event(),
            ],
            "audio-stop",
        )
    )
    errors = [Error.from_event(e) for e in events if Error.is_type(e.type)]
    assert "unknown voice" in errors[0].text
    assert "empty" in errors[1].text
    assert len(audio_of(events)) > 0


def test_streaming_synthesis_speaks_each_sentence_as_it_completes(wyoming_port: int) -> None:
    chunks = ["你好", "。今天天气", "很好！我们一起", "去公园吧"]
    events = asyncio.run(
        exchange(
            wyoming_port,
            [
                SynthesizeStart(voice=SynthesizeVoice(name=VOICE)).event(),
                *[SynthesizeChunk(c).event() for c in chunks],
                Synthesize("".join(chunks)).event(),  # compatibility copy: ignored inside a stream
                SynthesizeStop().event(),
            ],
            "synthesize-stopped",
        )
    )
    types = [e.type for e in events if not AudioChunk.is_type(e.type)]
    assert types == ["audio-start", "audio-stop"] * 3 + ["synthesize-stopped"]
    assert SynthesizeStopped.is_type(events[-1].type)


@pytest.mark.parametrize(
    ("chunks", "sentences", "rest"),
    [
        (["Hello the", "re. How", " are you?"], ["Hello there."], "How are you?"),
        (["One. Two! Three? "], ["One.", "Two!", "Three?"], ""),
        (["你好。", "今天天气", "很好！再见"], ["你好。", "今天天气很好！"], "再见"),
        (["3.14 is pi"], [], "3.14 is pi"),
        (["line one\nline two"], ["line one"], "line two"),
    ],
)
def test_sentence_buffer(chunks: list[str], sentences: list[str], rest: str) -> None:
    buf = SentenceBuffer()
    got = [s for c in chunks for s in buf.add(c)]
    assert got == sentences
    assert buf.finish() == rest


def test_language_default_is_the_apis() -> None:
    """Wyoming picks a language's default voice by the same rule as the API (voice.json's default flag)."""
    from onestep.runtime.voices import choose_voice
    from onestep.server.backend import VoiceInfo

    voices = [VoiceInfo("anna", "en", 24000), VoiceInfo("lan", "zh", 24000), VoiceInfo("mei", "zh", 24000, default=True)]

    class Listed:
        sample_rate = 24000

        def voices(self) -> list[VoiceInfo]:
            return voices

    service = WyomingService(ServerConfig(), Listed(), scheduler=None)  # type: ignore[arg-type]
    api_default = choose_voice(voices, text="你好").name
    assert service.resolve_voice(SynthesizeVoice(language="zh_CN"), "hello") == api_default == "mei"
    assert service.resolve_voice(None, "你好") == "mei"
    assert service.resolve_voice(SynthesizeVoice(name="lan"), "hello") == "lan"
