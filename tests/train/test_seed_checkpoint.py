"""Rebuilding a resumable checkpoint from a shipped voice (ONNX) + the kept discriminator."""

from __future__ import annotations

import shutil
from pathlib import Path

import torch

from onestep.config import VoiceConfig
from onestep.model_config import TINY
from onestep.model.export import export_voice
from onestep.model.voice_models import build_models
from onestep_dev.train.checkpoint import load_training_state, save_checkpoint
from onestep_dev.train.discriminators import Discriminators
from onestep_dev.train.seed_checkpoint import seed_checkpoint


def test_seeded_checkpoint_resumes_the_exported_weights(tmp_path: Path) -> None:
    models, disc = build_models(TINY, seed=3), Discriminators(width=4)
    original = save_checkpoint(tmp_path / "run", 42, models, disc, None, {"elapsed_s": 1.0})
    voice = tmp_path / "voice"
    export_voice(models, VoiceConfig(name="seeded", language="en"), voice)
    state = tmp_path / "state"
    state.mkdir()
    for name in ("discriminator.pt", "meta.json"):
        shutil.copy(original / name, state / name)

    ckpt = seed_checkpoint(voice, state, tmp_path / "new-run")

    assert ckpt.name == "step-00000042"
    for name in ("acoustic.pt", "vocoder.pt", "discriminator.pt"):  # fp16 files identical to the trainer's own
        a, b = torch.load(ckpt / name), torch.load(original / name)
        flat_a = a if name == "discriminator.pt" else {f"{k}.{n}": v for k, d in a.items() for n, v in d.items()}
        flat_b = b if name == "discriminator.pt" else {f"{k}.{n}": v for k, d in b.items() for n, v in d.items()}
        assert flat_a.keys() == flat_b.keys() and all(torch.equal(flat_a[k], flat_b[k]) for k in flat_a)
    fresh, fresh_disc = build_models(TINY, seed=9), Discriminators(width=4)
    meta, optimizers_restored = load_training_state(ckpt, fresh, fresh_disc, {})
    assert meta["step"] == 42 and not optimizers_restored
