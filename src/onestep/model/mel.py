"""Log-mel analysis (torch) matching ``AudioConfig``: the decoder's target and the vocoder's input.

Frames use "same" padding: ``(n_fft - hop) / 2`` reflected samples on each side, so ``N`` samples give exactly
``N / hop`` frames and frame ``t`` is centred on samples ``[t*hop, (t+1)*hop)`` (the vocoder's iSTFT uses the
same alignment).
"""

from __future__ import annotations

import math

import torch
from torch import nn

from onestep.config import AudioConfig

MEL_FLOOR = 1e-5
LOG_MEL_FLOOR = math.log(MEL_FLOOR)  # natural-log mel of silence (≈ -11.51)


def _hz_to_mel(hz: torch.Tensor) -> torch.Tensor:
    return 2595.0 * torch.log10(1.0 + hz / 700.0)


def _mel_to_hz(mel: torch.Tensor) -> torch.Tensor:
    return 700.0 * (10.0 ** (mel / 2595.0) - 1.0)


def mel_filterbank(n_freqs: int, n_mels: int, sample_rate: int, f_min: float, f_max: float) -> torch.Tensor:
    """Triangular HTK-scale mel filters without area normalisation.

    Returns:
        (n_freqs, n_mels) float32 weights mapping linear-frequency bins ``0..sample_rate/2`` to mel bands.
    """
    freqs = torch.linspace(0.0, sample_rate / 2, n_freqs, dtype=torch.float64)
    mel_points = torch.linspace(
        _hz_to_mel(torch.tensor(f_min, dtype=torch.float64)).item(),
        _hz_to_mel(torch.tensor(f_max, dtype=torch.float64)).item(),
        n_mels + 2,
        dtype=torch.float64,
    )
    hz_points = _mel_to_hz(mel_points)
    lower, centre, upper = hz_points[:-2], hz_points[1:-1], hz_points[2:]
    rising = (freqs[:, None] - lower[None, :]) / (centre - lower)[None, :]
    falling = (upper[None, :] - freqs[:, None]) / (upper - centre)[None, :]
    return torch.clamp(torch.minimum(rising, falling), min=0.0).to(torch.float32)


class LogMel(nn.Module):
    """Natural-log magnitude mel spectrogram: ``log(max(mel, 1e-5))``."""

    def __init__(self, audio: AudioConfig) -> None:
        super().__init__()
        self.n_fft = audio.n_fft
        self.hop = audio.hop_length
        self.win_length = audio.win_length
        self.register_buffer("window", torch.hann_window(audio.win_length), persistent=False)
        fb = mel_filterbank(audio.n_fft // 2 + 1, audio.n_mels, audio.sample_rate, audio.f_min, audio.f_max)
        self.register_buffer("filterbank", fb.T.contiguous(), persistent=False)

    def pad(self, audio: torch.Tensor) -> torch.Tensor:
        """Reflect-pad (B, N) audio by ``(n_fft - hop) / 2`` on each side ("same" framing)."""
        pad = (self.n_fft - self.hop) // 2
        return torch.nn.functional.pad(audio.float().unsqueeze(1), (pad, pad), mode="reflect").squeeze(1)

    def from_padded(self, padded: torch.Tensor) -> torch.Tensor:
        """Log-mel of already padded audio (B, N + n_fft - hop) -> (B, n_mels, N // hop)."""
        spec = torch.stft(
            padded.float(),
            self.n_fft,
            hop_length=self.hop,
            win_length=self.win_length,
            window=self.window,
            center=False,
            return_complex=True,
        ).abs()
        mel = torch.matmul(self.filterbank, spec)
        return torch.log(torch.clamp(mel, min=MEL_FLOOR))

    def forward(self, audio: torch.Tensor) -> torch.Tensor:
        """Args: audio (B, N) float in [-1, 1], N a multiple of hop. Returns log-mel (B, n_mels, N // hop)."""
        return self.from_padded(self.pad(audio))
