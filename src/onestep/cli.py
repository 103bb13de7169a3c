"""``onestep`` command line: a thin dispatcher over ``onestep.commands.<name>`` modules.

Each command module defines ``register(subparsers) -> None`` (adds its parser and sets ``func``) and keeps
its heavy imports inside the function that runs it, so ``onestep --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: tuple[str, ...] = (
    "say",
    "phonemize",
    "voices",
    "doctor",
    "serve",
    "wyoming",
    "batch",
    "bench",
    "eval",
    "train",
    "export",
)


class CLIError(Exception):
    """An error to report to the user as ``onestep: error: <message>`` with exit status 2."""


def build_parser() -> argparse.ArgumentParser:
    from onestep import __version__

    parser = argparse.ArgumentParser(prog="onestep", description="OneStep TTS: one-pass Mandarin/English text-to-speech.")
    parser.add_argument("--version", action="version", version=f"onestep {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"onestep.commands.{name}")
        except ModuleNotFoundError as e:
            if e.name == f"onestep.commands.{name}":
                continue  # command not built yet
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except CLIError as e:
        print(f"onestep: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
