"""``onestep wyoming``: serve the voices over the Wyoming protocol (Home Assistant's voice pipeline).

onestep wyoming --uri tcp://127.0.0.1:10200
# Home Assistant: Settings -> Devices & services -> Add integration -> Wyoming Protocol -> host, 10200
"""

from __future__ import annotations

import argparse
import logging

from onestep.cli import CLIError
from onestep.runtime.output import SAMPLE_RATES


def register(subparsers: argparse._SubParsersAction) -> None:
    from onestep.commands.server_options import add_server_arguments

    p = subparsers.add_parser("wyoming", help="run a Wyoming protocol TTS server (Home Assistant)")
    p.add_argument("--uri", default="tcp://127.0.0.1:10200", help="tcp://HOST:PORT, unix://PATH or stdio://")
    p.add_argument("--samples-per-chunk", type=int, default=1024, help="audio samples per AudioChunk event")
    p.add_argument("--sample-rate", type=int, choices=SAMPLE_RATES, help="output Hz (default: the voice's, 24000)")
    p.add_argument("--gain", type=float, default=0.0, help="volume change in dB, with clipping prevention")
    add_server_arguments(p, http=False)
    from onestep.commands.server_settings import add_config_options

    add_config_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import asyncio  # here, not at the top: every `onestep` command imports this module to build its parser
    import contextlib
    import signal

    from onestep.commands.server_options import build_config
    from onestep.commands.server_settings import format_config, resolve
    from onestep.server import require_server_stack

    sources = resolve(args, "wyoming")  # command line > $ONESTEP_* > --config file > defaults
    if not args.uri.startswith(("tcp://", "unix://", "stdio://")):
        raise CLIError(f"--uri must start with tcp://, unix:// or stdio://, got {args.uri!r}")
    if args.samples_per_chunk < 1:
        raise CLIError(f"--samples-per-chunk must be >= 1, got {args.samples_per_chunk}")
    config = build_config(args)
    if args.print_config:
        print(format_config(args, "wyoming", sources), end="")
        return 0
    require_server_stack("onestep wyoming")
    from onestep.commands.serve import setup_phrases
    from onestep.runtime.output import OutputOptions
    from onestep.server.app import make_scheduler
    from onestep.server.builder import build_backend
    from onestep.server.wyoming_server import WyomingService

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    backend = build_backend(config)
    setup_phrases(args, backend)
    output = OutputOptions(args.sample_rate, args.gain)
    service = WyomingService(config, backend, make_scheduler(config, backend), args.samples_per_chunk, output)

    async def main() -> None:
        task = asyncio.current_task()
        with contextlib.suppress(NotImplementedError, RuntimeError):  # SIGTERM = stop, like Ctrl-C
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, task.cancel)  # type: ignore[union-attr]
        await service.run(args.uri)

    try:
        asyncio.run(main())
    except asyncio.CancelledError:
        pass
    except ValueError as e:  # the wyoming library rejects a malformed URI (e.g. tcp:// without a port)
        raise CLIError(f"bad --uri {args.uri!r}: {e}") from e
    return 0
