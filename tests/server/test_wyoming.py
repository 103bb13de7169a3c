"""``onestep wyoming`` as a real process, driven by the ``wyoming`` package's own client."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from wyoming.audio import AudioChunk, AudioStart, AudioStop
from wyoming.client import AsyncTcpClient
from wyoming.error import Error
from wyoming.event import Event
from wyoming.info import Describe, Info
from wyoming.tts import Synthesize, SynthesizeChunk, SynthesizeStart, SynthesizeStop, SynthesizeStopped, SynthesizeVoice

from onestep.server.wyoming_server import SentenceBuffer

from .conftest import FIXTURES, TEXT, VOICE, LiveServer


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def wyoming_port() -> Iterator[int]:
    port = free_port()
    cmd = [sys.executable, "-m", "onestep", "wyoming", "--uri", f"tcp://127.0.0.1:{port}",
           "--voices-dir", str(FIXTURES), "--workers", "1", "--threads", "1", "--samples-per-chunk", "2048"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ})
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stdout.read().decode()  # type: ignore[union-attr]
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "wyoming server did not start"
                time.sleep(0.1)
        yield port
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            code = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert code == 0, proc.stdout.read().decode()  # type: ignore[union-attr]


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
    events = asyncio.run(exchange(wyoming_port, [Synthesize(TEXT, SynthesizeVoice(name=VOICE)).event()], "audio-stop"))
    start = AudioStart.from_event(events[0])
    assert (start.rate, start.width, start.channels) == (24000, 2, 1)
    assert all(AudioChunk.is_type(e.type) for e in events[1:-1])
    assert all(len(AudioChunk.from_event(e).audio) <= 2 * 2048 for e in events[1:-1])
    assert AudioStop.is_type(events[-1].type)
    expected = httpx.post(server.url + "/synthesize", json={"text": TEXT, "voice": VOICE, "format": "pcm"}).content
    assert audio_of(events) == expected


def test_errors_are_events_and_the_connection_survives(wyoming_port: int) -> None:
    events = asyncio.run(
        exchange(
            wyoming_port,
            [
                Synthesize("Hi.", SynthesizeVoice(name="../../etc/passwd")).event(),
                Synthesize("   ").event(),
                Synthesize("Hi there.", SynthesizeVoice(language="en_US")).event(),
            ],
            "audio-stop",
        )
    )
    errors = [Error.from_event(e) for e in events if Error.is_type(e.type)]
    assert "unknown voice" in errors[0].text
    assert "empty" in errors[1].text
    assert len(audio_of(events)) > 0


def test_streaming_synthesis_speaks_each_sentence_as_it_completes(wyoming_port: int) -> None:
    chunks = ["Hello the", "re. How are", " you today? I am", " fine"]
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
