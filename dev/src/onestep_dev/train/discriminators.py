"""GAN discriminators for the vocoder: multi-period (waveform) and multi-resolution (spectrogram).

Both return, per sub-discriminator, the final logits and the intermediate feature maps (for feature matching).
Channel widths are kept small (a few M parameters in all): the discriminators never ship, but they must
train fast and travel back from the GPU machine in one small file.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.utils.parametrizations import weight_norm

Output = tuple[list[torch.Tensor], list[list[torch.Tensor]]]  # logits per sub-discriminator, features per sub-d.

_SLOPE = 0.1


def _conv_stack(convs: nn.ModuleList, post: nn.Module, x: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """Run a discriminator's conv layers (leaky ReLU after each) and its output conv.

    Returns the flattened logits (B, L) and every layer's feature map (for feature matching).
    """
    features = []
    for conv in convs:
        x = torch.nn.functional.leaky_relu(conv(x), _SLOPE)
        features.append(x)
    x = post(x)
    features.append(x)
    return x.flatten(1), features


class PeriodDiscriminator(nn.Module):
    """Looks at the waveform folded into ``period`` columns: (B, 1, N / period, period) 2-D convolutions."""

    def __init__(self, period: int, channels: tuple[int, ...]) -> None:
        super().__init__()
        self.period = period
        layers, c_in = [], 1
        for c in channels:
            layers.append(weight_norm(nn.Conv2d(c_in, c, (5, 1), (3, 1), padding=(2, 0))))
            c_in = c
        layers.append(weight_norm(nn.Conv2d(c_in, c_in, (5, 1), 1, padding=(2, 0))))
        self.convs = nn.ModuleList(layers)
        self.post = weight_norm(nn.Conv2d(c_in, 1, (3, 1), 1, padding=(1, 0)))

    def forward(self, audio: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """Args: audio (B, N). Returns logits (B, L) and feature maps."""
        b, n = audio.shape
        if n % self.period:
            audio = torch.nn.functional.pad(audio.unsqueeze(1), (0, self.period - n % self.period), mode="reflect")
            audio = audio.squeeze(1)
        x = audio.reshape(b, 1, -1, self.period)
        return _conv_stack(self.convs, self.post, x)


class ResolutionDiscriminator(nn.Module):
    """Looks at one linear-magnitude STFT resolution: 2-D convolutions over (time, frequency)."""

    def __init__(self, n_fft: int, hop: int, channels: int) -> None:
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        self.register_buffer("window", torch.hann_window(n_fft), persistent=False)
        self.convs = nn.ModuleList(
            [
                weight_norm(nn.Conv2d(1, channels, (3, 9), padding=(1, 4))),
                weight_norm(nn.Conv2d(channels, channels, (3, 9), stride=(1, 2), padding=(1, 4))),
                weight_norm(nn.Conv2d(channels, channels, (3, 9), stride=(1, 2), padding=(1, 4))),
                weight_norm(nn.Conv2d(channels, channels, (3, 9), stride=(1, 2), padding=(1, 4))),
                weight_norm(nn.Conv2d(channels, channels, (3, 3), padding=(1, 1))),
            ]
        )
        self.post = weight_norm(nn.Conv2d(channels, 1, (3, 3), padding=(1, 1)))

    def forward(self, audio: torch.Tensor) -> tuple[torch.Tensor, list[torch.Tensor]]:
        """Args: audio (B, N). Returns logits (B, L) and feature maps."""
        with torch.autocast(device_type=audio.device.type, enabled=False):
            spec = torch.stft(
                audio.float(), self.n_fft, self.hop, window=self.window, center=True, return_complex=True
            ).abs()
        x = spec.transpose(1, 2).unsqueeze(1)  # (B, 1, frames, bins)
        return _conv_stack(self.convs, self.post, x)


class Discriminators(nn.Module):
    """Multi-period + multi-resolution discriminators over the same waveform batch."""

    def __init__(
        self,
        width: int = 32,
        periods: tuple[int, ...] = (2, 3, 5, 7, 11),
        resolutions: tuple[tuple[int, int], ...] = ((512, 128), (1024, 256), (2048, 512)),
    ) -> None:
        """Args: width: base channels (period discriminators use width × 1, 2, 4, 8; spectrogram ones width);
        periods: waveform folding periods; resolutions: (n_fft, hop) of the spectrogram discriminators."""
        super().__init__()
        self.period = nn.ModuleList(PeriodDiscriminator(p, (width, 2 * width, 4 * width, 8 * width)) for p in periods)
        self.resolution = nn.ModuleList(ResolutionDiscriminator(n, h, width) for n, h in resolutions)

    def forward(self, audio: torch.Tensor) -> Output:
        """Args: audio (B, N) float. Returns (logits list, features list), one entry per sub-discriminator."""
        logits, features = [], []
        for d in (*self.period, *self.resolution):
            lg, ft = d(audio)
            logits.append(lg)
            features.append(ft)
        return logits, features
