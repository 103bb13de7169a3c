"""The uniform average of several checkpoints' generator weights (acoustic model, decoder, vocoder): a "soup".

Leases that resume one state each restart the learning-rate schedule, so each ends at the common optimum plus a
lease's own drift; the average of sibling leases' weights keeps what they share and shrinks what each drifted on
its own (the leases must descend from one state: the same basin, so that the average is a model at all).
Floating-point tensors are averaged in float32 and stored in their own dtype; every other entry (integer buffers,
configs) must be equal in all inputs and is copied. ``meta.json`` comes from the first input, with the sources
recorded. The output is a checkpoint folder that ``onestep export --checkpoint`` takes like any other.

    python -m onestep_dev.train.average_checkpoints OUT STATE_DIR STATE_DIR [...]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import torch

#: The generator's files in a checkpoint folder (the discriminator is training state: not averaged, not written).
FILES = ("acoustic.pt", "vocoder.pt")


def average(values: list[Any], where: str = "") -> Any:
    """The uniform average of ``values`` (nested dicts of tensors, matched by key); non-float leaves must agree."""
    first = values[0]
    if isinstance(first, dict):
        keys = list(first)
        for v in values[1:]:
            if list(v) != keys:
                raise ValueError(f"checkpoints differ in their entries at {where or 'the top'}")
        return {k: average([v[k] for v in values], f"{where}.{k}" if where else str(k)) for k in keys}
    if torch.is_tensor(first):
        if any(v.shape != first.shape for v in values):
            raise ValueError(f"{where}: shapes differ ({[tuple(v.shape) for v in values]})")
        if first.is_floating_point():
            return (torch.stack([v.float() for v in values]).mean(0)).to(first.dtype)
        if any(not torch.equal(v, first) for v in values[1:]):
            raise ValueError(f"{where}: integer tensors differ")
        return first
    if any(v != first for v in values[1:]):
        raise ValueError(f"{where}: values differ ({values})")
    return first


def average_checkpoints(sources: list[Path], out: Path) -> dict[str, Any]:
    """Write the average of ``sources``' generator weights to ``out``; returns the meta written."""
    if len(sources) < 2:
        raise ValueError("give at least two checkpoints to average")
    metas = [json.loads((s / "meta.json").read_text()) for s in sources]
    if len({json.dumps(m.get("model_config"), sort_keys=True) for m in metas}) != 1:
        raise ValueError("the checkpoints have different model configs")
    averaged = {name: average([torch.load(s / name, map_location="cpu", weights_only=True) for s in sources])
                for name in FILES}  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)  # written only once every input agreed
    for name, state in averaged.items():
        torch.save(state, out / name)
    meta = dict(metas[0])
    meta["averaged_from"] = [{"path": str(s), "step": m.get("step")} for s, m in zip(sources, metas, strict=True)]
    (out / "meta.json").write_text(json.dumps(meta, indent=1))
    return meta


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="checkpoint folder to write")
    ap.add_argument("sources", type=Path, nargs="+", help="checkpoint folders (acoustic.pt, vocoder.pt, meta.json)")
    args = ap.parse_args(argv)
    meta = average_checkpoints(args.sources, args.out)
    print(f"wrote {args.out}: the average of steps {[s['step'] for s in meta['averaged_from']]}")


if __name__ == "__main__":
    main()
