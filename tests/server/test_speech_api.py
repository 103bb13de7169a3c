"""The OpenAI-compatible endpoint through the official ``openai`` client, and ``/synthesize``."""

from __future__ import annotations

import base64
import io
import json

import httpx
import numpy as np
import openai
import pytest
import soundfile as sf

from onestep.server.encoders import supported_formats

from .conftest import TEXT, VOICE, LiveServer, live_server


def pcm_of(server: LiveServer, text: str = TEXT, voice: str | None = VOICE) -> np.ndarray:
    """int16 samples of ``/synthesize`` (format pcm; ``voice=None``: the language's default voice)."""
    r = httpx.post(server.url + "/synthesize", json={"text": text, "voice": voice, "format": "pcm"}, timeout=30)
    assert r.status_code == 200, r.text
    return np.frombuffer(r.content, dtype="<i2")


@pytest.fixture
def client(server: LiveServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.url + "/v1", api_key="unused", max_retries=0)


def test_openai_client_non_streaming_wav(client: openai.OpenAI, server: LiveServer) -> None:
    response = client.audio.speech.create(model="tts-1", voice="alloy", input=TEXT, response_format="wav")
    samples, rate = sf.read(io.BytesIO(response.content), dtype="int16")
    assert rate == 24000
    assert samples.size > 0
    np.testing.assert_array_equal(samples, pcm_of(server, voice=_openai_voice(server, "alloy")))


def _openai_voice(server: LiveServer, alias: str) -> str:
    """Our voice that an OpenAI voice name gives on this server (the one resolver's table)."""
    return httpx.get(server.url + "/v1/voices", timeout=30).json()["openai_voices"][alias]


def test_openai_client_streaming_pcm_arrives_in_chunks(client: openai.OpenAI, server: LiveServer) -> None:
    with client.audio.speech.with_streaming_response.create(
        model="gpt-4o-mini-tts", voice=VOICE, input=TEXT, response_format="pcm"
    ) as response:
        assert response.headers["content-type"] == "audio/pcm"
        assert response.headers.get("transfer-encoding") == "chunked"
        assert float(response.headers["x-time-to-first-audio-ms"]) >= 0
        parts = list(response.iter_bytes(chunk_size=None))
    assert len(parts) > 1  # the body is sent while audio is produced, not at the end
    pcm = np.frombuffer(b"".join(parts), dtype="<i2")
    np.testing.assert_array_equal(pcm, pcm_of(server))


@pytest.mark.parametrize("fmt", ["wav", "flac", "mp3", "opus"])
def test_streamed_formats_decode_to_the_same_length(fmt: str, server: LiveServer) -> None:
    if fmt not in supported_formats():
        pytest.skip(f"this libsndfile cannot encode {fmt}")
    r = httpx.post(
        server.url + "/v1/audio/speech",
        json={"model": "tts-1", "input": TEXT, "voice": VOICE, "response_format": fmt},
        timeout=30,
    )
    assert r.status_code == 200, r.text
    expected_s = pcm_of(server).size / 24000
    if fmt in ("wav", "opus"):
        audio, rate = sf.read(io.BytesIO(r.content))
        seconds = audio.shape[0] / rate
    else:  # streamed FLAC/MP3 carry no total length; decode them as players do (FFmpeg)
        av = pytest.importorskip("av", reason="PyAV decodes streamed FLAC/MP3 in this test")
        with av.open(io.BytesIO(r.content)) as container:
            frames = list(container.decode(audio=0))
            seconds = sum(f.samples for f in frames) / frames[0].sample_rate
    # MP3 adds encoder delay + one blank info frame (< 0.1 s); the others are exact up to a codec frame.
    assert expected_s - 0.001 <= seconds <= expected_s + (0.1 if fmt == "mp3" else 0.03)


def test_voice_object_names_our_voice_and_openai_names_map_to_distinct_voices(server: LiveServer, tts) -> None:  # noqa: ANN001
    from onestep.languages import detect_language

    default = tts.catalog.default_for(detect_language(TEXT)).name
    bodies = [{"voice": default}, {"voice": {"id": default}}, {"voice": "nova"}, {"voice": "ALLOY"}]
    outs = []
    for extra in bodies:
        r = httpx.post(
            server.url + "/v1/audio/speech",
            json={"model": "tts-1", "input": TEXT, "response_format": "pcm", **extra},
            timeout=30,
        )
        assert r.status_code == 200, r.text
        outs.append(r.content)
    assert outs[0] == outs[1]
    nova, alloy = _openai_voice(server, "nova"), _openai_voice(server, "alloy")
    assert nova != alloy
    assert np.array_equal(np.frombuffer(outs[2], "<i2"), pcm_of(server, voice=nova))
    assert np.array_equal(np.frombuffer(outs[3], "<i2"), pcm_of(server, voice=alloy))


def test_openai_speed_is_clamped_into_the_engine_range(server: LiveServer) -> None:
    def speech(speed: float) -> httpx.Response:
        body = {"model": "tts-1", "input": TEXT, "voice": VOICE, "response_format": "pcm", "speed": speed}
        return httpx.post(server.url + "/v1/audio/speech", json=body, timeout=30)

    fast, double = speech(4.0), speech(2.0)
    assert fast.status_code == 200
    assert fast.headers["x-speed-applied"] == "2"
    assert fast.content == double.content
    assert len(double.content) < len(speech(1.0).content)
    assert speech(0.25).headers["x-speed-applied"] == "0.5"
    for bad in (0.2, 4.5):
        r = speech(bad)
        assert r.status_code == 400
        assert r.json()["error"]["param"] == "speed"


