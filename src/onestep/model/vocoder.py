"""Vocos-style vocoder: conv embed -> ConvNeXt blocks at frame rate -> linear head -> magnitude/phase -> iSTFT."""

from __future__ import annotations

import math

import torch
from torch import nn

from onestep.model_config import VOCODER_EMBED_KERNEL, ModelConfig
from onestep.model.istft import ISTFT
from onestep.model.layers import ConvNeXtStack

_MAX_LOG_MAGNITUDE = math.log(100.0)


class Vocoder(nn.Module):
    """Natural-log mel (B, M, F) -> waveform (B, F * hop) in [-1, 1]."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.embed = nn.Conv1d(cfg.n_mels, cfg.vocoder_dim, VOCODER_EMBED_KERNEL, padding=VOCODER_EMBED_KERNEL // 2)
        self.embed_norm = nn.LayerNorm(cfg.vocoder_dim, eps=1e-6)
        self.backbone = ConvNeXtStack(cfg.vocoder_dim, cfg.vocoder_ffn, cfg.vocoder_kernel, cfg.vocoder_blocks)
        self.n_bins = cfg.istft_n_fft // 2 + 1
        self.head = nn.Linear(cfg.vocoder_dim, 2 * self.n_bins)
        self.istft = ISTFT(cfg.istft_n_fft, cfg.hop_length, drop_dc=cfg.istft_drop_dc)

    def forward(self, mel: torch.Tensor) -> torch.Tensor:
        """Args: mel (B, n_mels, F) natural-log mel. Returns audio (B, F * hop) float32 in [-1, 1]."""
        x = self.embed_norm(self.embed(mel).transpose(1, 2)).transpose(1, 2)
        x = self.backbone(x)
        # magnitude and phase need full precision: keep the head and iSTFT out of mixed-precision autocast
        with torch.autocast(device_type=x.device.type, enabled=False):
            x = self.head(x.to(self.head.weight.dtype))  # (B, F, 2 * n_bins)
            log_mag, phase = x[:, :, : self.n_bins], x[:, :, self.n_bins :]
            mag = torch.exp(torch.clamp(log_mag, max=_MAX_LOG_MAGNITUDE))
            audio = self.istft(mag * torch.cos(phase), mag * torch.sin(phase))
        return torch.clamp(audio, -1.0, 1.0)
