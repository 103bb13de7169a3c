"""Voices of a multi-speaker model and their blends through HTTP, the WebSocket and Wyoming (one resolver)."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import pytest
import soundfile

from onestep.server.backend import TTSBackend

from .conftest import LiveServer, live_server

MULTI_DIR = Path(__file__).resolve().parents[1] / "fixtures" / "multi"
TEXT = "你好，世界。"


@pytest.fixture(scope="module")
def multi_backend() -> TTSBackend:
    from onestep import TTS

    return TTSBackend(TTS(voices_dir=[MULTI_DIR], threads=1), warmup_text="你好。")


@pytest.fixture(scope="module")
def multi_server(multi_backend: TTSBackend) -> Iterator[LiveServer]:
    with live_server(multi_backend) as live:
        yield live


def _speech(server: LiveServer, voice: str) -> httpx.Response:
    body = {"model": "tts-1", "input": TEXT, "voice": voice, "response_format": "wav"}
    return httpx.post(f"{server.url}/v1/audio/speech", json=body, timeout=60)


def test_http_speaks_a_blend_and_equals_the_api(multi_server: LiveServer) -> None:
    from onestep import TTS

    response = _speech(multi_server, "tiny-zh-f(3)+tiny-zh-m(1)")
    assert response.status_code == 200
    samples, rate = soundfile.read(io.BytesIO(response.content), dtype="float32")
    expected = TTS(voices_dir=[MULTI_DIR], threads=1).synthesize(TEXT, voice="tiny-zh-f:0.75+tiny-zh-m:0.25")
    assert rate == expected.sample_rate
    np.testing.assert_allclose(samples, expected.samples, atol=2 / 32768)  # 16-bit WAV rounding
    plain = _speech(multi_server, "tiny-zh-f")
    assert plain.status_code == 200 and plain.content != response.content


@pytest.mark.parametrize(("voice", "code"), [("tiny-zh-f+nobody", "voice_not_found"), ("tiny-zh-f:0+tiny-zh-m:0", None)])
def test_http_refuses_bad_blends_with_a_4xx(multi_server: LiveServer, voice: str, code: str | None) -> None:
    response = _speech(multi_server, voice)
    assert 400 <= response.status_code < 500
    error = response.json()["error"]
    assert code is None or error["code"] == code


def test_websocket_speaks_a_blend(multi_server: LiveServer) -> None:
    from websockets.sync.client import connect

    url = multi_server.url.replace("http://", "ws://") + "/v1/stream"
    with connect(url, origin=multi_server.url) as ws:
        ws.send(json.dumps({"text": TEXT, "voice": "tiny-zh-f:0.5+tiny-zh-m:0.5", "id": "b1"}))
        audio = 0
        while True:
            message = ws.recv(timeout=60)
            if isinstance(message, bytes):
                audio += len(message)
                continue
            frame = json.loads(message)
            assert frame.get("type") != "error", frame
            if frame.get("type") == "end":
                break
    assert audio > 0


def test_wyoming_speaks_a_blend(multi_backend: TTSBackend) -> None:
    from wyoming.tts import Synthesize, SynthesizeVoice

    from .test_wyoming import audio_of, exchange, wyoming_server

    with wyoming_server(multi_backend) as port:
        voice = SynthesizeVoice(name="tiny-zh-f(1)+tiny-zh-m(1)")
        events = asyncio.run(exchange(port, [Synthesize(TEXT, voice=voice).event()], "audio-stop"))
    assert not [e for e in events if e.type == "error"]
    assert len(audio_of(events)) > 0
