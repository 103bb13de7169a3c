"""``onestep`` command line: a thin dispatcher over ``onestep.commands.<name>`` modules.

Each command module defines ``register(subparsers) -> None`` (adds its parser and sets ``func``) and keeps
its heavy imports inside the function that runs it, so ``onestep --help`` stays fast.

The commands users do not run (benchmarks, evaluation, training, export) live in the development
distribution (``onestep-tts-dev``, ``dev/`` of the repository, package ``onestep_dev``), named here in one
table, :data:`DEV_COMMANDS`: their modules are imported only when the parser is built and that distribution is
installed. Without it each still shows in ``onestep --help`` and, when run, prints how to install it and
exits 2. Nothing else in ``onestep`` names ``onestep_dev`` (tests/test_architecture.py).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from onestep.errors import UserError

COMMANDS: tuple[str, ...] = (
    "say",
    "phonemize",
    "voices",
    "doctor",
    "serve",
    "wyoming",
    "batch",
)


@dataclass(frozen=True)
class DevCommand:
    """A command of the development distribution.

    Attributes:
        name: the command on the command line (``eval-frontend``).
        module: the module that registers it (``register(subparsers)``), imported only when present.
        help: its one-line help, shown also where the distribution is not installed.
    """

    name: str
    module: str
    help: str


DEV_PACKAGE = "onestep_dev"
DEV_INSTALL = "pip install ./dev (from the repository root; or pip install onestep-tts-dev)"
DEV_COMMANDS: tuple[DevCommand, ...] = (
    DevCommand("bench", "onestep_dev.commands.bench", "benchmark the engine, the frontend, a running server, or peer systems"),
    DevCommand("eval", "onestep_dev.commands.eval", "score a voice against its teacher (ASR error rates, DNSMOS)"),
    DevCommand("eval-frontend", "onestep_dev.commands.eval_frontend", "score the text frontend on its case tables"),
    DevCommand("train", "onestep_dev.commands.train", "train acoustic model + vocoder on teacher data"),
    DevCommand("export", "onestep_dev.commands.export", "export a voice (ONNX graphs + voice.json) from a checkpoint"),
)
"""The development distribution's commands, in ``onestep --help`` order."""


def dev_installed() -> bool:
    """Whether the development distribution (``onestep_dev``) can be imported."""
    return importlib.util.find_spec(DEV_PACKAGE) is not None


def _dev_missing(command: DevCommand) -> int:
    print(
        f"onestep: error: `onestep {command.name}` is a development tool: it comes with the onestep-tts-dev "
        f"distribution, which is not installed. Install it with: {DEV_INSTALL}",
        file=sys.stderr,
    )
    return 2


def _register_dev(sub: argparse._SubParsersAction, command: DevCommand, installed: bool) -> None:
    if installed:
        importlib.import_module(command.module).register(sub)
        return
    p = sub.add_parser(command.name, help=f"{command.help} (needs onestep-tts-dev: pip install ./dev)", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER, help=argparse.SUPPRESS)
    p.set_defaults(func=lambda args, c=command: _dev_missing(c))


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
    installed = dev_installed()
    for command in DEV_COMMANDS:
        _register_dev(sub, command, installed)
    return parser


def _missing_dev_command(argv: Sequence[str]) -> DevCommand | None:
    """The development command ``argv`` runs when the development distribution is not installed, else None."""
    name = next((a for a in argv if not a.startswith("-")), None)
    command = next((c for c in DEV_COMMANDS if c.name == name), None)
    return command if command is not None and not dev_installed() else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    missing = _missing_dev_command(argv)
    if missing is not None:  # before parsing: any option it is given (--help too) gets the install hint
        return _dev_missing(missing)
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
