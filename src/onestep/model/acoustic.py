"""Acoustic side of a voice: phoneme encoder + duration predictor, length regulator, frame-rate mel decoder.

``AcousticModel.forward`` and ``MelDecoder.forward`` are exactly the ``acoustic.onnx`` / ``decoder.onnx``
contracts of docs/ARCHITECTURE.md; training uses ``AcousticModel.encode`` for log-durations.
"""

from __future__ import annotations

import torch
from torch import nn

from onestep.model_config import ModelConfig
from onestep.model.layers import ConvNeXtStack
from onestep.model.mel import LOG_MEL_FLOOR


class SpeakerTable(nn.Module):
    """The trained voices' speaker vectors: index (B,) int64 -> (B, S) float32.

    Used in training only; export writes the rows to ``speakers.npy`` and the graphs take the vectors, so that
    a blend of voices (a weighted sum of rows) costs nothing at run time.
    """

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.table = nn.Embedding(max(cfg.n_speakers, 1), cfg.speaker_dim)

    def forward(self, index: torch.Tensor) -> torch.Tensor:
        return self.table(index)


class SpeakerBias(nn.Module):
    """A speaker vector (B, S) as a per-channel bias (B, C, 1) added to a stack's input (zero-initialised, so a
    model seeded from a single-speaker voice starts out as that voice)."""

    def __init__(self, speaker_dim: int, channels: int) -> None:
        super().__init__()
        self.proj = nn.Linear(speaker_dim, channels)
        nn.init.zeros_(self.proj.weight)
        nn.init.zeros_(self.proj.bias)

    def forward(self, speaker: torch.Tensor) -> torch.Tensor:
        return self.proj(speaker).unsqueeze(2)


