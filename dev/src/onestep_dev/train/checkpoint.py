"""Training checkpoints: small fp16 weight files that travel, plus an optional local resume file.

A checkpoint is a directory ``RUN_DIR/checkpoints/step-XXXXXXXX/`` written under a temporary name and renamed
into place (atomic):

- ``acoustic.pt``: fp16 ``{"acoustic": state_dict, "decoder": state_dict}`` (~11 MB at the full config);
- ``vocoder.pt``: fp16 ``{"vocoder": state_dict}`` (~16 MB);
- ``discriminator.pt``: fp16 discriminator ``state_dict`` (~8 MB);
- ``optimizer.pt``: fp32 master weights and optimizer states (large; needed only to resume bit-exactly,
  may be left behind when a run's checkpoints are copied off the training machine);
- ``meta.json``: step, elapsed seconds, ``ModelConfig``, training config;
- ``ema/`` (trained with ``--ema``): ``acoustic.pt``, ``vocoder.pt`` and ``meta.json`` of the weights' moving
  average, a checkpoint that ``onestep export --checkpoint step-N/ema`` exports.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import torch
from torch import nn

from onestep.model_config import ModelConfig
from onestep.model.voice_models import VoiceModels, build_models

CHECKPOINTS = "checkpoints"
EMA = "ema"  # a checkpoint's moving-average weights (``--ema``): ``step-N/ema/``, itself a checkpoint
_PREFIX = "step-"


def _fp16(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    return {k: (v.detach().to("cpu", torch.float16) if v.is_floating_point() else v.detach().cpu()) for k, v in state.items()}


def _write_generator(folder: Path, models: VoiceModels) -> None:
    """``acoustic.pt`` (acoustic model + decoder) and ``vocoder.pt`` of ``models``, fp16."""
    torch.save({"acoustic": _fp16(models.acoustic.state_dict()), "decoder": _fp16(models.decoder.state_dict())}, folder / "acoustic.pt")
    torch.save({"vocoder": _fp16(models.vocoder.state_dict())}, folder / "vocoder.pt")


def save_checkpoint(
    run_dir: str | Path,
    step: int,
    models: VoiceModels,
    discriminator: nn.Module,
    optimizers: dict[str, torch.optim.Optimizer] | None,
    meta: dict[str, Any],
    keep: int = 2,
    ema: VoiceModels | None = None,
) -> Path:
    """Write checkpoint ``step`` atomically; keep the newest ``keep`` checkpoints. Returns its directory.
    ``ema``: the moving average of the generator's weights, written as the checkpoint ``step-N/ema/``."""
    root = Path(run_dir) / CHECKPOINTS
    root.mkdir(parents=True, exist_ok=True)
    final = root / f"{_PREFIX}{step:08d}"
    tmp = root / f".tmp-{final.name}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    _write_generator(tmp, models)
    torch.save(_fp16(discriminator.state_dict()), tmp / "discriminator.pt")
    if optimizers is not None:
        full = {name: m.state_dict() for name, m in models.parts().items()}
        full["discriminator"] = discriminator.state_dict()
        torch.save({"weights": full, "optimizers": {k: o.state_dict() for k, o in optimizers.items()}}, tmp / "optimizer.pt")
    meta = {**meta, "step": step, "model_config": models.config.to_dict()}
    (tmp / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    if ema is not None:  # a checkpoint of its own inside this one (no discriminator, no optimizer state)
        (tmp / EMA).mkdir()
        _write_generator(tmp / EMA, ema)
        (tmp / EMA / "meta.json").write_text(json.dumps({**meta, "ema": True}, indent=2) + "\n", encoding="utf-8")
    if final.exists():
        shutil.rmtree(final)
    os.replace(tmp, final)
    for old in list_checkpoints(run_dir)[:-keep] if keep > 0 else []:
        shutil.rmtree(old, ignore_errors=True)
    return final


def list_checkpoints(run_dir: str | Path) -> list[Path]:
    """Complete checkpoints of a run, oldest first."""
    root = Path(run_dir) / CHECKPOINTS
    if not root.is_dir():
        return []
    found = [p for p in root.iterdir() if p.is_dir() and p.name.startswith(_PREFIX) and (p / "meta.json").exists()]
    return sorted(found, key=lambda p: int(p.name[len(_PREFIX) :]))


def resolve_checkpoint(path: str | Path) -> Path:
    """A checkpoint directory, or the latest checkpoint of a run directory."""
    path = Path(path)
    if (path / "meta.json").exists():
        return path
    found = list_checkpoints(path)
    if not found:
        raise FileNotFoundError(f"{path}: neither a checkpoint nor a run directory with checkpoints")
    return found[-1]


def read_meta(ckpt: str | Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((Path(ckpt) / "meta.json").read_text(encoding="utf-8"))
    return data


def load_generator(path: str | Path) -> tuple[VoiceModels, dict[str, Any]]:
    """Networks of a checkpoint (fp32 master weights when ``optimizer.pt`` is there, else the fp16 files).

    Returns the models (eval mode, CPU) and metadata for ``voice.json``'s ``extra`` (step, source).
    """
    ckpt = resolve_checkpoint(path)
    meta = read_meta(ckpt)
    models = build_models(ModelConfig.from_dict(meta["model_config"]))
    full = ckpt / "optimizer.pt"
    if full.exists():
        weights = torch.load(full, map_location="cpu", weights_only=True)["weights"]
    else:
        weights = torch.load(ckpt / "acoustic.pt", map_location="cpu", weights_only=True)
        weights.update(torch.load(ckpt / "vocoder.pt", map_location="cpu", weights_only=True))
    for name, module in models.parts().items():
        module.load_state_dict({k: v.float() for k, v in weights[name].items()})
    return models.eval(), {"training_step": int(meta["step"]), "checkpoint": ckpt.name}


def load_training_state(
    ckpt: str | Path,
    models: VoiceModels,
    discriminator: nn.Module,
    optimizers: dict[str, torch.optim.Optimizer],
) -> tuple[dict[str, Any], bool]:
    """Load a checkpoint into live training objects.

    Returns (meta, optimizers_restored). Without ``optimizer.pt`` the fp16 weights are loaded and the
    optimizers are left fresh.
    """
    ckpt = Path(ckpt)
    meta = read_meta(ckpt)
    saved_cfg = ModelConfig.from_dict(meta["model_config"])
    if saved_cfg != models.config:
        raise ValueError(f"{ckpt}: model config {saved_cfg} differs from the run's {models.config}")
    full = ckpt / "optimizer.pt"
    parts: dict[str, nn.Module] = {**models.parts(), "discriminator": discriminator}
    if full.exists():
        state = torch.load(full, map_location="cpu", weights_only=True)
        for name, module in parts.items():
            module.load_state_dict(state["weights"][name])
        for name, opt in optimizers.items():
            opt.load_state_dict(state["optimizers"][name])
        return meta, True
    weights = torch.load(ckpt / "acoustic.pt", map_location="cpu", weights_only=True)
    weights.update(torch.load(ckpt / "vocoder.pt", map_location="cpu", weights_only=True))
    weights["discriminator"] = torch.load(ckpt / "discriminator.pt", map_location="cpu", weights_only=True)
    for name, module in parts.items():
        module.load_state_dict({k: v.float() for k, v in weights[name].items()})
    return meta, False
