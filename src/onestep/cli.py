"""``onestep`` command line: a thin dispatcher over ``onestep.commands.<name>`` modules.

Each command module defines ``register(subparsers) -> None`` (adds its parser and sets ``func``) and keeps
its heavy imports inside the function that runs it, so ``onestep --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from onestep.errors import UserError

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
    "eval_frontend",
    "train",
    "export",
)


class CLIError(UserError):
    """A bad command-line option, reported like every :class:`~onestep.errors.UserError`."""


def add_engine_option(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--engine NAME`` (choices from the engine registry) and its alias ``--device cpu|cuda``; both set
    ``args.engine`` (a device is turned into its engine by ``onestep.runtime.engines.get_engine``)."""
    from onestep.runtime.engines import DEFAULT_ENGINE, ENGINES, device_aliases, engine_names

    described = "; ".join(f"{kind.name}: {kind.description}" for kind in ENGINES)
    p.add_argument("--engine", choices=engine_names(), default=DEFAULT_ENGINE, help=f"synthesis engine ({described})")
    p.add_argument(
        "--device",
        dest="engine",
        choices=device_aliases(),
        default=argparse.SUPPRESS,
        help="alias of --engine by hardware: " + ", ".join(f"{k.device} = {k.name}" for k in ENGINES),
    )


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
    except (UserError, FileNotFoundError) as e:  # the one place user errors (and a path given that does not
        # exist) become a message + exit 2; every other error is a bug and keeps its traceback
        print(f"onestep: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
