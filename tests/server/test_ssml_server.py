"""SSML through HTTP (the OpenAI ``input`` too, whole and streamed, both schedulers), the WebSocket and Wyoming."""

from __future__ import annotations

import asyncio
import json

import httpx
import numpy as np
import openai
import pytest
from websockets.asyncio.client import connect
from wyoming.tts import Synthesize, SynthesizeVoice

from .conftest import VOICE, LiveServer, live_server
from .test_websocket import receive_one
from .test_wyoming import audio_of, exchange, wyoming_port  # noqa: F401 - the fixture

SSML = '<speak>你好。<break time="500ms"/><prosody rate="fast">我有<say-as interpret-as="cardinal">12</say-as>个。</prosody></speak>'


def _pcm(url: str, text: str, **extra: object) -> httpx.Response:
    return httpx.post(url + "/synthesize", json={"text": text, "voice": VOICE, "format": "pcm", **extra}, timeout=60)


def test_openai_input_starting_with_speak_is_ssml(server: LiveServer, tts) -> None:  # noqa: ANN001
    client = openai.OpenAI(base_url=server.url + "/v1", api_key="unused", max_retries=0)
    pcm = client.audio.speech.create(model="tts-1", voice=VOICE, input=SSML, response_format="pcm").content
    expected = tts.synthesize(SSML, voice=VOICE).samples
    assert len(pcm) == 2 * expected.size
    assert np.abs(np.frombuffer(pcm, "<i2") / 32767 - expected).max() < 1e-3
    with pytest.raises(openai.BadRequestError) as e:
        client.audio.speech.create(model="tts-1", voice=VOICE, input="<speak>\n<p>你好</speak>", response_format="pcm")
    assert "malformed SSML at line 2, column" in str(e.value)


def test_synthesize_ssml_and_its_errors(server: LiveServer) -> None:
    r = _pcm(server.url, SSML)
    assert r.status_code == 200 and len(r.content) > 2 * 12000
    bad = _pcm(server.url, '<speak><break time="forever"/></speak>')
    assert bad.status_code == 400 and "'500ms' or '1.5s'" in bad.json()["error"]["message"]
    unknown = _pcm(server.url, '<speak><voice name="nobody">你好</voice></speak>')
    assert unknown.status_code == 400 and "nobody" in unknown.json()["error"]["message"]


def test_micro_batching_scheduler_speaks_ssml_too(backend, server: LiveServer) -> None:  # noqa: ANN001
    with live_server(backend, scheduler_kind="batch") as batched:
        r = _pcm(batched.url, SSML)
    assert r.status_code == 200
    assert np.abs(np.frombuffer(r.content, "<i2").astype(int) - np.frombuffer(_pcm(server.url, SSML).content, "<i2")).max() <= 1


def test_websocket_ssml(server: LiveServer) -> None:
    async def scenario() -> tuple[bytes, dict]:
        async with connect(server.ws_url) as ws:
            await ws.send(json.dumps({"text": SSML, "voice": VOICE}))
            _, pcm, _ = await receive_one(ws)
            await ws.send(json.dumps({"text": "<speak><p>x</speak>"}))
            return pcm, json.loads(await ws.recv())

    pcm, error = asyncio.run(scenario())
    assert pcm == _pcm(server.url, SSML).content
    assert error["type"] == "error" and "line 1, column" in error["error"]["message"]


def test_wyoming_ssml(wyoming_port: int, server: LiveServer) -> None:  # noqa: F811
    events = asyncio.run(exchange(wyoming_port, [Synthesize(SSML, SynthesizeVoice(name=VOICE)).event()], "audio-stop"))
    assert audio_of(events) == _pcm(server.url, SSML).content
    (error,) = asyncio.run(exchange(wyoming_port, [Synthesize("<speak><p>x</speak>").event()], "error"))
    assert "malformed SSML" in error.data["text"]


@pytest.mark.parametrize(
    ("document", "status", "code"),
    [("<speak></speak>", 400, "empty_input"), ('<speak><sub alias="">x</sub></speak>', 400, "empty_input"),
     ("<speak>★😀</speak>", 422, "nothing_to_speak")],
)
def test_ssml_with_nothing_to_speak_is_a_json_4xx_on_both_routes(
    server: LiveServer, document: str, status: int, code: str
) -> None:
    speech = {"input": document, "voice": VOICE, "model": "tts-1", "response_format": "wav"}
    for r in (_pcm(server.url, document), httpx.post(server.url + "/v1/audio/speech", json=speech, timeout=60)):
        assert r.status_code == status and r.headers["content-type"].startswith("application/json"), r.text
        assert r.json()["error"]["code"] == code
