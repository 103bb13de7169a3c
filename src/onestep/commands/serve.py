"""``onestep serve``: the HTTP server (OpenAI-compatible speech, /synthesize, WebSocket stream, web page).

onestep serve                                   # http://127.0.0.1:8000/  (page), /docs (API)
onestep serve --host 0.0.0.0 --api-key "$KEY" --cors-origin https://example.org
"""

from __future__ import annotations

import argparse
import logging
from typing import TYPE_CHECKING

from onestep.cli import CLIError
from onestep.commands.server_options import add_server_arguments, build_config

if TYPE_CHECKING:  # pragma: no cover
    from onestep.server.backend import TTSBackend

API_KEY_ENV = "ONESTEP_API_KEY"
#: GIL switch interval of the server process, ms. With the event loop, the frontend threads and the
#: engine thread all wanting the GIL, CPython's 5 ms let one thread's pure-Python work (the frontend)
#: delay a ready batch or response by up to 5 ms per hand-over.
SWITCH_INTERVAL_MS = 0.5


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("serve", help="run the HTTP/WebSocket server (OpenAI-compatible speech endpoint)")
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="TCP port (default 8000)")
    p.add_argument(
        "--api-key", help=f"require 'Authorization: Bearer KEY' on the API (default: ${API_KEY_ENV}, else none)"
    )
    p.add_argument(
        "--cors-origin", action="append", default=[], metavar="ORIGIN", help="allowed CORS origin ('*' = any)"
    )
    p.add_argument("--access-log", action="store_true", help="log every request (off: it costs latency under load)")
    p.add_argument(
        "--switch-interval-ms",
        type=float,
        default=SWITCH_INTERVAL_MS,
        help=f"Python's GIL switch interval (default {SWITCH_INTERVAL_MS:g}; CPython's own is 5)",
    )
    add_server_arguments(p)
    from onestep.commands.serve_ray import add_ray_arguments

    add_ray_arguments(p)
    from onestep.commands.server_settings import add_config_options

    add_config_options(p)
    p.set_defaults(func=run)


def setup_phrases(args: argparse.Namespace, backend: TTSBackend) -> None:
    """Configure the process's phrase cache from ``--phrase-cache-mb`` / ``--preload`` and preload it."""
    from onestep.server.phrases import DEFAULT_MAX_BYTES, configure_shared_cache, preload, read_phrases

    mb = getattr(args, "phrase_cache_mb", None)
    path = getattr(args, "preload", None)
    if mb is not None and mb < 0:
        raise CLIError(f"--phrase-cache-mb must be >= 0, got {mb}")
    max_bytes = int(mb * (1 << 20)) if mb is not None else (DEFAULT_MAX_BYTES if path else 0)
    if path and not max_bytes:
        raise CLIError("--preload needs a phrase cache: leave out --phrase-cache-mb 0")
    cache = configure_shared_cache(max_bytes)
    if cache is not None and path:
        try:
            phrases = read_phrases(path)
        except (OSError, ValueError) as e:
            raise CLIError(f"--preload: {e}") from e
        preload(cache, backend, phrases)


def event_loop_and_parser() -> tuple[str, str]:
    """uvicorn's ``loop`` and ``http``: uvloop and httptools when installed (faster), else asyncio and h11."""
    import importlib.util

    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    http = "httptools" if importlib.util.find_spec("httptools") else "h11"
    return loop, http


def run(args: argparse.Namespace) -> int:
    import sys

    from onestep.commands.server_settings import format_config, resolve
    from onestep.server import require_server_stack

    sources = resolve(args, "serve")  # command line > $ONESTEP_* > --config file > defaults
    if not 0.01 <= args.switch_interval_ms <= 100:
        raise CLIError(f"--switch-interval-ms must be 0.01-100, got {args.switch_interval_ms}")
    config = build_config(
        args,
        host=args.host,
        port=args.port,
        api_key=args.api_key or None,
        cors_origins=tuple(args.cors_origin),
    )
    if args.print_config:
        print(format_config(args, "serve", sources), end="")
        return 0
    require_server_stack("onestep serve")
    from onestep.server.app import create_app
    from onestep.server.builder import build_backend
    from onestep.server.shutdown import build_server

    sys.setswitchinterval(args.switch_interval_ms / 1000.0)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not config.is_loopback and config.api_key is None:
        logging.getLogger("onestep.server").warning(
            "listening on %s without an API key: anyone who can reach it can use it", config.host
        )
    if getattr(args, "ray", False) or getattr(args, "ray_address", None):
        from onestep.commands.serve_ray import run_ray

        return run_ray(args, config)
    backend = build_backend(config)
    setup_phrases(args, backend)
    app = create_app(config, backend)
    loop, http = event_loop_and_parser()
    logging.getLogger("onestep.server").info("event loop %s, HTTP parser %s", loop, http)
    server = build_server(app, config, http=http, loop=loop, access_log=args.access_log, log_level=args.log_level)
    server.run()
    return 0 if server.clean else 1
