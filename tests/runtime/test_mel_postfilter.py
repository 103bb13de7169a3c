"""The per-voice mel postfilter: the readout from speaker vectors, the filter itself, and both engines."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from onestep.config import ConfigError
from onestep.frontend.symbols import phonemes_to_ids
from onestep.runtime import ort_engine
from onestep.model.mel_box import box_difference
from onestep.runtime.mel_postfilter import MelPostfilter
from onestep.runtime.ort_engine import OrtEngine

TINY_MULTI = Path(__file__).resolve().parents[1] / "fixtures" / "multi" / "tiny-multi"
IDS = phonemes_to_ids("həlˈO wˈɜɹld, ðɪs ɪz ə tˈɛst.")
SHARPENED, PLAIN = "tiny-en-m", "tiny-zh-f"


def _table(rows: int = 6, dim: int = 8) -> np.ndarray:
    return np.random.default_rng(0).normal(size=(rows, dim)).astype(np.float32)


def test_each_row_reads_its_strength_and_a_blend_the_blend_of_strengths() -> None:
    table, strengths = _table(), [0.0, 0.75, 0.75, 0.0, 1.5, 0.3]
    post = MelPostfilter(table, strengths, n_mels=20)
    np.testing.assert_allclose(post.strengths(table), strengths, atol=1e-4)
    weights = np.array([0.2, 0.5, 0.0, 0.3, 0.0, 0.0], dtype=np.float32)
    np.testing.assert_allclose(post.strengths((weights @ table)[None]), [weights @ strengths], atol=1e-4)


def test_the_filter_is_each_rows_sharpening_and_leaves_flat_frames_alone() -> None:
    table, strengths = _table(3), [0.0, 0.75, 2.0]
    post = MelPostfilter(table, strengths, n_mels=12)
    mel = np.random.default_rng(1).normal(size=(3, 12, 7)).astype(np.float32)
    mel[:, :, -1] = -11.5  # the decoder's silence: the same value in every bin
    out = post.apply(mel, table)
    for row, strength in enumerate(strengths):
        expected = (np.eye(12) + strength * box_difference(12)) @ mel[row]
        np.testing.assert_allclose(out[row], expected, atol=1e-4)
    np.testing.assert_allclose(out[:, :, -1], mel[:, :, -1], atol=1e-5)
    np.testing.assert_array_equal(out[0], mel[0])  # strength 0: unchanged


@pytest.mark.parametrize(
    ("table", "strengths", "message"),
    [
        (_table(), [0.0, 0.75, 0.75, 0.0, -0.1, 0.3], "0-4"),
        (_table(), [0.0, 0.75, 0.75, 0.0, 5.0, 0.3], "0-4"),
        (np.repeat(_table(1), 2, axis=0), [0.0, 0.75], "cannot carry"),
        (_table(), [0.5], "one strength per speaker row"),
    ],
)
def test_strengths_the_table_cannot_carry_are_refused(table: np.ndarray, strengths: list[float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MelPostfilter(table, strengths, n_mels=20)


def _pack(tmp_path: Path, strengths: dict[str, float]) -> Path:
    pack = tmp_path / "tiny-multi"
    shutil.copytree(TINY_MULTI, pack)
    config = json.loads((pack / "voice.json").read_text(encoding="utf-8"))
    for speaker in config["speakers"]:
        if speaker["name"] in strengths:
            speaker["mel_sharpen"] = strengths[speaker["name"]]
    (pack / "voice.json").write_text(json.dumps(config), encoding="utf-8")
    return pack


def _row(engine: OrtEngine, name: str) -> np.ndarray:
    names = [s.name for s in engine.config.speakers]
    return engine.speakers[names.index(name)]


def test_a_bad_strength_in_voice_json_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="mel_sharpen"):
        OrtEngine(_pack(tmp_path, {SHARPENED: 9.0}), warmup=False)


def test_the_cpu_engine_sharpens_only_the_voices_that_ask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = OrtEngine(TINY_MULTI, warmup=False)
    assert plain.postfilter is None
    sharp = OrtEngine(_pack(tmp_path, {SHARPENED: 0.75}), warmup=False)
    assert sharp.postfilter is not None
    for name in (SHARPENED, PLAIN):
        row = _row(plain, name)
        one_shot = sharp.synthesize(IDS, speaker=row).audio
        streamed = np.concatenate(list(sharp.stream(IDS, speaker=row).chunks))  # window by window
        np.testing.assert_allclose(streamed, one_shot, atol=1e-5)
        if name == PLAIN:
            np.testing.assert_array_equal(one_shot, plain.synthesize(IDS, speaker=row).audio)
    # the sharpened voice is the plain pack with every mel through I + 0.75 D (what --mel-sharpen folds in)
    row = _row(plain, SHARPENED)
    got = sharp.synthesize(IDS, speaker=row).audio
    assert np.abs(got - plain.synthesize(IDS, speaker=row).audio).max() > 1e-3  # it does something
    decoded = ort_engine.OrtEngine._mel

    def sharpened(self, frames, fmask, n_max, speaker):  # noqa: ANN001, ANN202
        mel = decoded(self, frames, fmask, n_max, speaker)
        t = (np.eye(mel.shape[1]) + 0.75 * box_difference(mel.shape[1])).astype(np.float32)
        return np.einsum("ij,bjl->bil", t, mel)

    monkeypatch.setattr(ort_engine.OrtEngine, "_mel", sharpened)
    reference = plain.synthesize(IDS, speaker=row).audio
    monkeypatch.undo()
    np.testing.assert_allclose(got, reference, atol=1e-4)


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_the_gpu_engine_applies_the_same_postfilter(tmp_path: Path, device: str) -> None:
    torch = pytest.importorskip("torch")
    if device == "cuda" and not torch.cuda.is_available():
        pytest.skip("needs a CUDA GPU")
    from onestep.runtime.cuda_engine import CudaEngine, CudaSettings

    pack = _pack(tmp_path, {SHARPENED: 0.75, "tiny-en-f": 1.5})
    cpu = OrtEngine(pack, warmup=False)
    # on a GPU: fp32 through the captured graphs, as served; on the CPU: the same module code run eagerly
    settings = CudaSettings(device=device, dtype="fp32", cuda_graphs=device == "cuda", batch_sizes=(1, 2, 4))
    gpu_logic = CudaEngine(pack, settings)
    rows = np.stack([_row(cpu, n) for n in (SHARPENED, PLAIN, "tiny-en-f")])
    for result, row in zip(gpu_logic.synthesize_batch([IDS] * 3, speaker=rows), rows, strict=True):
        expected = cpu.synthesize(IDS, speaker=row).audio
        assert result.audio.shape == expected.shape
        assert np.abs(result.audio - expected).max() <= 1e-4


def test_the_pack_tool_writes_strengths_by_language_and_refuses_bad_ones(tmp_path: Path) -> None:
    from onestep_dev.train.postfilter import set_strengths

    pack = _pack(tmp_path, {})
    assert set_strengths(pack, 0.75, {"zh": 0.0}) == {"tiny-en-f": 0.75, "tiny-en-m": 0.75, "tiny-zh-f": 0.0,
                                                       "tiny-zh-m": 0.0}  # fmt: skip
    engine = OrtEngine(pack, warmup=False)
    assert engine.postfilter is not None
    np.testing.assert_allclose(engine.postfilter.strengths(engine.speakers), [0.75, 0.75, 0.0, 0.0])
    before = (pack / "voice.json").read_text(encoding="utf-8")
    with pytest.raises(ConfigError):
        set_strengths(pack, 7.0)
    assert (pack / "voice.json").read_text(encoding="utf-8") == before
    assert set_strengths(pack, 0.75, {"zh": 0.0}, {"tiny-zh-m": 1.5, "tiny-en-f": 0.0}) == {
        "tiny-en-f": 0.0, "tiny-en-m": 0.75, "tiny-zh-f": 0.0, "tiny-zh-m": 1.5}  # a voice's own beats its language's
    with pytest.raises(ValueError, match="tiny-xx"):
        set_strengths(pack, 0.75, by_voice={"tiny-xx": 1.0})
    set_strengths(pack, 0.0)
    assert OrtEngine(pack, warmup=False).postfilter is None
    assert "mel_sharpen" not in (pack / "voice.json").read_text(encoding="utf-8")
