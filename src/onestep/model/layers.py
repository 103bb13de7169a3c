"""Building blocks shared by the student networks: masked 1-D ConvNeXt blocks."""

from __future__ import annotations

import torch
from torch import nn


class ConvNeXtBlock(nn.Module):
    """1-D ConvNeXt block: depthwise conv -> LayerNorm -> Linear -> GELU -> Linear -> layer scale, residual.

    Padded positions are zeroed before the depthwise conv, so values there never leak into real positions.
    """

    def __init__(self, dim: int, ffn_dim: int, kernel_size: int, layer_scale: float) -> None:
        super().__init__()
        self.dwconv = nn.Conv1d(dim, dim, kernel_size, padding=kernel_size // 2, groups=dim)
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, ffn_dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(ffn_dim, dim)
        self.gamma = nn.Parameter(torch.full((dim,), layer_scale))

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """Args: x (B, C, T); mask (B, 1, T) of 0/1 or None (no padding). Returns (B, C, T)."""
        residual = x
        if mask is not None:
            x = x * mask
        y = self.dwconv(x).transpose(1, 2)
        y = self.pwconv2(self.act(self.pwconv1(self.norm(y))))
        return residual + (self.gamma * y).transpose(1, 2)


class ConvNeXtStack(nn.Module):
    """``n`` ConvNeXt blocks followed by a LayerNorm over channels."""

    def __init__(self, dim: int, ffn_dim: int, kernel_size: int, n_blocks: int) -> None:
        super().__init__()
        self.blocks = nn.ModuleList(
            ConvNeXtBlock(dim, ffn_dim, kernel_size, layer_scale=1.0 / n_blocks) for _ in range(n_blocks)
        )
        self.norm = nn.LayerNorm(dim, eps=1e-6)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        """Args: x (B, C, T); mask (B, 1, T) or None. Returns (B, T, C), channels last, normalized."""
        for block in self.blocks:
            x = block(x, mask)
        return self.norm(x.transpose(1, 2))


def init_weights(module: nn.Module) -> None:
    """ConvNeXt-style initialisation for ``module.apply``: truncated-normal (std 0.02) weights, zero biases."""
    if isinstance(module, (nn.Conv1d, nn.Linear)):
        nn.init.trunc_normal_(module.weight, std=0.02)
        if module.bias is not None:
            nn.init.zeros_(module.bias)
