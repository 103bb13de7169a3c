"""Voice-pack reading without torch, checked against torch.load, and the style-row rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from onestep_dev.teacher.voices import VoiceError, load_kokoro_voice, read_torch_tensor, style_for, voices_dir

torch = pytest.importorskip("torch")


@pytest.mark.parametrize(
    "tensor",
    [
        torch.arange(24, dtype=torch.float32).reshape(2, 3, 4),
        torch.arange(24, dtype=torch.float32).reshape(4, 6).t(),  # non-contiguous strides
        torch.arange(30, dtype=torch.float32)[6:].reshape(4, 6),  # storage offset (saved as a view)
    ],
)
def test_read_torch_tensor_matches_torch(tmp_path: Path, tensor: torch.Tensor) -> None:
    path = tmp_path / "t.pt"
    torch.save(tensor, path)
    np.testing.assert_array_equal(read_torch_tensor(path), tensor.numpy())


def test_rejects_non_tensor_pickle(tmp_path: Path) -> None:
    path = tmp_path / "d.pt"
    torch.save({"a": torch.zeros(2)}, path)
    with pytest.raises(VoiceError):
        read_torch_tensor(path)


def test_missing_voice_names_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ONESTEP_KOKORO_VOICES", str(tmp_path))
    with pytest.raises(VoiceError, match="nope"):
        load_kokoro_voice("nope")


def test_load_voice_by_name_and_shape(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pack = torch.randn(510, 1, 256)
    torch.save(pack, tmp_path / "xx_test.pt")
    monkeypatch.setenv("ONESTEP_KOKORO_VOICES", str(tmp_path))
    voice = load_kokoro_voice("xx_test")
    assert voice.shape == (510, 256) and voice.dtype == np.float32
    np.testing.assert_array_equal(voice, pack.numpy().reshape(510, 256))


def test_a_blend_is_the_weighted_sum_of_the_packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = torch.randn(510, 1, 256), torch.randn(510, 1, 256)
    torch.save(a, tmp_path / "xx_a.pt")
    torch.save(b, tmp_path / "xx_b.pt")
    monkeypatch.setenv("ONESTEP_KOKORO_VOICES", str(tmp_path))
    want = (0.75 * a + 0.25 * b).numpy().reshape(510, 256)
    np.testing.assert_allclose(load_kokoro_voice("xx_a:0.75+xx_b:0.25"), want, atol=1e-6)
    np.testing.assert_allclose(load_kokoro_voice("xx_a(3)+xx_b(1)"), want, atol=1e-6)  # weights normalized
    with pytest.raises(VoiceError, match="xx_c"):
        load_kokoro_voice("xx_a+xx_c")
    with pytest.raises(VoiceError, match="blend"):
        load_kokoro_voice("xx_a:-1+xx_b")


@pytest.mark.skipif(not (voices_dir() / "af_heart.pt").is_file(), reason="shared Kokoro voices not available")
def test_real_voice_pack_equals_torch_load() -> None:
    ref = torch.load(voices_dir() / "af_heart.pt", weights_only=True).numpy().reshape(510, 256)
    np.testing.assert_array_equal(load_kokoro_voice("af_heart"), ref)


@pytest.mark.parametrize(("n_ids", "row"), [(3, 0), (12, 9), (512, 509), (600, 509)])
def test_style_row_counts_ids_without_pads(n_ids: int, row: int) -> None:
    voice = np.arange(510, dtype=np.float32)[:, None].repeat(256, axis=1)
    assert style_for(voice, [0] * n_ids)[0] == row


def test_style_for_needs_a_phoneme() -> None:
    with pytest.raises(ValueError):
        style_for(np.zeros((510, 256), np.float32), [0, 0])
