"""Issue 26, "one client cannot hurt the others": each finding replayed against a live server on loopback
(bounded: tiny voices, short texts, limits scaled down so that each case takes seconds).

Findings: 1 a client that never reads, 2 whole-file work on the event loop, 3 the Wyoming text buffer,
4 the work limit and say-as / speed, 5 WebSocket errors that closed the connection, 6 a 500 on an
overflowing blend weight, 7 the API key in the log, 8 the heap after large replies, 9 DNS rebinding,
``<speak></speak>`` and a Content-Length with white space.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from onestep.server.backend import TTSBackend
from onestep.server.wyoming_server import WyomingService

from .conftest import VOICE, LiveServer
from .test_abuse_http import hardened_server

MULTI_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "multi"
BLEND_VOICES = ("tiny-zh-f", "tiny-zh-m")
OVERFLOW = "9" * 400  # float() of it is inf: inf / inf weights were NaN, "negative dimensions", a 500


@pytest.fixture(scope="module")
def multi_backend() -> TTSBackend:
    from onestep import TTS

    return TTSBackend(TTS(voices_dir=[MULTI_DIR], threads=1), warmup_text="你好。")


@pytest.fixture(scope="module")
def multi(multi_backend: TTSBackend) -> Iterator[LiveServer]:
    with hardened_server(multi_backend) as (live, _):
        yield live


BAD_VOICES = [
    "tiny-zh-f:0",  # one component, weight 0
    "tiny-zh-f(0)",
    "+".join(["tiny-zh-f"] * 9),  # more parts than a blend may have
    f"tiny-zh-f:{OVERFLOW}+tiny-zh-m:1",  # overflowing weight
]


# --- finding 5 and 6: every bad blend and an unencodable text is a 4xx / an error frame, never a 5xx or a close


@pytest.mark.parametrize("voice", BAD_VOICES)
def test_http_answers_bad_blends_400(multi: LiveServer, voice: str) -> None:
    r = httpx.post(multi.url + "/v1/audio/speech", json={"input": "你好。", "voice": voice}, timeout=60)
    assert r.status_code == 400, r.text
    assert "blend" in r.json()["error"]["message"]


def test_ssml_voice_with_an_overflowing_weight_is_400_not_500(multi: LiveServer) -> None:
    ssml = f'<speak><voice name="tiny-zh-f:{OVERFLOW}+tiny-zh-m:1">你好。</voice></speak>'
    for path, key in (("/v1/audio/speech", "input"), ("/synthesize", "text")):
        r = httpx.post(multi.url + path, json={key: ssml, "voice": "tiny-zh-f"}, timeout=60)
        assert r.status_code == 400, (path, r.status_code, r.text)


def test_a_lone_surrogate_is_400(multi: LiveServer) -> None:
    body = '{"input": "你好\\ud800。", "voice": "tiny-zh-f"}'  # valid JSON, not valid Unicode text
    r = httpx.post(multi.url + "/v1/audio/speech", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid_text"


def test_websocket_answers_each_bad_request_by_id_and_keeps_the_queue(multi: LiveServer) -> None:
    bad = [{"id": f"v{i}", "text": "你好。", "voice": v} for i, v in enumerate(BAD_VOICES)]
    surrogate = '{"id": "s", "text": "你好\\ud800。", "voice": "tiny-zh-f"}'
    ssml = {"id": "x", "text": f'<speak><voice name="tiny-zh-f:{OVERFLOW}+tiny-zh-m:1">你好。</voice></speak>',
            "voice": "tiny-zh-f"}  # fmt: skip

    async def scenario() -> dict[str, list[str]]:
        frames: dict[str, list[str]] = {}
        async with connect(multi.ws_url) as ws:
            # all sent at once: the good one queued behind the bad ones must still be served
            for message in [*map(json.dumps, bad), surrogate, json.dumps(ssml)]:
                await ws.send(message)
            await ws.send(json.dumps({"id": "good", "text": "你好。", "voice": "tiny-zh-f"}))
            while True:
                message = await asyncio.wait_for(ws.recv(), 60)
                if isinstance(message, bytes):
                    continue
                frame = json.loads(message)
                frames.setdefault(frame["id"], []).append(frame["type"])
                if frame["id"] == "good" and frame["type"] in ("end", "error"):
                    return frames

    frames = asyncio.run(scenario())
    for rid in [f"v{i}" for i in range(len(BAD_VOICES))] + ["s", "x"]:
        assert frames.get(rid) == ["error"], (rid, frames)
    assert frames["good"] == ["start", "end"]


def test_wyoming_answers_bad_blends_and_surrogates_with_error_events(multi_backend: TTSBackend) -> None:
    from wyoming.event import Event
    from wyoming.tts import Synthesize, SynthesizeVoice

    from .test_wyoming import wyoming_server

    events = [Synthesize("你好。", voice=SynthesizeVoice(name=v)).event() for v in BAD_VOICES]
    events.append(Event("synthesize", {"text": "你好\ud800。", "voice": {"name": "tiny-zh-f"}}))
    events.append(Event("synthesize", {"text": f'<speak><voice name="tiny-zh-f:{OVERFLOW}+tiny-zh-m:1">你好。'
                                               "</voice></speak>", "voice": {"name": "tiny-zh-f"}}))  # fmt: skip
    events.append(Synthesize("你好。", voice=SynthesizeVoice(name="tiny-zh-f")).event())
    with wyoming_server(multi_backend) as port:
        got = asyncio.run(raw_exchange(port, events, "audio-stop"))
    errors = [e for e in got if e.type == "error"]
    assert len(errors) == len(events) - 1, [e.data for e in errors]
    assert all(e.data["code"] != "InternalError" for e in errors), [e.data for e in errors]


async def raw_exchange(port: int, events: list, until: str) -> list:
    """Like ``test_wyoming.exchange`` but each event is written as one JSON line with ASCII escapes (the
    wyoming client cannot write a lone surrogate, a JSON text can)."""
    from wyoming.event import async_read_event

    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for event in events:
            writer.write(json.dumps({"type": event.type, "data": event.data}).encode() + b"\n")
        await writer.drain()
        out = []
        while True:
            event = await asyncio.wait_for(async_read_event(reader), 60)
            assert event is not None, "server closed the connection"
            out.append(event)
            if event.type == until:
                return out
    finally:
        writer.close()


# --- finding 7: the API key never reaches the log


def test_the_api_key_in_a_websocket_query_is_not_logged(backend: TTSBackend) -> None:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    with hardened_server(backend, api_key="s3cret-key") as (live, _):
        uv = logging.getLogger("uvicorn.error")
        level = uv.level
        uv.setLevel(logging.INFO)
        uv.addHandler(handler)
        try:

            async def scenario() -> dict:
                async with connect(live.ws_url + "?api_key=s3cret-key") as ws:
                    await ws.send(json.dumps({"id": 1, "text": "你好。", "voice": VOICE}))
                    while isinstance(message := await asyncio.wait_for(ws.recv(), 60), bytes) or json.loads(
                        message
                    )["type"] not in ("end", "error"):
                        pass
                    return json.loads(message)

            assert asyncio.run(scenario())["type"] == "end"
        finally:
            uv.removeHandler(handler)
            uv.setLevel(level)
    accepted = [line for line in lines if "/v1/stream" in line]
    assert accepted, lines  # the line is still there,
    assert not any("s3cret-key" in line for line in lines), accepted  # without the key
    assert any("api_key=[redacted]" in line for line in accepted)


# --- finding 9: DNS rebinding, an empty SSML document, Content-Length with white space


def test_a_websocket_under_a_foreign_host_with_its_own_origin_is_refused(backend: TTSBackend) -> None:
    with hardened_server(backend) as (live, _):
        port = live.url.rsplit(":", 1)[1]

        async def handshake(host: str) -> None:
            url = f"ws://{host}:{port}/v1/stream"  # the page's name is the Host; the socket goes to loopback
            async with connect(url, host="127.0.0.1", origin=f"http://{host}:{port}") as ws:  # type: ignore[arg-type]
                await ws.send(json.dumps({"text": "你好。", "voice": VOICE}))
                await asyncio.wait_for(ws.recv(), 60)

        with pytest.raises(InvalidStatus) as err:
            asyncio.run(handshake("rebind.attacker.example"))
        assert err.value.response.status_code == 403
        asyncio.run(handshake("127.0.0.1"))  # the server's own page under its address is still served
        asyncio.run(handshake("localhost"))


def test_an_empty_ssml_document_is_400(backend: TTSBackend) -> None:
    with hardened_server(backend) as (live, _):
        for text in ("<speak></speak>", "<speak>  </speak>", "<speak><prosody rate='slow'></prosody></speak>"):
            r = httpx.post(live.url + "/synthesize", json={"text": text, "voice": VOICE}, timeout=60)
            assert r.status_code == 400 and r.json()["error"]["code"] == "empty_input", (text, r.text)


def test_content_length_with_surrounding_white_space_is_accepted(backend: TTSBackend) -> None:
    body = b'{"text": "\\u4f60\\u597d\\u3002", "voice": "tiny", "format": "wav"}'
    with hardened_server(backend) as (live, _):
        host, port = live.url.removeprefix("http://").split(":")
        for value, status in ((f"{len(body)} ", b"200"), (f" {len(body)}\t", b"200"), ("4x", b"400")):
            with socket.create_connection((host, int(port)), timeout=30) as sock:
                head = (f"POST /synthesize HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {value}\r\nConnection: close\r\n\r\n").encode()  # fmt: skip
                sock.sendall(head + body)
                reply = b""
                while chunk := sock.recv(65536):
                    reply += chunk
            assert reply.split(b" ", 2)[1] == status, (value, reply[:300])


# --- finding 1: a client that never reads holds at most the per-stream buffer, then is cut

LONG_TEXT = "你好，世界。这是对服务器的一个简短测试。" * 20  # ~110 s of audio, made in well under a second
BUFFER_S, WRITE_TIMEOUT_S = 2.0, 1.0
LONGEST_CHUNK_S = 2.0  # the tiny voice's longest engine chunk is ~1.6 s


def _never_reading_socket(url: str) -> socket.socket:
    """A loopback socket with a 4 KiB receive buffer (connected; the test never reads it)."""
    host, port = url.split("//", 1)[1].split("/", 1)[0].split(":")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((host, int(port)))
    return sock


def _watch_streams(live: LiveServer, seconds: float) -> tuple[float, list[float], list]:
    """Poll the server for ``seconds`` (until its streams are gone): the largest audio buffer any stream
    held (s), the latency of ``/health`` each time, and the streams seen."""
    import time

    most, health, seen = 0.0, [], []
    deadline = time.monotonic() + seconds
    with httpx.Client(timeout=10) as client:
        while time.monotonic() < deadline:
            try:
                streams = list(live.state.open_streams)
            except RuntimeError:  # changed by the loop while copied
                continue
            for stream in streams:
                if stream not in seen:
                    seen.append(stream)
                most = max(most, stream.buffered_s)
            t0 = time.perf_counter()
            assert client.get(live.url + "/health").status_code == 200
            health.append(time.perf_counter() - t0)
            if seen and not streams and live.state.scheduler.in_flight == 0:
                break
            time.sleep(0.02)
    return most, health, seen


@pytest.fixture
def tight(backend: TTSBackend) -> Iterator[LiveServer]:
    with hardened_server(backend, max_buffered_s=BUFFER_S, write_timeout=WRITE_TIMEOUT_S) as (live, _):
        yield live


def test_http_client_that_never_reads_is_bounded_then_cut(tight: LiveServer) -> None:
    body = json.dumps({"input": LONG_TEXT, "voice": VOICE, "response_format": "pcm", "sample_rate": 48000}).encode()
    with _never_reading_socket(tight.url) as sock:
        sock.sendall(b"POST /v1/audio/speech HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(body), body))  # fmt: skip
        most, health, seen = _watch_streams(tight, 20)
    assert len(seen) == 1
    assert most <= BUFFER_S + LONGEST_CHUNK_S, most  # not the whole ~110 s
    assert seen[0].cancelled and seen[0].samples_out / 48000 < 60  # cut by the write timeout, not finished
    assert tight.state.scheduler.in_flight == 0 and not tight.state.open_streams
    assert max(health) < 1.0


def test_websocket_client_that_never_reads_is_bounded_then_cut(tight: LiveServer) -> None:
    async def scenario() -> tuple[float, list[float], list]:
        sock = _never_reading_socket(tight.url)
        ws = await connect(tight.ws_url, sock=sock, max_queue=1)  # the client stops reading at once
        await ws.send(json.dumps({"id": 1, "text": LONG_TEXT, "voice": VOICE, "sample_rate": 48000}))
        watched = await asyncio.to_thread(_watch_streams, tight, 20)
        ws.transport.abort()
        return watched

    most, health, seen = asyncio.run(scenario())
    assert len(seen) == 1 and most <= BUFFER_S + LONGEST_CHUNK_S, most
    assert seen[0].cancelled and seen[0].samples_out / 48000 < 60
    assert tight.state.scheduler.in_flight == 0
    assert max(health) < 1.0


def test_slot_is_held_until_the_audio_has_left(tight: LiveServer) -> None:
    body = json.dumps({"input": LONG_TEXT, "voice": VOICE, "response_format": "pcm"}).encode()
    with _never_reading_socket(tight.url) as sock:
        sock.sendall(b"POST /v1/audio/speech HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(body), body))  # fmt: skip
        from .conftest import wait_for

        wait_for(lambda: any(s.buffered_s > 0 for s in list(tight.state.open_streams)), 10)
        # the engine has made what the buffer holds and waits; the request still counts against admission
        assert tight.state.scheduler.in_flight == 1
        wait_for(lambda: tight.state.scheduler.in_flight == 0, 20)


@contextmanager
def wyoming_service(backend: TTSBackend, **config: object) -> Iterator[tuple[int, WyomingService]]:
    """The Wyoming TCP service on ``backend`` with ``ServerConfig(**config)`` in its own thread and loop."""
    import threading

    from onestep.server.app import make_scheduler
    from onestep.server.config import ServerConfig

    from .conftest import free_port

    port = free_port()
    cfg = ServerConfig(workers=1, threads=1, warmup=False, **config)  # type: ignore[arg-type]
    service = WyomingService(cfg, backend, make_scheduler(cfg, backend), 1024)
    started = threading.Event()
    loop = asyncio.new_event_loop()
    task = loop.create_task(service.run(f"tcp://127.0.0.1:{port}", started.set))
    thread = threading.Thread(target=lambda: loop.run_until_complete(asyncio.gather(task, return_exceptions=True)))
    thread.start()
    try:
        assert started.wait(timeout=30), "wyoming server did not start"
        yield port, service
    finally:
        loop.call_soon_threadsafe(task.cancel)
        thread.join(timeout=30)
        loop.close()


def test_wyoming_client_that_never_reads_is_bounded_then_cut(backend: TTSBackend) -> None:
    import time

    from wyoming.tts import Synthesize

    from .conftest import wait_for

    with wyoming_service(backend, max_buffered_s=BUFFER_S, write_timeout=WRITE_TIMEOUT_S) as (port, service):
        scheduler = service.scheduler
        with _never_reading_socket(f"tcp://127.0.0.1:{port}") as sock:
            event = Synthesize(LONG_TEXT).event()
            sock.sendall(json.dumps({"type": event.type, "data": event.data}).encode() + b"\n")
            wait_for(lambda: scheduler.in_flight == 1, 10)
            most, streams = 0.0, []
            deadline = time.monotonic() + 20
            while scheduler.in_flight and time.monotonic() < deadline:
                with scheduler._lock:  # noqa: SLF001 - the engine side's view of its streams
                    current = [job.stream for job in scheduler._jobs.values()]  # type: ignore[attr-defined]  # noqa: SLF001
                streams += [s for s in current if s not in streams]
                most = max([most, *(s.buffered_s for s in current)])
                time.sleep(0.02)
        assert scheduler.in_flight == 0  # cut by the write timeout
        assert len(streams) == 1 and most <= BUFFER_S + LONGEST_CHUNK_S, most
        assert streams[0].cancelled and streams[0].samples_out / backend.sample_rate < 60


# --- finding 4: the work limit counts what will be spoken (say-as expanded, divided by speed, breaks added)


def _digits(n: int) -> str:
    return f'<speak><say-as interpret-as="digits">{"1234567890" * n}</say-as></speak>'


@pytest.fixture(scope="module")
def capped(backend: TTSBackend) -> Iterator[LiveServer]:
    with hardened_server(backend, max_audio_s=50) as (live, _):
        yield live


@pytest.mark.parametrize(
    ("text", "speed", "refused"),
    [
        ("1234567890" * 30, 1.0, False),  # a number: read short
        (_digits(30), 1.0, True),  # the same digits spelled out by say-as: ~95 s planned
        (_digits(10), 1.0, False),  # ~32 s
        (_digits(10), 0.5, True),  # the same at half speed: ~63 s
        ("<speak>你好" + '<break time="10s"/>' * 6 + "</speak>", 1.0, True),  # 60 s of breaks
    ],
)
def test_audio_cap_is_checked_before_any_work(capped: LiveServer, text: str, speed: float, refused: bool) -> None:
    started = len(capped.state.open_streams)
    r = httpx.post(capped.url + "/synthesize", json={"text": text, "voice": VOICE, "speed": speed, "format": "pcm"},
                   timeout=60)  # fmt: skip
    if refused:
        assert r.status_code == 413, r.text
        assert r.json()["error"]["code"] == "too_much_work" and "50 s" in r.json()["error"]["message"]
    else:
        assert r.status_code == 200, r.text
        assert len(r.content) / 2 / capped.state.sample_rate <= 50
    assert len(capped.state.open_streams) == started


def test_audio_past_the_cap_is_never_made_when_the_estimate_was_short(capped: LiveServer) -> None:
    text = _digits(15)  # planned ~47 s (under the cap); spelled digits really run ~58 s
    r = httpx.post(capped.url + "/synthesize", json={"text": text, "voice": VOICE, "format": "pcm"}, timeout=60)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_much_work", r.text

    async def scenario() -> tuple[int, dict]:
        audio = 0
        async with connect(capped.ws_url) as ws:
            await ws.send(json.dumps({"id": "long", "text": text, "voice": VOICE}))
            while True:
                message = await asyncio.wait_for(ws.recv(), 60)
                if isinstance(message, bytes):
                    audio += len(message)
                    continue
                frame = json.loads(message)
                if frame["type"] in ("end", "error"):
                    return audio, frame

    audio, frame = asyncio.run(scenario())
    assert frame["type"] == "error" and frame["error"]["code"] == "too_much_work"
    assert audio / 2 / capped.state.sample_rate <= 50


# --- finding 3: the Wyoming streaming text buffer is bounded and scanned once


def test_sentence_buffer_is_bounded_and_hands_out_waiting_text() -> None:
    from onestep.server.wyoming_server import SentenceBuffer, StreamTextTooLong

    buf = SentenceBuffer(max_chars=100, max_wait_s=3600)
    assert buf.add("好" * 60) == []
    with pytest.raises(StreamTextTooLong, match="100"):
        buf.add("好" * 60)
    assert buf.add("你好。") == ["你好。"]  # the dropped text is gone, the buffer goes on
    assert buf.add("a" * 90 + ". b") == ["a" * 90 + "."]  # an end inside the chunk: not over the bound
    assert buf.finish() == "b"
    waiting = SentenceBuffer(max_chars=100, max_wait_s=0)
    assert waiting.add("no end yet") == ["no end yet"]  # waited its time: spoken as it is


def test_unterminated_wyoming_stream_stays_bounded_and_never_slows_describe(backend: TTSBackend) -> None:
    import time

    from wyoming.client import AsyncTcpClient
    from wyoming.info import Describe
    from wyoming.tts import SynthesizeChunk, SynthesizeStart, SynthesizeStop

    async def flood(port: int) -> list:
        events = []
        async with AsyncTcpClient("127.0.0.1", port) as client:
            await client.write_event(SynthesizeStart().event())
            for _ in range(200):  # 200 x 64 KiB, no sentence end anywhere
                await client.write_event(SynthesizeChunk("好" * 65536).event())
            await client.write_event(SynthesizeStop().event())
            while (event := await asyncio.wait_for(client.read_event(), 60)) is not None:
                events.append(event)
                if event.type == "synthesize-stopped":
                    return events
        return events

    async def describe(port: int, flooding: asyncio.Task) -> list[float]:
        waits = []
        while not flooding.done():
            async with AsyncTcpClient("127.0.0.1", port) as client:
                t0 = time.perf_counter()
                await client.write_event(Describe().event())
                assert (await asyncio.wait_for(client.read_event(), 10)).type == "info"
                waits.append(time.perf_counter() - t0)
            await asyncio.sleep(0.02)
        return waits

    async def scenario(port: int) -> tuple[list, list[float]]:
        flooding = asyncio.create_task(flood(port))
        waits = await describe(port, flooding)
        return await flooding, waits

    with wyoming_service(backend, max_chars=5000) as (port, _):
        events, waits = asyncio.run(scenario(port))
    errors = [e for e in events if e.type == "error"]
    assert len(errors) == 200 and all("no sentence end" in e.data["text"] for e in errors)
    assert events[-1].type == "synthesize-stopped"
    assert waits and max(waits) < 1.0, max(waits)


# --- finding 2 and 8: whole-file work off the event loop; the heap trimmed once the file has gone


def test_health_answers_within_a_second_during_the_largest_allowed_synthesize(backend: TTSBackend) -> None:
    import threading

    from onestep.server.encoders import supported_formats

    fmt = "mp3" if "mp3" in supported_formats() else "flac" if "flac" in supported_formats() else "wav"
    text = "你好，世界。这是对服务器的一个简短测试。" * 120  # 2,400 characters: ~700 s of audio planned (cap 900 s)
    with hardened_server(backend, max_chars=5000) as (live, _):
        # a machine fast enough for the whole-file endpoint's 30 s: the audio cap is then what bounds it
        live.state.scheduler.cost_model.s_per_phoneme = 1e-5
        result: list[httpx.Response] = []
        body = {"text": text, "voice": VOICE, "format": fmt, "sample_rate": 48000, "timestamps": True}
        big = threading.Thread(target=lambda: result.append(httpx.post(live.url + "/synthesize", json=body, timeout=300)))
        big.start()
        import time

        waits = []
        with httpx.Client(timeout=30) as client:
            while big.is_alive():
                t0 = time.perf_counter()
                assert client.get(live.url + "/health").status_code == 200
                waits.append(time.perf_counter() - t0)
                time.sleep(0.05)
        big.join()
    assert result[0].status_code == 200, result[0].text[:300]
    reply = result[0].json()
    assert reply["duration"] > 300 and reply["format"] == fmt and reply["words"]
    assert len(waits) > 5 and max(waits) < 1.0, (len(waits), max(waits))


def test_heap_is_trimmed_after_the_whole_file_is_encoded(backend: TTSBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    import onestep.server.routes_http as routes
    import onestep.server.state as state_module

    events: list[str] = []
    encode = routes.whole_file

    def whole_file(*args: object, **kwargs: object) -> bytes:
        events.append("encode start")
        data = encode(*args, **kwargs)  # type: ignore[arg-type]
        events.append("encoded")
        return data

    monkeypatch.setattr(routes, "whole_file", whole_file)
    monkeypatch.setattr(state_module, "trim_allocator", lambda: events.append("trim") or True)
    with hardened_server(backend) as (live, _):
        live.state.scheduler.cost_model.s_per_phoneme = 1e-5
        r = httpx.post(live.url + "/synthesize", json={"text": LONG_TEXT, "voice": VOICE, "format": "wav"}, timeout=120)
        assert r.status_code == 200 and float(r.headers["x-audio-duration-s"]) > 60
        from .conftest import wait_for

        wait_for(lambda: "trim" in events, 10)
    assert events == ["encode start", "encoded", "trim"]


# --- no 5xx from user input: a seeded fuzz of the shapes above, per interface


def _fuzz_cases(n: int, seed: int = 26) -> list[dict[str, object]]:
    """``n`` requests mixing bad blends, unencodable or empty texts, SSML voices and odd numbers."""
    import random

    rng = random.Random(seed)
    weights = ["0", "0.0", "1", "1000", "1000.5", OVERFLOW, "9" * 40, ".5", "00", "1." + "0" * 300]
    voices = [
        *BAD_VOICES, "tiny-zh-f", "tiny-zh-m", "", "nobody", "tiny-zh-f+", "+", "tiny-zh-f:-1", "tiny-zh-f:1e309",
        "tiny-zh-f:nan+tiny-zh-m", "../../etc/passwd", "tiny-zh-f(1)+tiny-zh-m:2", "tiny-zh-f" * 80,
    ]  # fmt: skip
    texts = [
        "你好。", "你好\ud800。", "\udfff", "<speak></speak>", "<speak><break time='1s'/></speak>", "<speak>",
        '<speak><say-as interpret-as="characters">' + "好" * 500 + "</say-as></speak>",
        '<speak><say-as interpret-as="digits">' + "9" * 4500 + "</say-as></speak>", "★😀", " ",
    ]  # fmt: skip
    cases = []
    for _ in range(n):
        kind = rng.randrange(4)
        if kind == 0:
            voice = "+".join(f"{rng.choice(BLEND_VOICES)}:{rng.choice(weights)}" for _ in range(rng.randint(1, 10)))
        else:
            voice = rng.choice(voices)
        text = rng.choice(texts)
        if kind == 1:
            w = rng.choice(weights)
            text = f'<speak><voice name="tiny-zh-f:{w}+tiny-zh-m:{rng.choice(weights)}">你好。</voice></speak>'
        speed = rng.choice([0.5, 1.0, 2.0, 0.25, 4.0, 0.1, 1e308])
        cases.append({"text": text, "voice": voice, "speed": speed})
    return cases


def test_fuzz_http_never_answers_5xx(multi: LiveServer) -> None:
    statuses = []
    with httpx.Client(timeout=120) as client:
        for i, case in enumerate(_fuzz_cases(80)):
            if i % 2:
                body = {"input": case["text"], "voice": case["voice"], "speed": case["speed"], "response_format": "pcm"}
                path = "/v1/audio/speech"
            else:
                body = {"text": case["text"], "voice": case["voice"], "speed": case["speed"], "format": "wav"}
                path = "/synthesize"
            # ASCII-escaped JSON: a lone surrogate travels as the \\ud800 escape any client can send
            r = client.post(multi.url + path, content=json.dumps(body), headers={"content-type": "application/json"})
            assert r.status_code < 500, (case, r.status_code, r.text[:300])
            if r.status_code >= 400:
                assert r.json()["error"]["message"]
            statuses.append(r.status_code)
    assert 200 in statuses and {400, 413} <= set(statuses), statuses  # the fuzz reaches both sides


def test_fuzz_websocket_answers_every_id_on_one_connection(multi: LiveServer) -> None:
    cases = _fuzz_cases(40, seed=27)

    async def scenario() -> dict[int, str]:
        last: dict[int, str] = {}
        async with connect(multi.ws_url, max_size=None) as ws:
            for i, case in enumerate(cases):
                if case["speed"] not in (0.5, 1.0, 2.0):
                    case = {**case, "speed": 1.0}
                await ws.send(json.dumps({"id": i, **case}))
                while True:
                    message = await asyncio.wait_for(ws.recv(), 120)
                    if isinstance(message, bytes):
                        continue
                    frame = json.loads(message)
                    assert frame["id"] == i, frame
                    if frame["type"] in ("end", "error"):
                        last[i] = frame["type"] if frame["type"] == "end" else frame["error"]["type"]
                        break
        return last

    last = asyncio.run(scenario())
    assert sorted(last) == list(range(len(cases)))
    assert "server_error" not in last.values(), last
    assert "end" in last.values() and "invalid_request_error" in last.values(), last


def test_fuzz_wyoming_never_answers_an_internal_error(multi_backend: TTSBackend) -> None:
    from wyoming.event import Event

    from .test_wyoming import wyoming_server

    cases = _fuzz_cases(40, seed=28)
    events = [Event("synthesize", {"text": c["text"], "voice": {"name": c["voice"]}}) for c in cases]
    events.append(Event("describe"))
    with wyoming_server(multi_backend) as port:
        got = asyncio.run(raw_exchange(port, events, "info"))
    internal = [e.data for e in got if e.type == "error" and e.data.get("code") == "InternalError"]
    assert not internal, internal


def test_engine_stops_at_the_audio_cap_and_a_parked_stream_makes_nothing(gated) -> None:  # noqa: ANN001
    from onestep.server.backend import SynthesisRequest
    from onestep.server.scheduler import ThreadPoolScheduler
    from onestep.work_limits import TooMuchWorkError

    async def capped_run() -> tuple[float, BaseException | None]:
        scheduler = ThreadPoolScheduler(gated, workers=1, queue_size=4, timeout_s=30)
        scheduler.start()
        stream = scheduler.submit(SynthesisRequest(LONG_TEXT, VOICE), None, max_audio_s=10.0)
        error = None
        try:
            async for _ in stream:
                pass
        except TooMuchWorkError as e:
            error = e
        stream.cancel()
        await scheduler.stop(drain_timeout_s=5)
        return stream.samples_out / gated.sample_rate, error

    audio_s, error = asyncio.run(capped_run())
    assert isinstance(error, TooMuchWorkError) and audio_s <= 10.0
    assert LONG_TEXT in gated.closed_early  # the engine's generator was closed: no audio made past the cap

    async def parked_run() -> tuple[float, float, int]:
        scheduler = ThreadPoolScheduler(gated, workers=1, queue_size=4, timeout_s=30)
        scheduler.max_buffered_s = 2.0
        scheduler.start()
        stream = scheduler.submit(SynthesisRequest(LONG_TEXT, VOICE))
        for _ in range(500):  # nobody reads: the engine fills the buffer, then parks the stream
            if stream.buffered_s >= 2.0:
                break
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.5)
        first = stream.buffered_s
        await asyncio.sleep(0.5)
        second = stream.buffered_s
        taken = 0
        async for chunk in stream:  # reading resumes it, to the end
            taken += chunk.size
        await scheduler.stop(drain_timeout_s=5)
        return first, second, taken

    first, second, taken = asyncio.run(parked_run())
    assert 2.0 <= first <= 2.0 + LONGEST_CHUNK_S and second == first  # parked: nothing more made meanwhile
    assert taken / gated.sample_rate > 60  # all of it once read


def test_a_streams_copy_for_the_phrase_cache_never_outgrows_one_entry() -> None:
    from onestep.server.phrases import KeptCopy

    keep = KeptCopy(max_bytes=10)
    keep.add(b"12345")
    keep.add(b"67890")
    assert keep.value() == b"1234567890"
    keep.add(b"x")  # past one entry: dropped at once (a 15-minute stream no longer kept whole in memory)
    assert keep.value() is None and keep._parts is None  # noqa: SLF001
    keep.add(b"y")
    assert keep.value() is None


def test_write_timeout_cuts_a_stuck_client_and_spares_a_slow_one() -> None:
    from onestep.server.http_limits import _WriteTimeout

    class Base:
        def pause_writing(self) -> None:
            pass

        def resume_writing(self) -> None:
            pass

        def connection_lost(self, exc: Exception | None) -> None:
            pass

    class Transport:
        def __init__(self, drains: int) -> None:
            self.size, self.drains, self.aborted = 1_000_000, drains, False

        def get_write_buffer_size(self) -> int:
            if self.drains > 0:  # a slow client: some bytes leave between two looks
                self.drains -= 1
                self.size -= 10_000
            return self.size

        def is_closing(self) -> bool:
            return self.aborted

        def abort(self) -> None:
            self.aborted = True

    class Protocol(_WriteTimeout, Base):
        write_timeout = 0.02

    async def run(drains: int) -> tuple[bool, int]:
        protocol = Protocol()
        protocol.transport = Transport(drains)  # type: ignore[assignment]
        t0 = asyncio.get_running_loop().time()
        protocol.pause_writing()  # the send buffer is full, and stays so
        while not protocol.transport.aborted and asyncio.get_running_loop().time() - t0 < 2:  # type: ignore[attr-defined]
            await asyncio.sleep(0.005)
        return protocol.transport.aborted, protocol.transport.drains  # type: ignore[attr-defined]

    stuck, _ = asyncio.run(run(drains=0))
    assert stuck  # nothing left the buffer in write_timeout: aborted
    slow_aborted, progress_left = asyncio.run(run(drains=20))
    assert slow_aborted and progress_left == 0  # cut only once it had stopped taking bytes