class AcousticModel(nn.Module):
    """Phoneme ids (+ a speaker vector for a multi-speaker model) -> (durations in frames, hidden states)."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.embed = nn.Embedding(cfg.n_symbols, cfg.acoustic_dim)
        self.encoder = ConvNeXtStack(cfg.acoustic_dim, cfg.acoustic_ffn, cfg.encoder_kernel, cfg.encoder_blocks)
        self.duration = ConvNeXtStack(cfg.acoustic_dim, cfg.acoustic_ffn, cfg.encoder_kernel, cfg.duration_blocks)
        self.duration_proj = nn.Linear(cfg.acoustic_dim, 1)
        self.multi_speaker = cfg.multi_speaker
        if self.multi_speaker:
            self.speakers = SpeakerTable(cfg)
            self.speaker_encoder = SpeakerBias(cfg.speaker_dim, cfg.acoustic_dim)
            self.speaker_duration = SpeakerBias(cfg.speaker_dim, cfg.acoustic_dim)

    def encode(
        self,
        phoneme_ids: torch.Tensor,
        phoneme_mask: torch.Tensor,
        speaker: torch.Tensor | None = None,
        detach_duration_input: bool = False,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Args:
            phoneme_ids: (B, T) int64; phoneme_mask: (B, T) float 1 = real id (boundary pads included).
            speaker: (B, S) float speaker vectors (multi-speaker models; ignored otherwise).
            detach_duration_input: stop the duration loss from shaping the encoder (training).
        Returns:
            log_durations (B, T): predicted ``log(1 + frames)``, 0 at masked positions;
            hidden (B, T, C): encoder states, 0 at masked positions.
        """
        mask = phoneme_mask.unsqueeze(1)  # (B, 1, T)
        x = self.embed(phoneme_ids).transpose(1, 2)
        if self.multi_speaker:
            if speaker is None:
                raise ValueError("a multi-speaker acoustic model needs a speaker vector")
            x = x + self.speaker_encoder(speaker)
        hidden = self.encoder(x, mask) * phoneme_mask.unsqueeze(2)
        d_in = (hidden.detach() if detach_duration_input else hidden).transpose(1, 2)
        if self.multi_speaker:
            d_in = d_in + self.speaker_duration(speaker)
        d = self.duration(d_in, mask)
        log_durations = self.duration_proj(d).squeeze(2) * phoneme_mask
        return log_durations, hidden

    def forward(
        self, phoneme_ids: torch.Tensor, phoneme_mask: torch.Tensor, speaker: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Args: phoneme_ids (B, T) int64; phoneme_mask (B, T) float; speaker (B, S) float (multi-speaker).

        Returns:
            durations (B, T) float32: predicted frames per id, >= 0, 0 where masked;
            hidden (B, T, C) float32.
        """
        log_durations, hidden = self.encode(phoneme_ids, phoneme_mask, speaker)
        durations = torch.clamp(torch.exp(log_durations) - 1.0, min=0.0) * phoneme_mask
        return durations, hidden


class MelDecoder(nn.Module):
    """Frame-rate hidden states (+ a speaker vector for a multi-speaker model) -> natural-log mel."""

    def __init__(self, cfg: ModelConfig) -> None:
        super().__init__()
        self.input_proj = nn.Conv1d(cfg.acoustic_dim, cfg.decoder_dim, kernel_size=1)
        self.backbone = ConvNeXtStack(cfg.decoder_dim, cfg.decoder_ffn, cfg.decoder_kernel, cfg.decoder_blocks)
        self.output_proj = nn.Linear(cfg.decoder_dim, cfg.n_mels)
        self.multi_speaker = cfg.multi_speaker
        if self.multi_speaker:
            self.speaker_bias = SpeakerBias(cfg.speaker_dim, cfg.decoder_dim)

    def forward(
        self, frames: torch.Tensor, frame_mask: torch.Tensor, speaker: torch.Tensor | None = None
    ) -> torch.Tensor:
        """Args: frames (B, F, C) (hidden expanded by durations, zero-padded); frame_mask (B, F) float;
        speaker (B, S) float (multi-speaker models).

        Returns:
            mel (B, n_mels, F) natural-log mel; masked frames hold the silence floor ``log(1e-5)`` so the
            vocoder hears silence after the last real frame.
        """
        mask = frame_mask.unsqueeze(1)  # (B, 1, F)
        x = self.input_proj(frames.transpose(1, 2) * mask)
        if self.multi_speaker:
            if speaker is None:
                raise ValueError("a multi-speaker mel decoder needs a speaker vector")
            x = (x + self.speaker_bias(speaker)) * mask
        mel = self.output_proj(self.backbone(x, mask)).transpose(1, 2)
        return mel * mask + LOG_MEL_FLOOR * (1.0 - mask)


def length_regulate(
    hidden: torch.Tensor, frames_per_id: torch.Tensor, n_frames: int | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Repeat each phoneme's hidden state for its number of frames (batched, no Python loop).

    Args:
        hidden: (B, T, C) encoder states.
        frames_per_id: (B, T) int64 frames per id, >= 0 (0 at masked positions).
        n_frames: output length F (a static bucket); default the longest item's total.
    Returns:
        frames (B, F, C), zero past each item's total; frame_mask (B, F) float32 (1 = real frame).
        Items longer than ``F`` are truncated.
    """
    ends = torch.cumsum(frames_per_id, dim=1)  # (B, T)
    total = ends[:, -1:]  # (B, 1)
    if n_frames is None:
        n_frames = int(total.max().item()) if total.numel() else 0
    positions = torch.arange(n_frames, device=hidden.device).unsqueeze(0).expand(hidden.shape[0], -1)
    index = torch.searchsorted(ends, positions.contiguous(), right=True).clamp(max=hidden.shape[1] - 1)
    frame_mask = (positions < total).to(hidden.dtype)
    frames = torch.gather(hidden, 1, index.unsqueeze(2).expand(-1, -1, hidden.shape[2])) * frame_mask.unsqueeze(2)
    return frames, frame_mask
