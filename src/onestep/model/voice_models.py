"""The three networks of one voice, built together from a ``ModelConfig``."""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
from torch import nn

from onestep.model.acoustic import AcousticModel, MelDecoder
from onestep.model_config import ModelConfig
from onestep.model.layers import init_weights
from onestep.model.vocoder import Vocoder

INITIAL_FRAMES_PER_ID = 6.0  # ≈ 75 ms, the order of an average phoneme
PARTS: tuple[str, ...] = ("acoustic", "decoder", "vocoder")


@dataclass
class VoiceModels:
    """Acoustic model, mel decoder and vocoder of one voice (one ONNX graph each)."""

    config: ModelConfig
    acoustic: AcousticModel
    decoder: MelDecoder
    vocoder: Vocoder

    def parts(self) -> dict[str, nn.Module]:
        """``{"acoustic": ..., "decoder": ..., "vocoder": ...}``."""
        return {name: getattr(self, name) for name in PARTS}

    def parameter_counts(self) -> dict[str, int]:
        """Trainable parameters per network."""
        return {name: sum(p.numel() for p in m.parameters()) for name, m in self.parts().items()}

    def to(self, device: torch.device | str) -> VoiceModels:
        for m in self.parts().values():
            m.to(device)
        return self

    def eval(self) -> VoiceModels:
        for m in self.parts().values():
            m.eval()
        return self


def build_models(config: ModelConfig, seed: int | None = None) -> VoiceModels:
    """Create freshly initialised networks (deterministic when ``seed`` is given)."""
    generator_state = torch.random.get_rng_state()
    if seed is not None:
        torch.manual_seed(seed)
    try:
        acoustic, decoder, vocoder = AcousticModel(config), MelDecoder(config), Vocoder(config)
        for m in (acoustic, decoder, vocoder):
            m.apply(init_weights)
        torch.nn.init.normal_(acoustic.embed.weight, std=0.3)
        # start near a typical phoneme length so an untrained voice already yields audio of plausible length
        torch.nn.init.constant_(acoustic.duration_proj.bias, math.log1p(INITIAL_FRAMES_PER_ID))
        if config.multi_speaker:
            torch.nn.init.normal_(acoustic.speakers.table.weight, std=1.0)
            for bias in (acoustic.speaker_encoder, acoustic.speaker_duration, decoder.speaker_bias):
                torch.nn.init.zeros_(bias.proj.weight)  # a seeded model starts as its seed voice
                torch.nn.init.zeros_(bias.proj.bias)
    finally:
        if seed is not None:
            torch.random.set_rng_state(generator_state)
    return VoiceModels(config, acoustic, decoder, vocoder)
