"""INT8 vocoder derived from the tiny voice: the engine picks it up, streams it exactly, stays close to fp32."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from onestep.frontend.symbols import phonemes_to_ids
from onestep.model.quantize import INT8_NAME, derive_int8_vocoder, main, quantize_vocoder
from onestep.runtime.ort_engine import OrtEngine, OrtSettings

SENTENCE = phonemes_to_ids("ðə kwˈɪk bɹˈaʊn fˈɒks dʒˈʌmps ˈəʊvə ðə lˈeɪzi dˈɒɡ. " * 3)
RELATIVE_RMS = 0.03  # |int8 - fp32| rms / fp32 rms on the tiny random voice (measured 0.0074)


@pytest.fixture(scope="module")
def int8_voice(tiny_voice: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("int8") / "tiny-int8"
    assert derive_int8_vocoder(tiny_voice, out) == out / INT8_NAME
    return out


def test_derived_directory_is_a_voice_that_uses_the_int8_vocoder(tiny_voice: Path, int8_voice: Path) -> None:
    assert sorted(p.name for p in int8_voice.iterdir()) == sorted([*(p.name for p in tiny_voice.iterdir()), INT8_NAME])
    assert OrtEngine(int8_voice, warmup=False).vocoder_file.name == INT8_NAME
    assert OrtEngine(int8_voice, OrtSettings(int8=False), warmup=False).vocoder_file.name == "vocoder.onnx"
    assert OrtEngine(tiny_voice, warmup=False).vocoder_file.name == "vocoder.onnx"  # works without it


@pytest.mark.parametrize(("threads", "speed"), [(1, 1.0), (2, 1.0), (2, 0.6)])
def test_int8_stream_equals_one_shot_exactly(int8_voice: Path, threads: int, speed: float) -> None:
    engine = OrtEngine(int8_voice, OrtSettings(threads=threads))
    one_shot = engine.synthesize(SENTENCE, speed).audio
    assert np.array_equal(np.concatenate(list(engine.stream(SENTENCE, speed).chunks)), one_shot)
    batch = engine.synthesize_batch([SENTENCE[:20] + [0], SENTENCE], speed)
    assert np.array_equal(batch[1].audio, one_shot)  # per-frame scales: the batch does not change a voice


def test_int8_audio_stays_close_to_fp32(int8_voice: Path) -> None:
    int8 = OrtEngine(int8_voice).synthesize(SENTENCE).audio
    fp32 = OrtEngine(int8_voice, OrtSettings(int8=False)).synthesize(SENTENCE).audio
    assert int8.shape == fp32.shape
    assert 0 < np.sqrt(np.mean((int8 - fp32) ** 2) / np.mean(fp32**2)) <= RELATIVE_RMS


def test_int8_graph_is_smaller_and_only_the_pointwise_layers_change(tiny_voice: Path, tmp_path: Path) -> None:
    report = quantize_vocoder(tiny_voice / "vocoder.onnx", tmp_path / INT8_NAME)
    assert report.output_bytes < report.source_bytes
    assert report.layers and all("pwconv" in name for name in report.layers)
    with_head = quantize_vocoder(tiny_voice / "vocoder.onnx", tmp_path / "head.onnx", include_head=True)
    assert [n for n in with_head.layers if n not in report.layers] == ["/head/MatMul"]


def test_quantizing_a_graph_without_pointwise_layers_is_a_clear_error(tiny_voice: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no pointwise MatMul"):
        quantize_vocoder(tiny_voice / "acoustic.onnx", tmp_path / "x.onnx")


def test_command_line_writes_next_to_the_voice(voice_copy, capsys: pytest.CaptureFixture[str]) -> None:
    voice = voice_copy("cli")
    assert main([str(voice)]) == 0
    assert (voice / INT8_NAME).is_file()
    assert "wrote" in capsys.readouterr().out


def test_fp16_weights_need_another_directory(tiny_voice: Path, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="out_dir other than"):
        derive_int8_vocoder(tiny_voice, tiny_voice, fp16_weights=True)
    derive_int8_vocoder(tiny_voice, tmp_path / "v", fp16_weights=True)  # random weights: stay float32
    assert OrtEngine(tmp_path / "v").synthesize(SENTENCE).audio.size


def test_opt_in_int8_decoder_streams_exactly_and_stays_close(tiny_voice: Path, tmp_path: Path) -> None:
    voice = tmp_path / "dec"
    derive_int8_vocoder(tiny_voice, voice, decoder=True)
    engine = OrtEngine(voice, OrtSettings(threads=2))
    assert engine.decoder_file.name == "decoder.int8.onnx" and engine.vocoder_file.name == INT8_NAME
    one_shot = engine.synthesize(SENTENCE).audio
    assert np.array_equal(np.concatenate(list(engine.stream(SENTENCE).chunks)), one_shot)
    fp32 = OrtEngine(voice, OrtSettings(int8=False)).synthesize(SENTENCE).audio
    assert np.sqrt(np.mean((one_shot - fp32) ** 2) / np.mean(fp32**2)) <= 2 * RELATIVE_RMS
