"""Checkpoint files: sizes that travel, weights-only resume, options validation."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
import torch

from onestep.config import ConfigError
from onestep.model_config import TINY, ModelConfig
from onestep.model.voice_models import build_models
from onestep_dev.train.checkpoint import (
    load_generator,
    load_training_state,
    resolve_checkpoint,
    save_checkpoint,
)
from onestep_dev.train.discriminators import Discriminators
from onestep_dev.train.options import TrainConfig, add_arguments, config_from_args

MB = 1024 * 1024


def test_full_config_checkpoint_files_are_small(tmp_path: Path) -> None:
    models = build_models(ModelConfig())
    ckpt = save_checkpoint(tmp_path, 5, models, Discriminators(), None, {"elapsed_s": 1.0})
    sizes = {p.name: p.stat().st_size for p in ckpt.iterdir()}
    assert set(sizes) == {"acoustic.pt", "vocoder.pt", "discriminator.pt", "meta.json"}
    assert all(size <= 16 * MB for size in sizes.values()), sizes
    assert sizes["acoustic.pt"] + sizes["vocoder.pt"] <= 30 * MB


def test_weights_only_resume_loads_fp16_weights(tmp_path: Path) -> None:
    models, disc = build_models(TINY, seed=1), Discriminators(width=4)
    ckpt = save_checkpoint(tmp_path, 7, models, disc, None, {"elapsed_s": 3.0})
    fresh, fresh_disc = build_models(TINY, seed=2), Discriminators(width=4)
    opts = {"vocoder": torch.optim.AdamW(fresh.vocoder.parameters())}
    meta, restored = load_training_state(ckpt, fresh, fresh_disc, opts)
    assert meta["step"] == 7 and not restored
    for part in ("acoustic", "decoder", "vocoder"):
        want = {k: v.half().float() for k, v in getattr(models, part).state_dict().items()}
        got = getattr(fresh, part).state_dict()
        assert all(torch.equal(got[k], want[k]) for k in want), part
    assert resolve_checkpoint(tmp_path) == ckpt
    exported, extra = load_generator(tmp_path)
    assert exported.config == TINY and extra["training_step"] == 7


def test_resume_refuses_another_model_config(tmp_path: Path) -> None:
    ckpt = save_checkpoint(tmp_path, 1, build_models(TINY), Discriminators(width=4), None, {})
    other = build_models(ModelConfig(**{**TINY.to_dict(), "decoder_blocks": 3}))
    with pytest.raises(ValueError, match="model config"):
        load_training_state(ckpt, other, Discriminators(width=4), {})


def _parse(*argv: str) -> TrainConfig:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return config_from_args(parser.parse_args(["--data", "d", "--out", "o", *argv]))


def test_options_from_command_line() -> None:
    cfg = _parse("--minutes", "18", "--tiny", "--batch-vocoder", "64", "--gan-start", "0.1", "--no-amp")
    assert cfg.minutes == 18.0 and cfg.steps is None and cfg.model == TINY
    assert cfg.batch_vocoder == 64 and cfg.gan_start == 0.1 and not cfg.amp
    assert _parse("--steps", "10").model == ModelConfig()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ((), "budget"),
        (("--steps", "0"), "steps"),
        (("--steps", "5", "--gan-start", "0.6", "--vocoder-finetune", "0.5"), "gan_start"),
        (("--steps", "5", "--device", "tpu"), "device"),
        (("--steps", "5", "--batch-acoustic", "0"), "batch_acoustic"),
        (("--steps", "5", "--restart-schedule"), "--resume"),
    ],
)
def test_options_are_validated(argv: tuple[str, ...], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        _parse(*argv)
