"""Word timestamps through HTTP whole (JSON) and streamed (SSE), the WebSocket, and the Python API:
times agree with the phoneme durations, offsets slice the input back to the written words."""

from __future__ import annotations

import asyncio
import base64
import io
import json

import httpx
import numpy as np
import soundfile as sf
from websockets.asyncio.client import connect

from .conftest import VOICE, LiveServer

TEXT = "我有3个苹果。Dr. Smith 说你好。"
WRITTEN = ["我", "有", "3个", "苹果", "Dr.", "Smith", "说", "你好"]


def _check(words: list[dict], text: str = TEXT) -> None:
    assert [w["text"] for w in words] == WRITTEN
    assert all(text[w["char_start"] : w["char_end"]] == w["text"] for w in words)
    assert [w["spoken"] for w in words][2:5] == ["三个", "苹果", "Doctor"]
    assert all(0 <= w["start"] < w["end"] for w in words)
    assert all(a["end"] <= b["start"] for a, b in zip(words, words[1:]))


def test_api_words_agree_with_phoneme_durations(tts) -> None:  # noqa: ANN001
    audio = tts.synthesize(TEXT, voice=VOICE)
    stamps = audio.phoneme_timestamps
    for word in audio.words:
        inside = [p for p in stamps if word.start - 1e-9 <= p.start and p.end <= word.end + 1e-9]
        assert "".join(p.phoneme for p in inside) == word.phonemes.replace(" ", "")
    assert audio.words[-1].end <= audio.duration
    _check([w.as_dict() for w in audio.words])
    chars = tts.synthesize("我喜欢苹果。", voice=VOICE, characters=True).words
    assert [(w.text, w.char_start) for w in chars] == [("我", 0), ("喜", 1), ("欢", 2), ("苹", 3), ("果", 4)]


def test_synthesize_json_has_audio_and_timestamps(server: LiveServer, tts) -> None:  # noqa: ANN001
    body = {"text": TEXT, "voice": VOICE, "timestamps": True, "format": "wav", "sample_rate": 16000}
    r = httpx.post(server.url + "/synthesize", json=body, timeout=60)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    payload = r.json()
    samples, rate = sf.read(io.BytesIO(base64.b64decode(payload["audio"])), dtype="float32")
    assert rate == payload["sample_rate"] == 16000 and abs(samples.size / rate - payload["duration"]) < 1e-3
    _check(payload["words"])
    expected = [w.as_dict() for w in tts.synthesize(TEXT, voice=VOICE).words]
    assert payload["words"] == expected  # the same words as the Python API


def test_sse_interleaves_timestamp_events_with_audio(server: LiveServer) -> None:
    body = {"input": TEXT, "voice": VOICE, "response_format": "pcm", "stream_format": "sse", "timestamps": True}
    r = httpx.post(server.url + "/v1/audio/speech", json=body, timeout=60)
    events = [json.loads(line[6:]) for line in r.text.splitlines() if line.startswith("data: ")]
    kinds = [e["type"] for e in events]
    assert kinds[-1] == "speech.audio.done"
    assert kinds.count("speech.timestamps") >= 2  # interleaved, not all at once
    _check([w for e in events if e["type"] == "speech.timestamps" for w in e["words"]])
    sent_s = 0.0  # each word is announced after the audio before its start and before the audio it starts in
    for i, e in enumerate(events):
        if e["type"] == "speech.audio.delta":
            sent_s += len(base64.b64decode(e["audio"])) / 2 / 24000
        elif e["type"] == "speech.timestamps":
            following = next((x for x in events[i + 1 :] if x["type"] == "speech.audio.delta"), None)
            until = sent_s + (len(base64.b64decode(following["audio"])) / 2 / 24000 if following else 1e9)
            assert all(sent_s - 1e-6 <= w["start"] < until for w in e["words"])
    plain = {k: v for k, v in body.items() if k != "timestamps"}
    assert httpx.post(server.url + "/v1/audio/speech", json={**plain, "stream_format": "audio", "timestamps": True},
                      timeout=60).status_code == 400  # fmt: skip


def test_websocket_sends_timestamps_before_their_audio(server: LiveServer) -> None:
    async def scenario() -> list[object]:
        async with connect(server.ws_url) as ws:
            await ws.send(json.dumps({"text": TEXT, "voice": VOICE, "timestamps": True, "id": "t-1"}))
            out: list[object] = []
            while True:
                m = await ws.recv()
                out.append(m if isinstance(m, bytes) else json.loads(m))
                if isinstance(out[-1], dict) and out[-1]["type"] in ("end", "error"):
                    return out

    messages = asyncio.run(scenario())
    assert messages[0]["type"] == "start"
    assert all(m["id"] == "t-1" for m in messages if isinstance(m, dict))  # the request id on every frame
    words = [w for m in messages if isinstance(m, dict) and m["type"] == "timestamps" for w in m["words"]]
    _check(words)
    sent_s = 0.0  # each word comes after the audio before its start, before the audio it starts in
    for i, m in enumerate(messages):
        if isinstance(m, bytes):
            sent_s += len(m) / 2 / 24000
        elif m["type"] == "timestamps":
            following = next((x for x in messages[i + 1 :] if isinstance(x, bytes)), None)
            until = sent_s + (len(following) / 2 / 24000 if following else 1e9)
            assert all(sent_s - 1e-6 <= w["start"] < until for w in m["words"])
    pcm = b"".join(m for m in messages if isinstance(m, bytes))
    assert words[-1]["end"] <= len(pcm) / 2 / 24000 + 1e-6
    assert np.frombuffer(pcm, dtype="<i2").size > 0


def test_character_timestamps_on_request(server: LiveServer, backend) -> None:  # noqa: ANN001
    from .conftest import live_server

    body = {"text": "我喜欢苹果。", "voice": VOICE, "timestamps": "char"}
    words = httpx.post(server.url + "/synthesize", json=body, timeout=60).json()["words"]
    assert [(w["text"], w["char_start"], w["char_end"]) for w in words] == [
        ("我", 0, 1), ("喜", 1, 2), ("欢", 2, 3), ("苹", 3, 4), ("果", 4, 5)
    ]  # fmt: skip
    with live_server(backend, scheduler_kind="batch") as batched:  # the micro-batching path gives the same
        assert httpx.post(batched.url + "/synthesize", json=body, timeout=60).json()["words"] == words
    bad = httpx.post(server.url + "/synthesize", json={**body, "timestamps": "syllable"}, timeout=60)
    assert bad.status_code == 400 and bad.json()["error"]["param"].startswith("timestamps")
