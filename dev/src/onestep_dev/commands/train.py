"""``onestep train``: train a voice's student networks on teacher data (needs the ``train`` extra)."""

from __future__ import annotations

import argparse
import time

from onestep.cli import CLIError


def register(subparsers: argparse._SubParsersAction) -> None:
    from onestep_dev.train.options import add_arguments

    p = subparsers.add_parser("train", help="train acoustic model + vocoder on teacher data (GPU recommended)")
    add_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    started = time.time()
    from onestep_dev.train.options import config_from_args

    cfg = config_from_args(args)
    try:
        from onestep_dev.train.trainer import train
    except ModuleNotFoundError as e:
        raise CLIError(f"training needs the 'train' extra (pip install './dev[train]'): {e}") from e
    final = train(cfg, started)
    print(f"final checkpoint: {final}")
    return 0
