"""``TrainConfig`` and its command-line options (torch-free, so ``onestep --help`` stays fast)."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from onestep.config import ConfigError
from onestep.model_config import TINY, ModelConfig


@dataclass(frozen=True)
class TrainConfig:
    """One training run of a voice (acoustic model + decoder + vocoder together).

    Attributes:
        data: teacher data directory (docs/ARCHITECTURE.md, "Teacher data").
        out: run directory (logs, samples, checkpoints).
        steps: stop after this many steps (total, counting resumed ones); None = no step limit.
        minutes: stop this many wall-clock minutes after the process started (loading included); None = none.
        resume: continue from the run directory's latest checkpoint if there is one.
        restart_schedule: with ``resume``: run a new schedule over this invocation's budget (warm-up, cosine
            decay from the peak rates, GAN start and vocoder fine-tune phases), i.e. a fine-tune of the
            checkpoint, instead of continuing the checkpoint's schedule (whose progress counts the earlier
            runs' time and steps). ``steps`` then counts this invocation's steps.
        device: ``"cuda"``, ``"cpu"`` or ``"auto"`` (CUDA when available).
        seed: initialisation and sampling seed.
        model: network sizes.
        batch_acoustic: utterances per acoustic batch (whole utterances, similar lengths).
        batch_vocoder: segments per vocoder batch.
        segment_frames: vocoder segment length in frames (80 = 1 s).
        lr_acoustic, lr_vocoder, lr_discriminator: peak AdamW learning rates.
        warmup_steps: linear learning-rate warm-up (again after a weights-only resume, whose optimizers start
            fresh); then cosine decay to 10 % over the budget.
        mel_l2: weight of the L2 term added to the acoustic model's L1 mel loss.
        mel_weight: weight of the vocoder's mel L1 loss against the GAN terms.
        fm_weight: weight of the feature-matching loss.
        discriminator_width: base channel count of the discriminators (32 ≈ 4.6 M parameters).
        gan_start: fraction of the budget the vocoder trains on the mel loss alone before the GAN starts.
        vocoder_finetune: final fraction of the budget in which the vocoder hears the decoder's predicted mels
            (teacher durations) instead of teacher mels.
        keep_before_finetune: also write the weights of the step the vocoder fine-tune begins at, under
            ``out/before-finetune/`` (one kept), so that a lease can compare the vocoder with and without it.
        freeze_vocoder: train the acoustic model and decoder only; the vocoder and the discriminators keep the
            weights they start with (no vocoder batches, no GAN; ``gan_start``, ``vocoder_finetune`` and the
            vocoder's and discriminators' learning rates then do nothing). For a resumed lease whose vocoder
            should stay exactly as shipped while the acoustic side trains.
        ema: decay of an exponential moving average of the generator's weights, written beside each checkpoint
            (``step-N/ema/``, :mod:`onestep_dev.train.ema`); 0 = none.
        amp: bf16 autocast on CUDA (the vocoder head, iSTFT and all mels stay fp32).
        checkpoint_minutes, sample_minutes: checkpoint / audio sample interval.
        log_every: steps between log lines.
    """

    data: str
    out: str
    steps: int | None = None
    minutes: float | None = None
    resume: bool = False
    restart_schedule: bool = False
    device: str = "auto"
    seed: int = 0
    model: ModelConfig = field(default_factory=ModelConfig)
    batch_acoustic: int = 32
    batch_vocoder: int = 16
    segment_frames: int = 64
    lr_acoustic: float = 1e-3
    lr_vocoder: float = 5e-4
    lr_discriminator: float = 5e-4
    warmup_steps: int = 200
    mel_l2: float = 0.0
    mel_weight: float = 45.0
    fm_weight: float = 2.0
    discriminator_width: int = 32
    gan_start: float = 0.05
    vocoder_finetune: float = 0.25
    keep_before_finetune: bool = False
    freeze_vocoder: bool = False
    ema: float = 0.0
    amp: bool = True
    checkpoint_minutes: float = 5.0
    sample_minutes: float = 5.0
    log_every: int = 50

    def __post_init__(self) -> None:
        if self.steps is None and self.minutes is None:
            raise ConfigError("give a budget: --steps and/or --minutes")
        if self.steps is not None and self.steps <= 0:
            raise ConfigError(f"steps must be positive, got {self.steps}")
        if self.minutes is not None and self.minutes <= 0:
            raise ConfigError(f"minutes must be positive, got {self.minutes}")
        if self.device not in ("auto", "cpu", "cuda") and not self.device.startswith("cuda:"):
            raise ConfigError(f"device must be auto, cpu or cuda[:N], got {self.device!r}")
        for name in ("batch_acoustic", "batch_vocoder", "segment_frames", "log_every", "discriminator_width"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"{name} must be positive, got {getattr(self, name)}")
        for name in ("lr_acoustic", "lr_vocoder", "lr_discriminator", "checkpoint_minutes", "sample_minutes"):
            if getattr(self, name) <= 0:
                raise ConfigError(f"{name} must be positive, got {getattr(self, name)}")
        for name in ("gan_start", "vocoder_finetune"):
            if not 0.0 <= getattr(self, name) < 1.0:
                raise ConfigError(f"{name} must be in [0, 1), got {getattr(self, name)}")
        if not 0.0 <= self.ema < 1.0:
            raise ConfigError(f"ema must be in [0, 1) (0: none), got {self.ema}")
        if self.gan_start + self.vocoder_finetune >= 1.0:
            raise ConfigError("gan_start + vocoder_finetune must be < 1")
        if self.restart_schedule and not self.resume:
            raise ConfigError("--restart-schedule restarts a resumed run's schedule: give --resume too")

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_SCALARS = [
    f for f in fields(TrainConfig) if f.name not in ("data", "out", "resume", "restart_schedule", "model", "amp", "keep_before_finetune", "freeze_vocoder")
]
_HELP = {
    "steps": "stop after this many steps in total",
    "minutes": "stop this many minutes after start (loading included; final checkpoint fits inside)",
    "device": "auto, cpu or cuda[:N]",
    "seed": "initialisation and sampling seed",
    "batch_acoustic": "utterances per acoustic batch",
    "batch_vocoder": "segments per vocoder batch",
    "segment_frames": "vocoder segment length in frames (80 = 1 s)",
    "lr_acoustic": "peak learning rate of acoustic model + decoder",
    "lr_vocoder": "peak learning rate of the vocoder",
    "lr_discriminator": "peak learning rate of the discriminators",
    "warmup_steps": "linear learning-rate warm-up steps (then cosine to 10%%)",
    "mel_l2": "weight of an L2 term added to the acoustic L1 mel loss",
    "mel_weight": "vocoder mel L1 weight",
    "fm_weight": "feature-matching weight",
    "discriminator_width": "base channels of the discriminators",
    "gan_start": "budget fraction trained on the mel loss alone before the GAN starts",
    "vocoder_finetune": "final budget fraction where the vocoder hears the decoder's mels",
    "ema": "decay of a moving average of the generator weights saved as step-N/ema/ (0: none; e.g. 0.999)",
    "checkpoint_minutes": "minutes between checkpoints",
    "sample_minutes": "minutes between audio samples",
    "log_every": "steps between log lines",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the training options (one per ``TrainConfig`` field) to ``parser``."""
    parser.add_argument("--data", required=True, help="teacher data directory (meta.jsonl + shard-*.npz)")
    parser.add_argument("--out", required=True, help="run directory (logs, samples, checkpoints)")
    parser.add_argument("--resume", action="store_true", help="continue from the latest checkpoint in --out")
    parser.add_argument(
        "--restart-schedule",
        action="store_true",
        help="with --resume: a new learning-rate/GAN/fine-tune schedule over this run's budget (a fine-tune)",
    )
    parser.add_argument(
        "--keep-before-finetune",
        action="store_true",
        help="also keep the weights of the step the vocoder fine-tune starts at (out/before-finetune/)",
    )
    parser.add_argument(
        "--freeze-vocoder",
        action="store_true",
        help="train the acoustic model and decoder only: the vocoder and discriminators keep their weights",
    )
    parser.add_argument("--no-amp", dest="amp", action="store_false", help="train in fp32 on CUDA (default bf16 autocast)")
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--tiny", action="store_true", help="tiny network sizes (tests)")
    size.add_argument("--model-config", type=Path, help="JSON file of ModelConfig fields (default: the full config)")
    defaults = TrainConfig(data="", out="", steps=1)
    for f in _SCALARS:
        default = getattr(defaults, f.name) if f.name != "steps" else None
        kind = {"steps": int, "minutes": float}.get(f.name, type(default) if default is not None else str)
        parser.add_argument(
            "--" + f.name.replace("_", "-"), type=kind, default=default, help=f"{_HELP[f.name]} (default: {default})"
        )


def config_from_args(args: argparse.Namespace) -> TrainConfig:
    """Build and validate a ``TrainConfig`` from parsed options."""
    if args.tiny:
        model = TINY
    elif args.model_config:
        try:
            model = ModelConfig.from_dict(json.loads(Path(args.model_config).read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError) as e:
            raise ConfigError(f"cannot read model config {args.model_config}: {e}") from e
    else:
        model = ModelConfig()
    speakers_file = Path(args.data) / "speakers.json"
    if speakers_file.exists() and model.n_speakers == 0:  # a multi-speaker dataset sizes the speaker table
        try:
            model = replace(model, n_speakers=len(json.loads(speakers_file.read_text(encoding="utf-8"))))
        except (OSError, json.JSONDecodeError, TypeError) as e:
            raise ConfigError(f"cannot read {speakers_file}: {e}") from e
    values = {f.name: getattr(args, f.name) for f in _SCALARS}
    return TrainConfig(
        data=str(args.data), out=str(args.out), resume=args.resume, restart_schedule=args.restart_schedule,
        amp=args.amp, keep_before_finetune=args.keep_before_finetune, freeze_vocoder=args.freeze_vocoder, model=model,
        **values,
    )  # fmt: skip
