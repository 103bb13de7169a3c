"""lab/tools/drop_vocoder_dc.py: a voice's vocoder re-exported without the iSTFT's 0 Hz bin, nothing else changed."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest
import torch

from onestep.config import VoiceConfig
from onestep.model.export import load_voice_models

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "tiny-voice"


def _script():  # noqa: ANN202
    spec = importlib.util.spec_from_file_location("drop_vocoder_dc", ROOT / "lab" / "tools" / "drop_vocoder_dc.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _vocode(path: Path, mel: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(str(path), providers=["CPUExecutionProvider"]).run(None, {"mel": mel})[0]


def test_vocoder_loses_only_its_dc_bin(tmp_path: Path) -> None:
    voice_dir = tmp_path / "tiny"
    shutil.copytree(FIXTURE, voice_dir)
    before, old_models = load_voice_models(voice_dir)
    assert not old_models.config.istft_drop_dc  # the fixture predates the field: it keeps DC

    assert _script().main([str(voice_dir), "--version", "9.9.9"]) == 0

    after, models = load_voice_models(voice_dir)
    assert after.version == "9.9.9" and models.config.istft_drop_dc
    for part in ("acoustic", "decoder"):  # untouched, byte for byte
        assert (voice_dir / f"{part}.onnx").read_bytes() == (FIXTURE / f"{part}.onnx").read_bytes()
    old_state, new_state = old_models.vocoder.state_dict(), models.vocoder.state_dict()
    assert all(torch.equal(old_state[k], new_state[k]) for k in old_state)  # same weights
    mel = np.random.default_rng(0).standard_normal((1, before.audio.n_mels, 40)).astype(np.float32) - 4.0
    with torch.no_grad():
        want = models.vocoder(torch.from_numpy(mel)).numpy()
    got = _vocode(voice_dir / "vocoder.onnx", mel)
    np.testing.assert_allclose(got, want, atol=1e-5)
    assert not np.allclose(got, _vocode(FIXTURE / "vocoder.onnx", mel), atol=1e-5)  # the DC bin is gone
    assert VoiceConfig.load(voice_dir / "voice.json").model.istft_drop_dc is True

    with pytest.raises(SystemExit, match="already"):
        _script().main([str(voice_dir), "--version", "9.9.10"])
