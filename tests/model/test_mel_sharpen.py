"""Mel sharpening folded into the vocoder: the matrix's properties and the fold's exactness."""

from __future__ import annotations

import copy

import pytest
import torch

from onestep.model.mel_sharpen import fold_mel_sharpening, sharpening_matrix
from onestep.model.voice_models import VoiceModels


def test_matrix_is_identity_at_zero_and_keeps_flat_frames() -> None:
    assert torch.equal(sharpening_matrix(12, 0.0, 5), torch.eye(12))
    t = sharpening_matrix(12, 1.5, 5)
    flat = torch.full((12, 3), -4.2)
    assert torch.allclose(t @ flat, flat, atol=1e-5)  # rows sum to 1: silence (a constant frame) unchanged


def test_matrix_raises_contrast_across_bins() -> None:
    peak = torch.zeros(20, 1)
    peak[10] = 1.0  # one formant-like peak
    out = sharpening_matrix(20, 1.0, 5) @ peak
    assert out[10, 0] == pytest.approx(1.0 + 1.0 * (1 - 1 / 5))  # the peak rises
    assert out[8, 0] < 0 and out[12, 0] < 0  # its neighbours fall: a deeper valley around it
    assert out[0, 0] == 0 and out[19, 0] == 0  # bins out of the average's reach are untouched


@pytest.mark.parametrize("strength, width", [(0.0, 3), (-0.1, 5), (1.0, 4), (1.0, 1)])
def test_matrix_rejects_bad_settings(strength: float, width: int) -> None:
    if strength == 0.0:
        sharpening_matrix(8, strength, width)  # the identity is allowed
        return
    with pytest.raises(ValueError):
        sharpening_matrix(8, strength, width)


def test_folded_vocoder_renders_the_sharpened_mel(tiny_models: VoiceModels) -> None:
    vocoder = tiny_models.vocoder
    folded = copy.deepcopy(vocoder)
    fold_mel_sharpening(folded, 1.2, 5)
    n_mels = vocoder.embed.weight.shape[1]
    mel = torch.randn(2, n_mels, 17) - 3.0
    expected = vocoder(torch.einsum("ij,bjf->bif", sharpening_matrix(n_mels, 1.2, 5), mel))
    assert torch.allclose(folded(mel), expected, atol=1e-5)
    assert not torch.allclose(folded(mel), vocoder(mel), atol=1e-3)  # it does change the audio


def test_export_folds_it_and_records_it(tmp_path) -> None:
    from onestep.cli import main as cli_main
    from onestep.model.export import load_voice_models

    common = ["export", "--random", "--tiny", "--seed", "4", "--name", "t", "--language", "en", "--no-int8-vocoder"]
    assert cli_main([*common, "--out", str(tmp_path / "plain")]) == 0
    assert cli_main([*common, "--mel-sharpen", "0.8:7", "--out", str(tmp_path / "sharp")]) == 0
    plain_config, plain = load_voice_models(tmp_path / "plain")
    sharp_config, sharp = load_voice_models(tmp_path / "sharp")
    assert "mel_sharpen" not in plain_config.extra
    assert sharp_config.extra["mel_sharpen"] == {"strength": 0.8, "width": 7}
    fold_mel_sharpening(plain.vocoder, 0.8, 7)
    for name, tensor in sharp.vocoder.state_dict().items():  # only the embed changed, by exactly the fold
        assert torch.allclose(tensor, plain.vocoder.state_dict()[name], atol=1e-3), name


@pytest.mark.parametrize("value", ["x", "0", "1.0:4", "1.0:1"])
def test_export_rejects_bad_settings(tmp_path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    from onestep.cli import main as cli_main

    with pytest.raises(SystemExit) as e:
        cli_main(["export", "--random", "--tiny", "--name", "t", "--language", "en", "--mel-sharpen", value,
                  "--out", str(tmp_path / "v")])  # fmt: skip
    assert e.value.code != 0 and "STRENGTH" in capsys.readouterr().err
    assert not (tmp_path / "v").exists()
