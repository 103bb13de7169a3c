"""Training losses: masked duration/mel regression for the acoustic model, least-squares GAN for the vocoder."""

from __future__ import annotations

import torch


def duration_loss(log_durations: torch.Tensor, durations: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """MSE on ``log(1 + frames)``. Args: log_durations, durations (frames), mask: (B, T). Returns a scalar."""
    target = torch.log1p(durations.float())
    err = (log_durations.float() - target) ** 2 * mask
    return err.sum() / mask.sum().clamp(min=1.0)


def masked_mel_loss(
    pred: torch.Tensor, target: torch.Tensor, frame_mask: torch.Tensor, l2_weight: float = 0.0
) -> torch.Tensor:
    """Mean L1 (+ ``l2_weight`` × mean L2) over real frames. Args: pred, target (B, M, F); frame_mask (B, F)."""
    mask = frame_mask.unsqueeze(1)
    diff = (pred.float() - target.float()) * mask
    denom = (mask.sum() * pred.shape[1]).clamp(min=1.0)
    loss = diff.abs().sum() / denom
    if l2_weight:
        loss = loss + l2_weight * (diff**2).sum() / denom
    return loss


def discriminator_loss(real_logits: list[torch.Tensor], fake_logits: list[torch.Tensor]) -> torch.Tensor:
    """Least-squares GAN: real -> 1, fake -> 0, summed over sub-discriminators."""
    loss = real_logits[0].new_zeros((), dtype=torch.float32)
    for real, fake in zip(real_logits, fake_logits, strict=True):
        loss = loss + torch.mean((1.0 - real.float()) ** 2) + torch.mean(fake.float() ** 2)
    return loss


def generator_adversarial_loss(fake_logits: list[torch.Tensor]) -> torch.Tensor:
    """Least-squares GAN generator term: fake -> 1, summed over sub-discriminators."""
    loss = fake_logits[0].new_zeros((), dtype=torch.float32)
    for fake in fake_logits:
        loss = loss + torch.mean((1.0 - fake.float()) ** 2)
    return loss


def feature_matching_loss(real_features: list[list[torch.Tensor]], fake_features: list[list[torch.Tensor]]) -> torch.Tensor:
    """Mean L1 between discriminator feature maps of real and generated audio, summed over layers."""
    loss = real_features[0][0].new_zeros((), dtype=torch.float32)
    for real_maps, fake_maps in zip(real_features, fake_features, strict=True):
        for real, fake in zip(real_maps, fake_maps, strict=True):
            loss = loss + torch.mean(torch.abs(real.detach().float() - fake.float()))
    return loss
