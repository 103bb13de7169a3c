"""INT8 vocoder derived from the tiny voice: the engine picks it up, streams it exactly, stays close to fp32."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from onestep.frontend.symbols import phonemes_to_ids
from onestep.model.quantize import (
    INT8_NAME,
    dequantize_matmul_weight,
    derive_int8_vocoder,
    float_state_dict,
    is_int8_graph,
    main,
    quantize_vocoder,
)
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


# --- one precision per network: the GPU engine's float weights derived from the INT8 graphs -------------------


def _int8_only(tiny_voice: Path, out: Path) -> Path:
    """The tiny voice as a voice ships: INT8 decoder and vocoder named by voice.json, no float twins."""
    assert main([str(tiny_voice), "--out", str(out), "--decoder", "--one-precision"]) == 0
    assert sorted(p.name for p in out.iterdir() if p.suffix == ".onnx") == ["acoustic.onnx", "decoder.int8.onnx", INT8_NAME]
    return out


def test_dequantizing_is_scale_times_q_minus_zero_point_along_the_output_columns() -> None:
    q = np.array([[-127, 0, 5], [127, -3, 1]], dtype=np.int8)  # [K=2, N=3]
    scale = np.array([0.5, 2.0, 0.25], dtype=np.float32)
    assert np.array_equal(dequantize_matmul_weight(q, scale), q.astype(np.float32) * scale[None, :])
    zero_point = np.array([1, -2, 0], dtype=np.int8)
    expected = np.array([[-64.0, 4.0, 1.25], [63.0, -2.0, 0.25]], dtype=np.float32)
    assert np.array_equal(dequantize_matmul_weight(q, scale, zero_point), expected)
    assert np.array_equal(dequantize_matmul_weight(q, np.float32(0.5), 1), (q.astype(np.float32) - 1) * 0.5)
    with pytest.raises(ValueError, match="output columns"):
        dequantize_matmul_weight(q, np.ones(2, dtype=np.float32))  # per row is not how the graphs quantize


def test_float_state_dict_of_an_int8_graph_restores_every_parameter(tiny_voice: Path, tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    voice = tmp_path / "dec"
    derive_int8_vocoder(tiny_voice, voice, decoder=True)
    for name in ("decoder", "vocoder"):
        float_model, int8_model = onnx.load(str(voice / f"{name}.onnx")), onnx.load(str(voice / f"{name}.int8.onnx"))
        assert not is_int8_graph(float_model) and is_int8_graph(int8_model)
        reference, derived = float_state_dict(float_model), float_state_dict(int8_model)
        assert set(derived) == set(reference)
        arrays = {i.name: numpy_helper.to_array(i) for i in int8_model.graph.initializer}
        dequantized = set()
        for node in (n for n in int8_model.graph.node if n.op_type == "MatMulIntegerToFloat"):
            q, scale = arrays[node.input[1]], arrays[node.input[3].removesuffix("::float")]
            assert q.dtype == np.int8 and scale.shape == (q.shape[1],)  # one scale per output column
            key = node.input[1].removesuffix("/int8/weight").strip("/").replace("/", ".") + ".weight"
            assert np.array_equal(derived[key], (scale[None, :] * q.astype(np.float32)).T)  # Linear: [N, K]
            assert np.all(np.abs(derived[key] - reference[key]) <= scale[:, None] / 2 + 1e-6)  # half a step
            dequantized.add(key)
        assert dequantized and all("pwconv" in key for key in dequantized)
        for key in set(reference) - dequantized:  # the rewritten input convolution, norms, depthwise: exact
            assert np.array_equal(derived[key], reference[key]), key


def test_the_gpu_engine_builds_its_networks_from_int8_graphs_alone(tiny_voice: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from onestep.model.export import load_voice_models
    from onestep.runtime.cuda_engine import CudaEngine, CudaSettings

    voice = _int8_only(tiny_voice, tmp_path / "shipped")
    config, models = load_voice_models(voice)
    assert config.files["vocoder"] == INT8_NAME
    cpu = OrtEngine(voice)
    assert (cpu.decoder_file.name, cpu.vocoder_file.name) == ("decoder.int8.onnx", INT8_NAME)
    settings = CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, batch_sizes=(1,))
    dequantized = CudaEngine(voice, settings, warmup=False).synthesize(SENTENCE)
    float_weights = CudaEngine(tiny_voice, settings, warmup=False).synthesize(SENTENCE)
    assert np.array_equal(dequantized.frames_per_id, float_weights.frames_per_id)  # acoustic.onnx ships as float
    rms = lambda a: np.sqrt(np.mean(a**2))  # noqa: E731
    assert 0 < rms(dequantized.audio - float_weights.audio) / rms(float_weights.audio) <= RELATIVE_RMS


def test_the_shipped_voice_holds_int8_graphs_the_gpu_engine_can_build_from() -> None:
    pytest.importorskip("torch")
    from onestep.model.export import load_voice_models
    from onestep.runtime.voices import PACKAGE_VOICES

    voice = PACKAGE_VOICES / "multispeaker"
    config, models = load_voice_models(voice)
    assert {config.files["decoder"], config.files["vocoder"]} == {"decoder.int8.onnx", INT8_NAME}
    assert not (voice / "decoder.onnx").exists() and not (voice / "vocoder.onnx").exists()
    counts = models.parameter_counts()
    assert counts["decoder"] > 1_000_000 and counts["vocoder"] > 1_000_000
