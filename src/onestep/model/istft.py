"""Inverse STFT built from plain matmul / pad / add, so that it exports to ONNX and runs fast in ORT.

``torch.istft`` has no ONNX export. Here the inverse real DFT of every frame is one matmul with a fixed
``(2K, n_fft)`` basis (the 1/N and two-sided weights and the Hann synthesis window folded in); overlap-add is
done by splitting each frame into ``n_fft / hop`` hop-sized pieces and adding them shifted by whole frames
(pad + add + reshape: no ``n_fft × n_fft`` identity kernel as conv_transpose1d would need); the sum is divided
by the window-square envelope and trimmed by ``(n_fft - hop) / 2`` on each side ("same" padding), so ``F``
frames give exactly ``F * hop`` samples, aligned like ``onestep.model.mel.LogMel``.
"""

from __future__ import annotations

import math

import torch
from torch import nn


def _overlap_add(pieces: torch.Tensor, ratio: int, hop: int) -> torch.Tensor:
    """Args: pieces (B, F, n_fft). Returns (B, (F + ratio - 1) * hop): frame f starts at sample f * hop."""
    b, f, _ = pieces.shape
    pieces = pieces.reshape(b, f, ratio, hop)
    out = torch.nn.functional.pad(pieces[:, :, 0], (0, 0, 0, ratio - 1))
    for j in range(1, ratio):
        out = out + torch.nn.functional.pad(pieces[:, :, j], (0, 0, j, ratio - 1 - j))
    return out.reshape(b, -1)


class ISTFT(nn.Module):
    """Inverse STFT with a periodic Hann window, ``n_fft`` a multiple of ``hop``."""

    def __init__(self, n_fft: int, hop: int, drop_dc: bool = False) -> None:
        """Args: n_fft, hop: samples; drop_dc: ignore the 0 Hz bin of the input spectrum (synthesize no DC)."""
        super().__init__()
        if n_fft % hop or n_fft < 2 * hop or (n_fft - hop) % 2:
            raise ValueError(f"ISTFT needs n_fft ({n_fft}) = k*hop ({hop}) with k >= 2 and n_fft - hop even")
        self.n_fft, self.hop, self.ratio = n_fft, hop, n_fft // hop
        self.n_bins = n_fft // 2 + 1
        window = torch.hann_window(n_fft, periodic=True, dtype=torch.float64)
        k = torch.arange(self.n_bins, dtype=torch.float64)[:, None]
        n = torch.arange(n_fft, dtype=torch.float64)[None, :]
        angle = 2.0 * math.pi * k * n / n_fft
        weight = torch.full((self.n_bins, 1), 2.0 / n_fft, dtype=torch.float64)
        weight[0] = weight[-1] = 1.0 / n_fft  # DC and Nyquist appear once in the two-sided spectrum
        if drop_dc:
            weight[0] = 0.0
        basis = torch.cat([weight * torch.cos(angle), -weight * torch.sin(angle)]) * window
        self.register_buffer("basis", basis.to(torch.float32), persistent=False)
        self.register_buffer("window_sq", (window**2).to(torch.float32), persistent=False)

    def forward(self, real: torch.Tensor, imag: torch.Tensor) -> torch.Tensor:
        """Args: real, imag (B, F, n_fft // 2 + 1) one-sided spectrum, frames first. Returns audio (B, F * hop)."""
        frames = torch.matmul(torch.cat([real, imag], dim=2), self.basis)  # (B, F, n_fft)
        audio = _overlap_add(frames, self.ratio, self.hop)
        envelope = _overlap_add(self.window_sq.expand(1, frames.shape[1], self.n_fft), self.ratio, self.hop)
        pad = (self.n_fft - self.hop) // 2
        audio = audio / torch.clamp(envelope, min=1e-11)
        return audio[:, pad:-pad]
