"""The export-friendly iSTFT and the log-mel analysis."""

from __future__ import annotations

import math

import pytest
import torch

from onestep.config import AudioConfig
from onestep.model.istft import ISTFT
from onestep.model.mel import LogMel, mel_filterbank


@pytest.mark.parametrize("n_fft", [600, 1200])
def test_istft_inverts_same_padded_stft(n_fft: int) -> None:
    hop = 300
    torch.manual_seed(0)
    signal = torch.randn(2, 40 * hop) * 0.1
    pad = (n_fft - hop) // 2
    padded = torch.nn.functional.pad(signal.unsqueeze(1), (pad, pad), mode="reflect").squeeze(1)
    spec = torch.stft(padded, n_fft, hop, window=torch.hann_window(n_fft), center=False, return_complex=True)
    assert spec.shape[-1] == 40
    out = ISTFT(n_fft, hop)(spec.real.transpose(1, 2), spec.imag.transpose(1, 2))
    assert out.shape == signal.shape
    torch.testing.assert_close(out, signal, atol=1e-5, rtol=1e-4)


def test_istft_drop_dc_ignores_the_zero_hertz_bin() -> None:
    hop, n_fft = 300, 600
    torch.manual_seed(1)
    real, imag = torch.randn(1, 20, n_fft // 2 + 1), torch.randn(1, 20, n_fft // 2 + 1)
    no_dc = ISTFT(n_fft, hop, drop_dc=True)
    louder_dc = real.clone()
    louder_dc[:, :, 0] += 5.0
    torch.testing.assert_close(no_dc(louder_dc, imag), no_dc(real, imag))
    zeroed = real.clone()
    zeroed[:, :, 0] = 0.0
    torch.testing.assert_close(no_dc(real, imag), ISTFT(n_fft, hop)(zeroed, imag))  # the other bins unchanged
    dc_only = torch.zeros_like(real)
    dc_only[:, :, 0] = 1.0
    assert ISTFT(n_fft, hop)(dc_only, torch.zeros_like(imag)).abs().min() > 0.5 / n_fft  # DC kept by default
    assert no_dc(dc_only, torch.zeros_like(imag)).abs().max() == 0.0


def test_istft_rejects_bad_sizes() -> None:
    with pytest.raises(ValueError, match="n_fft"):
        ISTFT(500, 300)


def test_logmel_frames_and_peak_band() -> None:
    cfg = AudioConfig()
    t = torch.arange(50 * cfg.hop_length) / cfg.sample_rate
    tone = 0.5 * torch.sin(2 * math.pi * 1000.0 * t)
    mel = LogMel(cfg)(tone.unsqueeze(0))
    assert mel.shape == (1, cfg.n_mels, 50)
    fb = mel_filterbank(cfg.n_fft // 2 + 1, cfg.n_mels, cfg.sample_rate, cfg.f_min, cfg.f_max)
    bin_1k = round(1000.0 * cfg.n_fft / cfg.sample_rate)
    assert int(mel[0, :, 25].argmax()) == int(fb[bin_1k].argmax())
    silence = LogMel(cfg)(torch.zeros(1, 10 * cfg.hop_length))
    assert torch.allclose(silence, torch.full_like(silence, math.log(1e-5)))
