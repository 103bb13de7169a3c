"""``onestep say`` / ``voices`` / ``doctor`` through ``onestep.cli.main`` on the tiny random voice."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile

from onestep.cli import main

FIXTURES = Path(__file__).resolve().parent / "fixtures"




pytestmark = pytest.mark.usefixtures("only_fixture_voices")


def say(*args: str) -> int:
    return main(["say", *args, "--voices-dir", str(FIXTURES)])


def test_text_to_wav_file(tmp_path: Path) -> None:
    out = tmp_path / "hello.wav"
    assert say("Hello world.", "-o", str(out)) == 0
    samples, rate = soundfile.read(str(out), dtype="float32")
    assert rate == 24000 and samples.size > 0
    assert soundfile.info(str(out)).subtype == "PCM_16"


def test_stdin_to_raw_pcm_on_stdout(monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("Hello world."))
    assert say("-o", "-") == 0
    pcm = capsysbinary.readouterr().out
    assert len(pcm) > 0 and len(pcm) % 2 == 0


def test_stdout_pcm_equals_the_wav_samples(tmp_path: Path, capsysbinary: pytest.CaptureFixture) -> None:
    assert say("Testing the stream.", "-o", "-") == 0
    streamed = np.frombuffer(capsysbinary.readouterr().out, dtype="<i2")
    assert say("Testing the stream.", "-o", str(tmp_path / "a.wav")) == 0
    wav, _ = soundfile.read(str(tmp_path / "a.wav"), dtype="int16")
    assert streamed.shape == wav.shape
    assert np.abs(streamed.astype(int) - wav.astype(int)).max() <= 1  # 16-bit rounding of float noise


def test_batch_writes_one_numbered_file_per_non_empty_line(tmp_path: Path) -> None:
    lines = tmp_path / "lines.txt"
    lines.write_text("First line.\n\n   \nSecond line.\nThird.\n", encoding="utf-8")
    out_dir = tmp_path / "wavs"
    assert say("--input", str(lines), "--out-dir", str(out_dir), "--speed", "1.5") == 0
    assert sorted(p.name for p in out_dir.iterdir()) == ["0001.wav", "0002.wav", "0003.wav"]
    assert soundfile.info(str(out_dir / "0003.wav")).frames < soundfile.info(str(out_dir / "0002.wav")).frames


def test_batch_with_an_unspeakable_line_writes_the_others_and_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    lines = tmp_path / "lines.txt"
    lines.write_text("First line.\n★ ☆\nThird.\n", encoding="utf-8")
    out_dir = tmp_path / "wavs"
    assert say("--input", str(lines), "--out-dir", str(out_dir)) == 1
    assert sorted(p.name for p in out_dir.iterdir()) == ["0001.wav", "0003.wav"]
    assert "lines [2] had nothing to speak" in capsys.readouterr().err


def test_batch_with_timestamps_writes_one_file_per_line_beside_its_audio(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    lines = tmp_path / "lines.txt"
    lines.write_text("First line.\nSecond line. And more.\n", encoding="utf-8")
    out_dir = tmp_path / "d"
    assert say("--input", str(lines), "--out-dir", str(out_dir), "--timestamps", "x.srt", "--captions", "sentences") == 0
    assert sorted(p.name for p in out_dir.iterdir()) == ["0001.srt", "0001.wav", "0002.srt", "0002.wav"]
    assert "\nSecond line. And more.\n" in (out_dir / "0002.srt").read_text(encoding="utf-8")  # sentence cues
    assert "2 .srt timestamp files" in capsys.readouterr().err
    assert say("--input", str(lines), "--out-dir", str(out_dir), "--timestamps", "x.txt") == 2


@pytest.mark.parametrize(("fmt", "kind"), [("ogg", "OGG"), ("opus", "OGG"), ("flac", "FLAC"), ("wav", "WAV"), ("raw", None)])
def test_format_takes_every_container_name(tmp_path: Path, fmt: str, kind: str | None) -> None:
    out = tmp_path / "h.x"
    assert say("Hello.", "--format", fmt, "-o", str(out)) == 0
    if kind is None:
        assert out.stat().st_size % 2 == 0 and out.read_bytes()[:4] != b"RIFF"
    else:
        assert soundfile.info(str(out)).format == kind


def test_aac_and_a_bitrate(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    av = pytest.importorskip("av")
    assert say("Hello.", "-o", str(tmp_path / "h.aac")) == 0
    assert say("Hello.", "--format", "aac", "--bitrate", "32", "-o", str(tmp_path / "h.x")) == 0
    for name in ("h.aac", "h.x"):
        with av.open(str(tmp_path / name)) as container:
            assert container.streams.audio[0].codec_context.name == "aac"
    assert say("Hello.", "--bitrate", "64", "-o", str(tmp_path / "h.wav")) == 2
    assert "bitrate applies to mp3, aac, opus" in capsys.readouterr().err


def test_aac_without_pyav_names_the_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    from onestep.runtime import encoders

    monkeypatch.setitem(sys.modules, "av", None)  # a plain install
    encoders._av_formats.cache_clear()
    try:
        assert say("Hello.", "-o", str(tmp_path / "h.aac")) == 2
        assert "pip install 'onestep-tts[audio]'" in capsys.readouterr().err
        assert not (tmp_path / "h.aac").exists()
        assert say("Hello.", "-o", str(tmp_path / "h.flac")) == 0
    finally:
        encoders._av_formats.cache_clear()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("Hello.", "-o", "x.wav", "--speed", "2.5"), "--speed must be between"),
        (("Hello.", "-o", "x.wav", "--speed", "0.4"), "--speed must be between"),
        (("Hello.", "-o", "x.wav", "--voice", "nobody"), "unknown voice 'nobody'; available voices: tiny"),
        (("Hello.",), "no output"),
        (("   ", "-o", "x.wav"), "no text to speak"),
        (("--input", "lines.txt"), "needs both"),
        (("Hello.", "-o", "x.wav", "--threads", "0"), "--threads"),
        (("!!!", "-o", "x.wav"), "nothing to speak"),
        (("Hello.", "-o", "x.wav", "--lexicon", "bad.json"), "entry 'bad'"),
    ],
)
def test_user_errors_exit_2_with_a_message(
    args: tuple[str, ...], message: str, capsys: pytest.CaptureFixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text('{"bad": 1}')
    assert say(*args) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "x.wav").exists()


def test_voice_given_as_a_directory_path(tmp_path: Path) -> None:
    out = tmp_path / "p.wav"
    assert say("Hello.", "-o", str(out), "--voice", str(FIXTURES / "tiny-voice")) == 0
    assert out.exists()


def test_voices_json(capsys: pytest.CaptureFixture) -> None:
    assert main(["voices", "--voices-dir", str(FIXTURES), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert [(v["name"], v["language"], v["placeholder"]) for v in listing["voices"]] == [("tiny", "en", True)]


def test_voices_table(capsys: pytest.CaptureFixture) -> None:
    assert main(["voices", "--voices-dir", str(FIXTURES)]) == 0
    assert "tiny" in capsys.readouterr().out


def test_voices_table_quality_is_student_over_teacher() -> None:
    from onestep.commands.voices import quality_text

    quality = {
        "en": {"wer": 2.44, "teacher_wer": 2.27, "dnsmos_ovrl": 3.11, "teacher_dnsmos_ovrl": 3.236, "lines": 112},
        "zh": {"cer": 25.91},
        "code_switch": {"english_words_heard": 65.31, "teacher": 69.39, "words": 49},
    }
    assert quality_text(quality) == "en WER 2.4/2.3 OVRL 3.11/3.24; zh CER 25.9; code_switch 65 %/69 %"
    assert quality_text({}) == ""


def test_doctor_reports_runtime_voices_and_fixes(capsys: pytest.CaptureFixture) -> None:
    code = main(["doctor", "--voices-dir", str(FIXTURES), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == (0 if report["ok"] else 1)
    assert report["facts"]["system"]["onnxruntime"]
    (voice,) = report["voices"]
    assert voice["name"] == "tiny" and voice["load_s"] >= 0 and voice["warmup_s"] >= 0
    assert any("placeholder" in message for _, message in report["fixes"])


def test_doctor_without_voices_says_what_to_fix(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert main(["doctor", "--voices-dir", str(tmp_path), "--no-load"]) == 1
    assert "no voices found" in capsys.readouterr().out


def test_doctor_checks_the_optional_pieces(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    from onestep.runtime.encoders import supported_formats

    monkeypatch.setitem(sys.modules, "websockets", None)  # as if not installed
    main(["doctor", "--voices-dir", str(FIXTURES), "--no-load", "--json"])
    report = json.loads(capsys.readouterr().out)
    optional = report["facts"]["optional"]
    for fmt in ("mp3", "opus", "flac"):
        assert optional[f"{fmt} encoding"] == (fmt in supported_formats())
    assert optional["soxr"] == "installed"
    assert optional["websockets"].startswith("missing")
    assert any("websockets is missing" in m and "pip install 'onestep-tts[server]'" in m for _, m in report["fixes"])


def test_doctor_hints_name_the_extra_that_installs_each_module(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    import re
    import tomllib

    from onestep.commands.doctor import OPTIONAL_MODULES

    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    dev = tomllib.loads((root / "dev" / "pyproject.toml").read_text(encoding="utf-8"))["project"]  # ./dev[...]
    name = lambda requirement: re.match(r"[A-Za-z0-9._-]+", requirement).group(0).lower()  # noqa: E731
    base = {name(r) for r in project["dependencies"]}
    for module, _, hint in OPTIONAL_MODULES:
        extra = re.search(r"(onestep-tts|\./dev)\[(\w+)\]", hint)
        if extra is None:
            assert hint == f"pip install {module}" and module in base, hint
        else:
            extras = (project if extra.group(1) == "onestep-tts" else dev)["optional-dependencies"]
            assert module in {name(r) for r in extras[extra.group(2)]}, hint
    hidden = {"matplotlib", "av"}
    real_find_spec = __import__("importlib.util").util.find_spec
    monkeypatch.setattr("importlib.util.find_spec", lambda m, *a: None if m in hidden else real_find_spec(m, *a))
    monkeypatch.setenv("COLUMNS", "400")  # no wrapping inside the table's cells
    main(["doctor", "--voices-dir", str(FIXTURES), "--no-load"])
    out = " ".join(capsys.readouterr().out.split())
    assert "pip install './dev[bench]'" in out and "pip install 'onestep-tts[audio]'" in out  # not eaten as markup
    assert "physical cores" in out and not re.search(r"physical cores\W+None", out)


def test_doctor_counts_physical_cores_without_psutil(monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep.commands.doctor import physical_cores

    if not Path("/proc/cpuinfo").exists():
        pytest.skip("no /proc/cpuinfo here")
    with_psutil = physical_cores()
    monkeypatch.setitem(sys.modules, "psutil", None)  # as in a plain install
    assert physical_cores() == with_psutil and with_psutil >= 1
