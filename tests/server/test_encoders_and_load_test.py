"""Streaming encoders on synthetic audio, and the load test against the live server."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator

import numpy as np
import pytest
import soundfile as sf

from onestep_dev.bench.load_test import LoadTestError, check_loopback, format_table, run_load_test
from onestep.runtime.encoders import (
    UnsupportedFormatError,
    _ForwardOnlySink,
    encode_file,
    make_encoder,
    supported_formats,
    wav_header,
)

from .conftest import VOICE, LiveServer, free_port, live_server

RATE = 24000
TONE = (0.3 * np.sin(2 * np.pi * 220 * np.arange(RATE) / RATE)).astype(np.float32)  # 1 s


def stream_encode(fmt: str, samples: np.ndarray, chunk: int = 2400) -> tuple[bytes, list[int]]:
    encoder = make_encoder(fmt, RATE)
    parts = [encoder.encode(samples[i : i + chunk]) for i in range(0, samples.size, chunk)]
    parts.append(encoder.finish())
    return b"".join(parts), [len(p) for p in parts]


def test_wav_and_pcm_are_always_supported() -> None:
    assert supported_formats()[:2] == ("wav", "pcm")
    with pytest.raises(UnsupportedFormatError, match="supported: wav, pcm"):
        make_encoder("wma", RATE)


def test_streamed_wav_has_open_ended_header_and_exact_samples() -> None:
    data, sizes = stream_encode("wav", TONE)
    assert data[:44] == wav_header(RATE)
    assert sizes[0] == 44 + 2400 * 2  # header goes out with the first audio
    audio, rate = sf.read(io.BytesIO(data), dtype="int16")
    assert rate == RATE and audio.size == TONE.size
    np.testing.assert_allclose(audio / 32767, TONE, atol=1 / 32767)


def test_wav_file_has_final_sizes_and_the_streamed_samples() -> None:
    data = encode_file("wav", TONE, RATE)
    streamed, _ = stream_encode("wav", TONE)
    assert data[44:] == streamed[44:] == encode_file("pcm", TONE, RATE)  # one rounding for every form
    assert int.from_bytes(data[4:8], "little") == len(data) - 8  # RIFF size
    assert int.from_bytes(data[40:44], "little") == TONE.size * 2  # data size
    info = sf.info(io.BytesIO(data))
    assert (info.samplerate, info.channels, info.frames, info.subtype) == (RATE, 1, TONE.size, "PCM_16")
    loud = encode_file("wav", np.array([2.0, -2.0, 0.5], dtype=np.float32), RATE)
    assert np.frombuffer(loud[44:], "<i2").tolist() == [32767, -32767, 16384]  # clipped, rounded


def test_streamed_opus_emits_pages_during_the_stream() -> None:
    if "opus" not in supported_formats():
        pytest.skip("this libsndfile cannot encode opus")
    data, sizes = stream_encode("opus", TONE)
    assert sum(1 for s in sizes[:-1] if s > 0) >= 5  # pages flow with the audio, not all at the end
    audio, rate = sf.read(io.BytesIO(data))
    assert audio.shape[0] / rate == pytest.approx(1.0, abs=0.02)


@pytest.mark.parametrize("fmt", ["wav", "flac", "mp3", "opus"])
def test_whole_file_encoding_round_trips(fmt: str) -> None:
    if fmt not in supported_formats():
        pytest.skip(f"this libsndfile cannot encode {fmt}")
    audio, rate = sf.read(io.BytesIO(encode_file(fmt, TONE, RATE)))
    assert rate == RATE
    assert audio.shape[0] == pytest.approx(TONE.size, abs=0 if fmt in ("wav", "flac") else 1200)


def test_forward_only_sink_drops_rewrites_of_sent_bytes() -> None:
    sink = _ForwardOnlySink()
    sink.write(b"HEAD0000")
    assert sink.take() == b"HEAD0000"
    sink.write(b"body")
    sink.seek(4)
    sink.write(b"9999")  # a header fix-up after the bytes left: dropped
    sink.seek(0, io.SEEK_END)
    sink.write(b"tail")
    assert sink.take() == b"bodytail"
    assert sink.tell() == 16


@pytest.mark.parametrize(
    "url", ["http://10.0.0.1:8000", "http://example.org", "http://192.168.1.2", "ftp://127.0.0.1", "http://[::2]:80"]
)
def test_load_test_refuses_targets_off_this_machine(url: str) -> None:
    with pytest.raises(LoadTestError):
        check_loopback(url)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/", "http://localhost:1", "http://127.5.5.5", "http://[::1]:80"])
def test_load_test_accepts_loopback(url: str) -> None:
    assert check_loopback(url) == url.rstrip("/")


@pytest.mark.parametrize("endpoint", ["speech", "synthesize"])
def test_load_test_reports_percentiles_and_throughput(server: LiveServer, endpoint: str) -> None:
    result = run_load_test(server.url, concurrency=2, duration=1.0, endpoint=endpoint, max_requests=6,
                           texts=("你好。", "一个简短的测试。"), voice=VOICE)  # fmt: skip
    assert result["requests"] == result["ok"] > 0
    assert result["requests"] <= 6
    assert result["errors"] == {}
    for key in ("ttfa_ms", "latency_ms"):
        stats = result[key]
        assert 0 < stats["p50"] <= stats["p95"] <= stats["p99"] <= stats["max"]
    assert result["ttfa_ms"]["p50"] <= result["latency_ms"]["p50"]
    assert result["throughput"]["requests_per_s"] > 0 and result["throughput"]["audio_s_per_s"] > 0
    table = format_table(result)
    # (the label column's width depends on whether a steady window exists: timing-dependent)
    assert "time to first audio ms" in table and re.search(r"^errors +none$", table, re.M)


def test_load_test_reports_an_unreachable_server() -> None:
    with pytest.raises(LoadTestError, match="cannot list the voices"):
        run_load_test(f"http://127.0.0.1:{free_port()}", concurrency=1, duration=1.0)


def test_load_test_deals_every_text_before_repeating_one(gated) -> None:  # noqa: ANN001
    texts = tuple(f"第{n}句话。" for n in ("一", "二", "三", "四", "五", "六", "七"))
    with live_server(gated) as live:
        result = run_load_test(live.url, concurrency=3, duration=5.0, max_requests=7, texts=texts, voice=VOICE)
    assert result["ok"] == 7
    assert sorted(t for t in gated.started if t in texts) == sorted(texts)  # 7 requests, 7 different texts


def test_load_test_defaults_to_held_out_sentences() -> None:
    from onestep_dev.bench.load_test import LoadTestSettings, heldout_texts
    from onestep_dev.eval.heldout import load_heldout

    s = LoadTestSettings("http://127.0.0.1:1", concurrency=1, duration=1.0)
    assert s.texts == heldout_texts() and len(set(s.texts)) > 200
    assert set(s.texts) == {x.text for lang in ("en", "zh") for x in load_heldout(lang)}


# --- aac and bitrates (PyAV, the ``audio`` extra) -------------------------------------------------------------

NOISY = (TONE + 0.05 * np.random.default_rng(0).standard_normal(TONE.size)).astype(np.float32)  # bitrate shows


def _decoded_samples(data: bytes) -> tuple[str, int]:
    av = pytest.importorskip("av")
    with av.open(io.BytesIO(data)) as container:
        stream = container.streams.audio[0]
        return stream.codec_context.name, sum(frame.samples for frame in container.decode(stream))


def test_aac_streams_in_adts_frames_and_decodes() -> None:
    pytest.importorskip("av")
    assert "aac" in supported_formats()
    encoder = make_encoder("aac", RATE)
    assert encoder.media_type == "audio/aac"
    parts = [encoder.encode(NOISY[i : i + 2400]) for i in range(0, NOISY.size, 2400)] + [encoder.finish()]
    assert sum(1 for p in parts[:-1] if p) >= 5  # frames flow with the audio, not all at the end
    data = b"".join(parts)
    assert data[0] == 0xFF and data[1] & 0xF0 == 0xF0  # an ADTS sync word
    codec, samples = _decoded_samples(data)
    assert codec == "aac" and abs(samples - NOISY.size) <= 2048  # encoder priming and padding
    assert _decoded_samples(encode_file("aac", NOISY, RATE))[0] == "aac"


@pytest.mark.parametrize("fmt", ["mp3", "aac", "opus"])
def test_a_chosen_bitrate_sets_the_size(fmt: str) -> None:
    pytest.importorskip("av")
    low, high = (len(encode_file(fmt, NOISY, RATE, kbps)) for kbps in (24, 96))
    assert low < 0.6 * high
    assert low * 8 / 1000 < 24 * 1.5  # about what was asked, for 1 s of audio (container overhead aside)
    assert _decoded_samples(encode_file(fmt, NOISY, RATE, 24))[1] >= NOISY.size


@pytest.mark.parametrize(("fmt", "kbps", "message"), [("wav", 64, "applies to mp3, aac, opus"), ("mp3", 4, "8-320")])
def test_bitrate_is_checked(fmt: str, kbps: int, message: str) -> None:
    with pytest.raises(UnsupportedFormatError, match=message):
        encode_file(fmt, TONE, RATE, kbps)


@pytest.fixture
def without_pyav(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """As a plain install: PyAV cannot be imported (the format probes forget what they found)."""
    from onestep.runtime import encoders

    monkeypatch.setitem(sys.modules, "av", None)
    encoders._av_formats.cache_clear()
    encoders.supported_formats.cache_clear()
    yield
    encoders._av_formats.cache_clear()
    encoders.supported_formats.cache_clear()


@pytest.mark.usefixtures("without_pyav")
def test_without_pyav_the_plain_formats_work_and_aac_names_the_extra() -> None:
    assert "aac" not in supported_formats()
    for fmt in ("wav", "pcm", "flac"):
        assert encode_file(fmt, TONE, RATE)
    if "mp3" in supported_formats():
        assert encode_file("mp3", TONE, RATE)  # libsndfile's own mp3, default bitrate
    with pytest.raises(UnsupportedFormatError, match=re.escape("pip install 'onestep-tts[audio]'")):
        make_encoder("aac", RATE)
    with pytest.raises(UnsupportedFormatError, match=r"mp3 at a chosen bitrate needs PyAV.*onestep-tts\[audio\]"):
        encode_file("mp3", TONE, RATE, 96)


def test_http_aac_and_bitrate(server: LiveServer) -> None:
    import httpx

    pytest.importorskip("av")
    url = f"{server.url}/v1/audio/speech"
    body = {"model": "tts-1", "input": "你好，世界。", "voice": VOICE, "response_format": "aac"}
    response = httpx.post(url, json=body, timeout=60)
    assert response.status_code == 200 and response.headers["content-type"] == "audio/aac"
    assert _decoded_samples(response.content)[0] == "aac"
    small = httpx.post(url, json={**body, "response_format": "mp3", "bitrate": 16}, timeout=60)
    large = httpx.post(url, json={**body, "response_format": "mp3", "bitrate": 160}, timeout=60)
    assert small.status_code == large.status_code == 200 and len(small.content) < len(large.content)
    for bad in ({"response_format": "wav", "bitrate": 64}, {"bitrate": 1000}):
        refused = httpx.post(url, json={**body, **bad}, timeout=60)
        assert refused.status_code == 400 and refused.json()["error"]["param"] == "bitrate"
    whole = httpx.post(f"{server.url}/synthesize", json={"text": "你好。", "format": "aac", "bitrate": 48}, timeout=60)
    assert whole.status_code == 200 and _decoded_samples(whole.content)[0] == "aac"


@pytest.mark.usefixtures("without_pyav")
def test_http_aac_without_pyav_is_a_400_naming_the_extra(server: LiveServer) -> None:
    import httpx

    body = {"model": "tts-1", "input": "你好。", "voice": VOICE, "response_format": "aac"}
    response = httpx.post(f"{server.url}/v1/audio/speech", json=body, timeout=60)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["param"] == "response_format" and "pip install 'onestep-tts[audio]'" in error["message"]
    assert httpx.post(f"{server.url}/v1/audio/speech", json={**body, "response_format": "flac"}, timeout=60).status_code == 200
