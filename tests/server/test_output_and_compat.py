"""Output options (sample rate, gain) through HTTP whole and streamed, the WebSocket and Wyoming; the
OpenAI-compatibility extras (/v1/models, /v1/audio/voices) through the official ``openai`` client."""

from __future__ import annotations

import asyncio
import base64
import io
import json
from collections.abc import Iterator

import httpx
import numpy as np
import openai
import pytest
import soundfile as sf
from websockets.asyncio.client import connect
from wyoming.audio import AudioStart
from wyoming.tts import Synthesize, SynthesizeVoice

from onestep.runtime.output import OutputOptions
from onestep.server.backend import TTSBackend

from .conftest import TEXT, VOICE, LiveServer
from .test_websocket import receive_one
from .test_wyoming import audio_of, exchange, wyoming_server


def _pcm(server: LiveServer, **options: object) -> np.ndarray:
    body = {"text": TEXT, "voice": VOICE, "format": "pcm", **options}
    r = httpx.post(server.url + "/synthesize", json=body, timeout=60)
    assert r.status_code == 200, r.text
    return np.frombuffer(r.content, dtype="<i2")


def test_speech_at_16k_via_openai_client_matches_synthesize(server: LiveServer) -> None:
    client = openai.OpenAI(base_url=server.url + "/v1", api_key="unused", max_retries=0)
    wav = client.audio.speech.create(
        model="tts-1", voice=VOICE, input=TEXT, response_format="wav", extra_body={"sample_rate": 16000}
    ).content
    samples, rate = sf.read(io.BytesIO(wav), dtype="int16")
    assert rate == 16000
    native = _pcm(server)
    resampled = _pcm(server, sample_rate=16000)
    assert resampled.size == round(native.size * 16000 / 24000)
    assert np.array_equal(samples, resampled)  # streamed response == whole /synthesize


def test_gain_through_sse_and_whole(server: LiveServer) -> None:
    body = {"model": "tts-1", "voice": VOICE, "input": TEXT, "response_format": "pcm", "stream_format": "sse",
            "gain_db": -6}  # fmt: skip
    r = httpx.post(server.url + "/v1/audio/speech", json=body, timeout=60)
    deltas = [json.loads(line[6:]) for line in r.text.splitlines() if line.startswith("data: ")]
    pcm = b"".join(base64.b64decode(d["audio"]) for d in deltas if d["type"] == "speech.audio.delta")
    quieter = np.frombuffer(pcm, dtype="<i2").astype(np.float64)
    native = _pcm(server).astype(np.float64)
    assert np.abs(quieter - native * 10 ** (-6 / 20)).max() <= 1.0  # int16 rounding
    assert np.array_equal(np.frombuffer(pcm, dtype="<i2"), _pcm(server, gain_db=-6))


@pytest.mark.parametrize(
    ("options", "param"), [({"sample_rate": 11025}, "sample_rate"), ({"gain_db": 50}, "gain_db"),
                           ({"sample_rate": 44100, "format": "opus"}, "format")],
)  # fmt: skip
def test_bad_output_options_are_400(server: LiveServer, options: dict, param: str) -> None:
    r = httpx.post(server.url + "/synthesize", json={"text": TEXT, **options}, timeout=60)
    assert r.status_code == 400
    assert r.json()["error"]["param"] == param


def test_websocket_announces_and_sends_the_requested_rate(server: LiveServer) -> None:
    async def scenario() -> tuple[dict, bytes, dict, dict]:
        async with connect(server.ws_url) as ws:
            await ws.send(json.dumps({"text": TEXT, "voice": VOICE, "sample_rate": 48000}))
            start, pcm, end = await receive_one(ws)
            await ws.send(json.dumps({"text": TEXT, "sample_rate": 1}))
            return start, pcm, end, json.loads(await ws.recv())

    start, pcm, end, error = asyncio.run(scenario())
    assert start["sample_rate"] == 48000
    assert np.array_equal(np.frombuffer(pcm, dtype="<i2"), _pcm(server, sample_rate=48000))
    assert end["audio_seconds"] == round(len(pcm) / 2 / 48000, 3)
    assert error["type"] == "error" and error["error"]["param"] == "sample_rate"


@pytest.fixture(scope="module")
def wyoming_16k(backend: TTSBackend) -> Iterator[int]:
    with wyoming_server(backend, OutputOptions(16000, -3.0)) as port:
        yield port


def test_wyoming_serves_the_servers_output_options(wyoming_16k: int, server: LiveServer) -> None:
    events = asyncio.run(exchange(wyoming_16k, [Synthesize(TEXT, SynthesizeVoice(name=VOICE)).event()], "audio-stop"))
    assert AudioStart.from_event(events[0]).rate == 16000
    pcm = np.frombuffer(audio_of(events), dtype="<i2")
    assert np.array_equal(pcm, _pcm(server, sample_rate=16000, gain_db=-3.0))


def test_models_and_audio_voices_for_probing_clients(server: LiveServer) -> None:
    client = openai.OpenAI(base_url=server.url + "/v1", api_key="unused", max_retries=0)
    ids = [m.id for m in client.models.list()]
    assert "tts-1" in ids and "onestep" in ids
    assert client.models.retrieve("tts-1").id == "tts-1"
    with pytest.raises(openai.NotFoundError):
        client.models.retrieve("no-such-model")
    voices = httpx.get(server.url + "/v1/audio/voices", timeout=10).json()["voices"]
    assert VOICE in voices and "alloy" in voices
    ours = {v["name"] for v in httpx.get(server.url + "/v1/voices", timeout=10).json()["voices"]}
    assert ours <= set(voices)
