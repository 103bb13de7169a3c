"""ONNX export: contract names/shapes, weights recoverable by name, ORT = PyTorch, the checked-in fixture."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch

from onestep.config import ConfigError, VoiceConfig
from onestep.model.acoustic import length_regulate
from onestep.model_config import TINY
from onestep.model.export import (
    export_voice,
    load_state_dict_from_onnx,
    load_voice_models,
)
from onestep.model.voice_models import PARTS, VoiceModels, build_models

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "tiny-voice"
ATOL = 1e-4  # ORT vs PyTorch, float32


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, VoiceModels, VoiceConfig]:
    torch.set_num_threads(1)
    models = build_models(TINY, seed=3).eval()
    out = tmp_path_factory.mktemp("voice")
    written = export_voice(models, VoiceConfig(name="t", language="zh", placeholder=True), out)
    return out, models, written


def test_written_config(exported: tuple[Path, VoiceModels, VoiceConfig]) -> None:
    out, _, written = exported
    loaded = VoiceConfig.load(out / "voice.json")
    assert loaded == written
    assert loaded.vocoder_context == TINY.vocoder_context and loaded.hidden_dim == TINY.acoustic_dim
    assert loaded.model == TINY


def test_graph_signatures(exported: tuple[Path, VoiceModels, VoiceConfig]) -> None:
    out = exported[0]
    expected = {
        "acoustic": (["phoneme_ids", "phoneme_mask"], ["durations", "hidden"]),
        "decoder": (["frames", "frame_mask"], ["mel"]),
        "vocoder": (["mel"], ["audio"]),
    }
    for part, (inputs, outputs) in expected.items():
        graph = onnx.load(str(out / f"{part}.onnx"))
        assert graph.opset_import[0].version == 17
        assert [i.name for i in graph.graph.input] == inputs
        assert [o.name for o in graph.graph.output] == outputs
        for value in graph.graph.input:
            assert value.type.tensor_type.shape.dim[0].dim_param  # dynamic batch


def test_state_dict_round_trip_is_exact(exported: tuple[Path, VoiceModels, VoiceConfig]) -> None:
    out, models, _ = exported
    for part in PARTS:
        reference = getattr(models, part).state_dict()
        recovered = load_state_dict_from_onnx(out / f"{part}.onnx")
        assert set(recovered) == set(reference)
        for name, value in reference.items():
            assert torch.equal(recovered[name], value), name
    _, rebuilt = load_voice_models(out)
    for part in PARTS:
        rebuilt_state = getattr(rebuilt, part).state_dict()
        assert all(torch.equal(rebuilt_state[k], v) for k, v in getattr(models, part).state_dict().items())


def test_onnx_runtime_matches_pytorch_with_other_shapes(exported: tuple[Path, VoiceModels, VoiceConfig]) -> None:
    out, m, _ = exported
    sessions = {p: ort.InferenceSession(str(out / f"{p}.onnx"), providers=["CPUExecutionProvider"]) for p in PARTS}
    ids = torch.randint(1, 178, (2, 32))
    mask = torch.ones(2, 32)
    mask[1, 20:] = 0
    durations, hidden = sessions["acoustic"].run(None, {"phoneme_ids": ids.numpy(), "phoneme_mask": mask.numpy()})
    ref_d, ref_h = m.acoustic(ids, mask)
    np.testing.assert_allclose(durations, ref_d.detach().numpy(), atol=ATOL)
    np.testing.assert_allclose(hidden, ref_h.detach().numpy(), atol=ATOL)
    frames, frame_mask = length_regulate(ref_h, torch.round(ref_d).long(), 128)
    (mel,) = sessions["decoder"].run(None, {"frames": frames.detach().numpy(), "frame_mask": frame_mask.numpy()})
    np.testing.assert_allclose(mel, m.decoder(frames, frame_mask).detach().numpy(), atol=ATOL)
    (audio,) = sessions["vocoder"].run(None, {"mel": mel})
    assert audio.shape == (2, 128 * TINY.hop_length)
    np.testing.assert_allclose(audio, m.vocoder(torch.from_numpy(mel)).detach().numpy(), atol=ATOL)


def test_export_rejects_mismatched_audio_config(tmp_path: Path) -> None:
    from onestep.config import AudioConfig

    voice = VoiceConfig(name="t", language="en", audio=AudioConfig(hop_length=256, n_fft=1024, win_length=1024))
    with pytest.raises(ConfigError, match="hop"):
        export_voice(build_models(TINY), voice, tmp_path)


def test_checked_in_fixture_matches_the_code() -> None:
    """tests/fixtures/tiny-voice is what scripts/make_tiny_voice.py makes today (rerun it if this fails)."""
    voice, models = load_voice_models(FIXTURE)
    assert voice.placeholder and voice.language == "en"
    assert sum(p.stat().st_size for p in FIXTURE.iterdir()) < 2_000_000
    fresh = build_models(TINY, seed=1234)
    for part in PARTS:
        got, want = getattr(models, part).state_dict(), getattr(fresh, part).state_dict()
        # the same initialisation; torch builds round the random init differently in the last bit (~4e-9)
        assert set(got) == set(want) and all(torch.allclose(got[k], want[k], rtol=0, atol=1e-6) for k in want), part