def test_openai_client_errors_are_typed(client: openai.OpenAI) -> None:
    with pytest.raises(openai.BadRequestError) as e:
        client.audio.speech.create(model="tts-1", voice="../../etc/passwd", input=TEXT)
    assert e.value.body["param"] == "voice"
    available = e.value.body["message"].split("available: ", 1)[1]
    assert "tiny" in available.split(" (")[0].split(", ")
    with pytest.raises(openai.BadRequestError) as e:
        client.audio.speech.create(model="tts-1", voice="alloy", input=TEXT, response_format="wma")  # type: ignore[arg-type]
    assert "supported: wav, pcm" in e.value.body["message"]
    if "aac" in supported_formats():  # every response_format of OpenAI's is served (aac through PyAV)
        assert client.audio.speech.create(model="tts-1", voice="alloy", input=TEXT, response_format="aac").content


def test_sse_stream_format_carries_the_audio(server: LiveServer) -> None:
    body = {"model": "tts-1", "input": TEXT, "voice": VOICE, "response_format": "pcm", "stream_format": "sse"}
    r = httpx.post(server.url + "/v1/audio/speech", json=body, timeout=30)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/event-stream")
    events = [json.loads(line[len("data: ") :]) for line in r.text.splitlines() if line.startswith("data: ")]
    assert events[-1]["type"] == "speech.audio.done"
    audio = b"".join(base64.b64decode(e["audio"]) for e in events[:-1])
    assert audio == pcm_of(server).tobytes()


def test_synthesize_returns_wav_with_timing_headers(server: LiveServer) -> None:
    r = httpx.post(server.url + "/synthesize", json={"text": TEXT, "voice": VOICE, "speed": 1.25}, timeout=30)
    assert r.status_code == 200
    assert r.headers["content-type"] == "audio/wav"
    audio, rate = sf.read(io.BytesIO(r.content))
    duration = float(r.headers["x-audio-duration-s"])
    assert duration == pytest.approx(audio.shape[0] / rate, abs=1e-3)
    ttfb, total = float(r.headers["x-time-to-first-byte-ms"]), float(r.headers["x-synthesis-time-ms"])
    assert 0 <= ttfb <= total
    assert float(r.headers["x-real-time-factor"]) == pytest.approx(total / 1000 / duration, rel=0.01)


def test_api_key_is_required_when_configured(backend) -> None:  # noqa: ANN001
    with live_server(backend, api_key="s3cret", workers=1) as live:
        good = openai.OpenAI(base_url=live.url + "/v1", api_key="s3cret", max_retries=0)
        bad = openai.OpenAI(base_url=live.url + "/v1", api_key="wrong", max_retries=0)
        assert good.audio.speech.create(model="tts-1", voice="alloy", input="你好。").content
        with pytest.raises(openai.AuthenticationError):
            bad.audio.speech.create(model="tts-1", voice="alloy", input="你好。")
        r = httpx.post(live.url + "/synthesize", json={"text": "你好。"}, timeout=60)
        assert r.status_code == 401
        assert r.json()["error"]["type"] == "authentication_error"
        assert httpx.get(live.url + "/health").status_code == 200  # health and metrics stay open


def test_cors_headers_for_allowed_origin_only(backend) -> None:  # noqa: ANN001
    with live_server(backend, cors_origins=("https://app.example",), workers=1) as live:
        pre = httpx.options(
            live.url + "/v1/audio/speech",
            headers={"Origin": "https://app.example", "Access-Control-Request-Method": "POST"},
        )
        assert pre.headers["access-control-allow-origin"] == "https://app.example"
        other = httpx.get(live.url + "/v1/voices", headers={"Origin": "https://evil.example"}, timeout=60)
        assert "access-control-allow-origin" not in other.headers


def test_language_field_reads_the_input_in_that_language(server: LiveServer) -> None:
    def post(path: str, body: dict) -> httpx.Response:
        return httpx.post(server.url + path, json=body, timeout=30)

    plain = post("/synthesize", {"text": "Hola amigo, son las diez.", "voice": VOICE, "format": "pcm"})
    spanish = post("/synthesize", {"text": "Hola amigo, son las diez.", "voice": VOICE, "format": "pcm", "language": "es"})
    assert plain.status_code == spanish.status_code == 200
    assert plain.content != spanish.content  # espeak's Spanish, not English, phonemes
    openai_lang = post("/v1/audio/speech", {"model": "tts-1", "input": "Hola amigo, son las diez.", "voice": VOICE,
                                            "response_format": "pcm", "lang": "es"})  # fmt: skip
    assert openai_lang.status_code == 200 and openai_lang.content == spanish.content
    bad = post("/synthesize", {"text": "Hola", "format": "pcm", "language": "xx"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "unsupported_language"
    listed = httpx.get(server.url + "/v1/voices", timeout=30).json()
    assert {lang["code"] for lang in listed["languages"]} >= {"en", "zh", "ja", "es", "fr", "it", "pt", "hi"}
    assert set(listed["openai_voices"]) >= {"alloy", "shimmer", "cedar"}
