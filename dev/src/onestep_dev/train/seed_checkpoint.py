"""Rebuild a resumable training checkpoint from a shipped voice plus its kept discriminator.

The shipped ONNX files hold every generator weight (initializer names = state-dict names), so between sessions
only the discriminator (``lab/train_state/<voice>/discriminator.pt``, fp16, ~6 MB) and the checkpoint's
``meta.json`` need keeping. ``--resume`` then continues with fresh optimizers (see ``checkpoint.py``).

    python -m onestep_dev.train.seed_checkpoint --voice src/onestep/voices/en-heart \
        --state lab/train_state/en-heart --run runs/en
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

import torch

from onestep.model.export import load_voice_models
from onestep.model.voice_models import VoiceModels
from onestep_dev.train.checkpoint import CHECKPOINTS, _fp16


def _write_weights(models: VoiceModels, state_dir: Path, out: Path) -> None:
    """The checkpoint's fp16 generator files from ``models`` and the kept discriminator from ``state_dir``."""
    torch.save({"acoustic": _fp16(models.acoustic.state_dict()), "decoder": _fp16(models.decoder.state_dict())},
               out / "acoustic.pt")
    torch.save({"vocoder": _fp16(models.vocoder.state_dict())}, out / "vocoder.pt")
    shutil.copy(state_dir / "discriminator.pt", out / "discriminator.pt")


def seed_checkpoint(voice_dir: Path, state_dir: Path, run_dir: Path) -> Path:
    """Write ``run_dir/checkpoints/step-N/`` (N from the kept meta) and return it."""
    meta = json.loads((state_dir / "meta.json").read_text(encoding="utf-8"))
    _, models = load_voice_models(voice_dir)
    out = run_dir / CHECKPOINTS / f"step-{int(meta['step']):08d}"
    out.mkdir(parents=True, exist_ok=True)
    _write_weights(models, state_dir, out)
    shutil.copy(state_dir / "meta.json", out / "meta.json")
    return out


def seed_multispeaker(voice_dir: Path, state_dir: Path, run_dir: Path, speakers: list[str]) -> Path:
    """Write ``run_dir/checkpoints/step-00000000/``: a multi-speaker model seeded from a single-speaker voice.

    Every shared weight (encoder, duration predictor, decoder, vocoder) and the discriminator come from the
    voice and ``state_dir``; the speaker table is random and the speaker projections are zero, so before any
    step every speaker sounds like the seed voice. Training then starts a fresh schedule (step 0).
    """
    from dataclasses import replace

    from onestep.model.voice_models import build_models

    _, seed = load_voice_models(voice_dir)
    config = replace(seed.config, n_speakers=len(speakers))
    models = build_models(config, seed=0)
    for name, module in models.parts().items():
        missing, unexpected = module.load_state_dict(getattr(seed, name).state_dict(), strict=False)
        if unexpected or any("speaker" not in key for key in missing):
            raise ValueError(f"{name}: seed weights do not fit (missing {missing}, unexpected {unexpected})")
    out = run_dir / CHECKPOINTS / f"step-{0:08d}"
    out.mkdir(parents=True, exist_ok=True)
    _write_weights(models, state_dir, out)
    meta = {"step": 0, "elapsed_s": 0.0, "model_config": config.to_dict(), "speakers": speakers,
            "seeded_from": voice_dir.name}
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return out


def grow_speakers(state_dir: Path, run_dir: Path, speakers: list[str], styles: Path | None = None) -> Path:
    """Write ``run_dir/checkpoints/step-N/``: the multi-speaker checkpoint in ``state_dir`` (step N) with its
    speaker table grown to ``speakers`` (which must start with the checkpoint's own speakers, in order).

    Each new speaker's row starts as the row of the known speaker whose teacher voice is closest (cosine of
    the mean Kokoro style vectors in ``styles/<name>.npy``), so a new voice starts from a similar timbre;
    without ``styles`` the new rows start at the mean row. Every other weight is unchanged.
    """
    import numpy as np

    meta = json.loads((state_dir / "meta.json").read_text(encoding="utf-8"))
    known: list[str] = list(meta["speakers"])
    if speakers[: len(known)] != known:
        raise ValueError(f"the new speaker list must start with the checkpoint's {len(known)} speakers, in order")
    weights = torch.load(state_dir / "acoustic.pt", map_location="cpu", weights_only=True)
    table = weights["acoustic"]["speakers.table.weight"]  # (n_known, speaker_dim)
    def direction(voice: str) -> np.ndarray:  # the unit mean style vector of a teacher voice
        mean = np.load(styles / f"{voice}.npy").reshape(-1, 256).mean(0)  # type: ignore[operator]
        return mean / np.linalg.norm(mean)

    known_dirs = np.stack([direction(k) for k in known]) if styles is not None else None  # (n_known, 256)
    rows = []
    for name in speakers[len(known):]:
        if known_dirs is not None:
            rows.append(table[int(np.argmax(known_dirs @ direction(name)))])  # the closest known voice's row
        else:
            rows.append(table.float().mean(0).to(table.dtype))
    weights["acoustic"]["speakers.table.weight"] = torch.cat([table, torch.stack(rows)]) if rows else table
    step = int(meta["step"])
    out = run_dir / CHECKPOINTS / f"step-{step:08d}"
    out.mkdir(parents=True, exist_ok=True)
    torch.save(weights, out / "acoustic.pt")
    for name in ("vocoder.pt", "discriminator.pt"):
        shutil.copy(state_dir / name, out / name)
    meta["speakers"] = speakers
    meta["model_config"] = {**meta["model_config"], "n_speakers": len(speakers)}
    if "train_config" in meta and "model" in meta["train_config"]:
        meta["train_config"]["model"]["n_speakers"] = len(speakers)
    (out / "meta.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--voice", type=Path, help="shipped voice directory (ONNX + voice.json); not with --grow")
    p.add_argument("--state", type=Path, required=True, help="directory with discriminator.pt and meta.json")
    p.add_argument("--run", type=Path, required=True, help="run directory to create the checkpoint in")
    p.add_argument("--speakers", help="comma-separated speaker names: seed a multi-speaker model (step 0)")
    p.add_argument("--grow", action="store_true",
                   help="--state is a multi-speaker checkpoint: grow its speaker table to --speakers (--voice unused)")
    p.add_argument("--styles", type=Path, help="with --grow: folder of <teacher>.npy style tables (new rows start "
                   "as the closest known speaker's)")
    args = p.parse_args(argv)
    if not args.grow and args.voice is None:
        p.error("--voice is required (except with --grow)")
    if args.grow:
        print(grow_speakers(args.state, args.run, args.speakers.split(","), args.styles))
    elif args.speakers:
        print(seed_multispeaker(args.voice, args.state, args.run, args.speakers.split(",")))
    else:
        print(seed_checkpoint(args.voice, args.state, args.run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
