"""Shapes, masking and sizes of the student networks."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from onestep.config import ConfigError
from onestep.model.acoustic import length_regulate
from onestep.model_config import TINY, ModelConfig
from onestep.model.mel import LOG_MEL_FLOOR
from onestep.model.voice_models import VoiceModels, build_models


def test_shapes(tiny_models: VoiceModels) -> None:
    ids = torch.randint(1, 178, (3, 11))
    durations, hidden = tiny_models.acoustic(ids, torch.ones(3, 11))
    assert durations.shape == (3, 11) and hidden.shape == (3, 11, TINY.acoustic_dim)
    assert bool((durations >= 0).all())
    mel = tiny_models.decoder(torch.randn(3, 40, TINY.acoustic_dim), torch.ones(3, 40))
    assert mel.shape == (3, TINY.n_mels, 40)
    audio = tiny_models.vocoder(mel)
    assert audio.shape == (3, 40 * TINY.hop_length)
    assert float(audio.detach().abs().max()) <= 1.0


def test_acoustic_padding_does_not_change_real_outputs(tiny_models: VoiceModels) -> None:
    ids = torch.randint(1, 178, (1, 9))
    alone_d, alone_h = tiny_models.acoustic(ids, torch.ones(1, 9))
    padded_ids = torch.cat([ids, torch.randint(1, 178, (1, 7))], dim=1)  # garbage ids in the padding
    mask = torch.cat([torch.ones(1, 9), torch.zeros(1, 7)], dim=1)
    d, h = tiny_models.acoustic(padded_ids, mask)
    torch.testing.assert_close(d[:, :9], alone_d, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(h[:, :9], alone_h, atol=1e-5, rtol=1e-5)
    assert bool((d[:, 9:] == 0).all()) and bool((h[:, 9:] == 0).all())


def test_decoder_padding_does_not_change_real_frames(tiny_models: VoiceModels) -> None:
    frames = torch.randn(1, 30, TINY.acoustic_dim)
    alone = tiny_models.decoder(frames, torch.ones(1, 30))
    padded = torch.cat([frames, torch.randn(1, 20, TINY.acoustic_dim)], dim=1)
    mask = torch.cat([torch.ones(1, 30), torch.zeros(1, 20)], dim=1)
    mel = tiny_models.decoder(padded, mask)
    torch.testing.assert_close(mel[:, :, :30], alone, atol=1e-5, rtol=1e-5)
    assert torch.allclose(mel[:, :, 30:], torch.full_like(mel[:, :, 30:], LOG_MEL_FLOOR))


def test_vocoder_context_makes_windows_seamless(tiny_models: VoiceModels) -> None:
    """Audio of frames [a, b) from the window [a - r, b + r) equals the one-shot audio (streaming contract)."""
    hop, r = TINY.hop_length, TINY.vocoder_context
    mel = torch.randn(1, TINY.n_mels, 60) - 4.0
    full = tiny_models.vocoder(mel)
    a, b = 20, 35
    window = tiny_models.vocoder(mel[:, :, a - r : b + r])
    torch.testing.assert_close(window[:, r * hop : (r + b - a) * hop], full[:, a * hop : b * hop], atol=1e-5, rtol=1e-4)
    # one frame less context is not enough: the receptive field is really r frames wide
    short = tiny_models.vocoder(mel[:, :, a - r + 1 : b + r - 1])
    assert float((short[:, (r - 1) * hop : (r - 1 + b - a) * hop] - full[:, a * hop : b * hop]).abs().max()) > 0


def test_length_regulate_matches_numpy_repeat() -> None:
    hidden = torch.randn(2, 5, 3)
    fpi = torch.tensor([[1, 0, 3, 2, 0], [2, 2, 0, 0, 0]])
    frames, mask = length_regulate(hidden, fpi, n_frames=8)
    for b in range(2):
        expected = np.repeat(hidden[b].numpy(), fpi[b].numpy(), axis=0)
        n = len(expected)
        np.testing.assert_array_equal(frames[b, :n].numpy(), expected)
        assert bool((frames[b, n:] == 0).all())
        assert mask[b].tolist() == [1.0] * n + [0.0] * (8 - n)


def test_full_config_parameter_budget() -> None:
    counts = build_models(ModelConfig()).parameter_counts()
    assert sum(counts.values()) <= 15_000_000
    assert 3_000_000 <= counts["acoustic"] + counts["decoder"] <= 6_500_000


def test_build_is_deterministic_with_seed() -> None:
    a, b = build_models(TINY, seed=7), build_models(TINY, seed=7)
    for name in ("acoustic", "decoder", "vocoder"):
        sa, sb = getattr(a, name).state_dict(), getattr(b, name).state_dict()
        assert all(torch.equal(sa[k], sb[k]) for k in sa)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"acoustic_dim": 0}, "acoustic_dim"),
        ({"decoder_kernel": 4}, "decoder_kernel"),
        ({"istft_n_fft": 1000}, "istft_n_fft"),
        ({"istft_n_fft": 300}, "istft_n_fft"),
        ({"n_symbols": 100}, "n_symbols"),
        ({"vocoder_blocks": 2.0}, "vocoder_blocks"),
        ({"istft_drop_dc": 1}, "istft_drop_dc"),
    ],
)
def test_model_config_rejects_bad_values(change: dict[str, object], field: str) -> None:
    with pytest.raises(ConfigError, match=field):
        ModelConfig(**change)  # type: ignore[arg-type]


def test_model_config_dict_round_trip_and_unknown_keys() -> None:
    assert ModelConfig.from_dict(TINY.to_dict()) == TINY
    assert ModelConfig().istft_drop_dc and TINY.istft_drop_dc  # new vocoders synthesize no DC ...
    older = {k: v for k, v in TINY.to_dict().items() if k != "istft_drop_dc"}
    assert not ModelConfig.from_dict(older).istft_drop_dc  # ... voices exported before the field keep it
    with pytest.raises(ConfigError, match="unknown keys"):
        ModelConfig.from_dict({**TINY.to_dict(), "vocoder_dims": 3})
