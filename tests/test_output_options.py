"""Output options (sample rate, gain, format) through the Python API and ``onestep say`` on the tiny voice."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
import soundfile

from onestep import TTS
from onestep.cli import main
from onestep.runtime.encoders import supported_formats

FIXTURES = Path(__file__).resolve().parent / "fixtures"
TEXT = "你好，世界。这是第二句话。"

pytestmark = pytest.mark.usefixtures("only_fixture_voices")


@pytest.fixture(scope="module")
def tts() -> TTS:
    return TTS(voice="tiny", voices_dir=[FIXTURES], threads=1)


@pytest.mark.parametrize("rate", [8000, 22050, 48000])
def test_api_stream_equals_synthesize_at_every_rate(tts: TTS, rate: int) -> None:
    native = tts.synthesize(TEXT)
    audio = tts.synthesize(TEXT, sample_rate=rate)
    assert audio.sample_rate == rate
    assert audio.samples.size == round(native.samples.size * rate / 24000)
    chunks = list(tts.stream(TEXT, sample_rate=rate))
    assert {c.sample_rate for c in chunks} == {rate}
    streamed = np.concatenate([c.samples for c in chunks])
    assert streamed.size == audio.samples.size
    assert np.abs(streamed - audio.samples).max() < 1e-4  # stated tolerance: streamed == one-shot
    assert audio.words and audio.words[-1].end == native.words[-1].end  # timings stay in seconds


def test_api_gain_is_in_db_and_never_clips(tts: TTS) -> None:
    native = tts.synthesize(TEXT)
    quieter = tts.synthesize(TEXT, gain_db=-12.0)
    np.testing.assert_allclose(quieter.samples, native.samples * 10 ** (-12 / 20), rtol=1e-5, atol=1e-7)
    louder = tts.synthesize(TEXT, gain_db=24.0)
    assert np.abs(louder.samples).max() < 1.0


def test_api_rejects_bad_options(tts: TTS) -> None:
    with pytest.raises(ValueError, match="sample_rate must be one of"):
        tts.synthesize(TEXT, sample_rate=12345)
    with pytest.raises(ValueError, match="gain_db"):
        tts.stream(TEXT, gain_db=99)


@pytest.mark.parametrize(("name", "container"), [("a.mp3", "MP3"), ("a.ogg", "OGG"), ("a.flac", "FLAC"), ("a.wav", "WAV")])
def test_cli_format_by_extension_through_the_server_encoders(tmp_path: Path, name: str, container: str) -> None:
    fmt = {"a.ogg": "opus"}.get(name, name[2:])
    if fmt not in supported_formats():
        pytest.skip(f"this libsndfile does not encode {fmt}")
    out = tmp_path / name
    assert main(["say", TEXT, "-o", str(out), "--voices-dir", str(FIXTURES), "--sample-rate", "16000"]) == 0
    info = soundfile.info(str(out))
    assert info.format == container and info.samplerate == 16000 and info.duration > 0.5


def test_cli_format_option_overrides_the_extension(tmp_path: Path) -> None:
    out = tmp_path / "speech.bin.wav"
    assert main(["say", TEXT, "-o", str(out), "--voices-dir", str(FIXTURES), "--format", "flac"]) == 0
    assert soundfile.info(str(out)).format == "FLAC"


def test_cli_raw_pcm_on_stdout_at_the_chosen_rate_and_gain(
    tts: TTS, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(TEXT))
    assert main(["say", "-o", "-", "--voices-dir", str(FIXTURES), "--sample-rate", "8000", "--gain", "-6"]) == 0
    pcm = np.frombuffer(capsysbinary.readouterr().out, dtype="<i2")
    expected = tts.synthesize(TEXT, sample_rate=8000, gain_db=-6)
    assert pcm.size == expected.samples.size
    assert np.abs(pcm / 32767 - expected.samples).max() < 2e-4


def test_cli_bad_output_options_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["say", TEXT, "-o", str(tmp_path / "a.xyz"), "--voices-dir", str(FIXTURES)]) == 2
    assert "cannot tell the audio format" in capsys.readouterr().err
    assert main(["say", TEXT, "-o", str(tmp_path / "a.wav"), "--voices-dir", str(FIXTURES), "--gain", "99"]) == 2
    assert "gain_db must be between" in capsys.readouterr().err
    assert main(["say", TEXT, "-o", str(tmp_path / "a.ogg"), "--voices-dir", str(FIXTURES), "--sample-rate", "44100"]) == 2
    assert "opus cannot carry 44100 Hz" in capsys.readouterr().err


@pytest.mark.parametrize("suffix", ["json", "srt", "vtt"])
def test_cli_timestamps_files(tmp_path: Path, tts: TTS, suffix: str) -> None:
    import json

    text = "我有3个苹果。"
    stamps = tmp_path / f"words.{suffix}"
    assert main(["say", text, "-o", str(tmp_path / "a.wav"), "--voices-dir", str(FIXTURES), "--timestamps", str(stamps)]) == 0
    content = stamps.read_text(encoding="utf-8")
    words = tts.synthesize(text).words
    if suffix == "json":
        data = json.loads(content)
        assert [w["text"] for w in data["words"]] == ["我", "有", "3个", "苹果"]
        assert all(text[w["char_start"] : w["char_end"]] == w["text"] for w in data["words"])
    elif suffix == "srt":
        assert content.startswith("1\n00:00:00,") and "\n3个\n" in content and content.count(" --> ") == len(words)
    else:
        assert content.startswith("WEBVTT\n\n00:00:00.") and content.count(" --> ") == len(words)


def test_cli_rejects_an_unknown_timestamps_extension(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    args = ["say", TEXT, "-o", str(tmp_path / "a.wav"), "--voices-dir", str(FIXTURES), "--timestamps", "w.txt"]
    assert main(args) == 2
    assert ".json, .srt or .vtt" in capsys.readouterr().err
