"""CudaEngine's logic run eagerly on the CPU (fp32, no CUDA graphs) against OrtEngine; graphs only on a GPU."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from onestep.config import ConfigError  # noqa: E402
from onestep.frontend.symbols import phonemes_to_ids  # noqa: E402
from onestep.runtime.cuda_engine import CudaEngine, CudaSettings, frames_per_id  # noqa: E402
from onestep.runtime.ort_engine import OrtEngine  # noqa: E402
from onestep.runtime.regulate import frames_per_id as frames_per_id_np  # noqa: E402

SENTENCE = phonemes_to_ids("həlˈO wˈɜɹld, ðɪs ɪz ə tˈɛst.")
MEDIUM = phonemes_to_ids("ðə kwˈɪk bɹˈaʊn fˈɒks dʒˈʌmps ˈəʊvə ðə lˈeɪzi dˈɒɡ. " * 2)
LONG = phonemes_to_ids("ðə kwˈɪk bɹˈaʊn fˈɒks dʒˈʌmps ˈəʊvə ðə lˈeɪzi dˈɒɡ. " * 8)  # > largest frame bucket
CPU_TOLERANCE = 1e-5  # same fp32 networks, torch vs ONNX Runtime kernels


@pytest.fixture(scope="module")
def cpu_engine(tiny_voice) -> CudaEngine:
    return CudaEngine(tiny_voice, CudaSettings(device="cpu", dtype="fp32", cuda_graphs=False, batch_sizes=(1, 2, 4)))


@pytest.mark.parametrize(("ids", "speed"), [(SENTENCE, 1.0), (SENTENCE, 2.0), (MEDIUM, 1.0), (LONG, 0.5)])
def test_matches_the_onnx_engine(cpu_engine: CudaEngine, engine: OrtEngine, ids, speed) -> None:
    gpu_logic, onnx = cpu_engine.synthesize(ids, speed), engine.synthesize(ids, speed)
    assert np.array_equal(gpu_logic.frames_per_id, onnx.frames_per_id)
    assert gpu_logic.audio.shape == onnx.audio.shape
    assert np.abs(gpu_logic.audio - onnx.audio).max() <= CPU_TOLERANCE


def test_batches_are_padded_and_split_across_batch_sizes(cpu_engine: CudaEngine, engine: OrtEngine) -> None:
    batch = [SENTENCE, MEDIUM, SENTENCE[:6] + [0], MEDIUM, SENTENCE]  # 5 > largest batch size 4: split 4 + 1
    for ids, result in zip(batch, cpu_engine.synthesize_batch(batch), strict=True):
        alone = engine.synthesize(ids)
        assert np.array_equal(result.frames_per_id, alone.frames_per_id)
        assert np.abs(result.audio - alone.audio).max() <= CPU_TOLERANCE


def test_stream_cuts_the_one_shot_audio(cpu_engine: CudaEngine) -> None:
    one_shot = cpu_engine.synthesize(MEDIUM)
    chunks = list(cpu_engine.stream(MEDIUM).chunks)
    hop = cpu_engine.hop
    assert chunks[0].size == cpu_engine.stream_settings.first_chunk_frames * hop
    assert np.array_equal(np.concatenate(chunks), one_shot.audio)


def test_rounding_rule_matches_numpy() -> None:
    rng = np.random.default_rng(0)
    durations = rng.uniform(-1, 12, size=(3, 40)).astype(np.float32)
    durations[:, ::7] = 2.5  # exact halves: both round to even
    mask = (np.arange(40)[None, :] < np.array([[40], [23], [5]])).astype(np.float32)
    for speed in (0.5, 1.0, 1.7, 2.0):
        ours = frames_per_id(torch.from_numpy(durations), torch.from_numpy(mask), torch.full((3,), speed))
        assert np.array_equal(ours.long().numpy(), frames_per_id_np(durations, mask, speed))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"dtype": "int8"}, "dtype"),
        ({"batch_sizes": (4, 2)}, "batch_sizes"),
        ({"batch_sizes": ()}, "batch_sizes"),
        ({"device": "cpu", "cuda_graphs": True}, "cuda device"),
    ],
)
def test_settings_are_validated(kwargs, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        CudaSettings(**kwargs)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("dtype", ["fp32", "fp16", "bf16"])
def test_cuda_graphs_match_the_onnx_engine_on_a_gpu(tiny_voice, engine: OrtEngine, dtype: str) -> None:
    gpu = CudaEngine(tiny_voice, CudaSettings(dtype=dtype, batch_sizes=(1, 4)))
    tolerance = {"fp32": 1e-4, "fp16": 0.05, "bf16": 0.15}[dtype]
    batch = [SENTENCE, MEDIUM, LONG, SENTENCE]
    for ids, result in zip(batch, gpu.synthesize_batch(batch), strict=True):
        onnx = engine.synthesize(ids)
        if np.array_equal(result.frames_per_id, onnx.frames_per_id):  # reduced precision may move a rounding
            assert np.abs(result.audio - onnx.audio).max() <= tolerance
        assert abs(int(result.frames_per_id.sum()) - int(onnx.frames_per_id.sum())) <= len(ids) // 10 + 1


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_graph_replays_in_any_order_equal_eager_runs(tiny_voice) -> None:
    settings = CudaSettings(dtype="fp16", batch_sizes=(1, 2))
    graphs = CudaEngine(tiny_voice, settings)
    eager = CudaEngine(tiny_voice, CudaSettings(dtype="fp16", batch_sizes=(1, 2), cuda_graphs=False))
    order = [[LONG], [SENTENCE, MEDIUM], [MEDIUM], [SENTENCE], [MEDIUM, LONG], [SENTENCE]]  # not capture order
    for batch in order + order[::-1]:
        for got, want in zip(graphs.synthesize_batch(batch), eager.synthesize_batch(batch), strict=True):
            assert np.array_equal(got.frames_per_id, want.frames_per_id)
            assert np.abs(got.audio - want.audio).max() <= 1e-3
