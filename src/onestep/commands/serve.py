"""``onestep serve``: the HTTP server (OpenAI-compatible speech, /synthesize, WebSocket stream, web page).

onestep serve                                   # http://127.0.0.1:8000/  (page), /docs (API)
onestep serve --host 0.0.0.0 --api-key "$KEY" --cors-origin https://example.org
onestep serve --processes 4                     # 4 server processes on the one port (Linux), one engine each
"""

from __future__ import annotations

import argparse
import logging
from typing import TYPE_CHECKING

from onestep.cli import CLIError
from onestep.commands.server_options import add_server_arguments, build_config

if TYPE_CHECKING:  # pragma: no cover
    from onestep.server.backend import TTSBackend
    from onestep.server.config import ServerConfig
    from onestep.server.server_process import ProcessSpec

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
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes sharing the port (Linux SO_REUSEPORT), each a whole server with its own engine "
        "and limits: the HTTP layer on N cores (default 1)",
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
        processes=args.processes,
    )
    if args.print_config:
        print(format_config(args, "serve", sources), end="")
        return 0
    ray = getattr(args, "ray", False) or getattr(args, "ray_address", None)
    if ray and config.processes > 1:
        raise CLIError("--processes does not combine with --ray (Ray Serve has its own replicas: --replicas)")
    require_server_stack("onestep serve")
    setup_process(args)
    if not config.is_loopback and config.api_key is None:
        logging.getLogger("onestep.server").warning(
            "listening on %s without an API key: anyone who can reach it can use it", config.host
        )
    if ray:
        from onestep.commands.serve_ray import run_ray

        return run_ray(args, config)
    if config.processes > 1:
        from onestep.server.supervisor import Supervisor

        return Supervisor(config, args, child_module="onestep.commands.serve_process").run()
    return serve_one(args, config)


def setup_process(args: argparse.Namespace, tag: str = "") -> None:
    """The process's GIL switch interval and logging (``tag``: after the logger's name, e.g. ``[p1]``)."""
    import sys

    sys.setswitchinterval(args.switch_interval_ms / 1000.0)
    logging.basicConfig(
        level=args.log_level.upper(), format=f"%(asctime)s %(levelname)s %(name)s{tag}: %(message)s", force=bool(tag)
    )


def serve_one(args: argparse.Namespace, config: ServerConfig, process: ProcessSpec | None = None) -> int:
    """Serve ``config`` in this process until a signal drains it: the whole server, or with ``process`` one
    server process of ``--processes N`` (its ``SO_REUSEPORT`` socket, listening only after warm-up, ready
    told to the supervisor). Exit status 0 after a clean drain, 1 when streams were cut, 3 when it could not
    start."""
    from onestep.server.app import create_app
    from onestep.server.builder import build_backend
    from onestep.server.shutdown import build_server

    sockets = None
    on_started = None
    if process is not None:
        from onestep.server.server_process import notify_ready, reuseport_socket

        setup_process(args, f"[p{process.index}]")
        try:
            sockets = [reuseport_socket(config.host, config.port)]
        except OSError as e:
            raise CLIError(f"cannot bind {config.host}:{config.port}: {e.strerror or e}") from e

        def on_started() -> None:
            logging.getLogger("onestep.server").info("listening on %s:%d", config.host, config.port)
            notify_ready(process)

    backend = build_backend(config)
    setup_phrases(args, backend)
    app = create_app(config, backend, warm_before_listening=process is not None)
    loop, http = event_loop_and_parser()
    logging.getLogger("onestep.server").info("event loop %s, HTTP parser %s", loop, http)
    server = build_server(
        app, config, http=http, loop=loop, access_log=args.access_log, log_level=args.log_level, on_started=on_started
    )
    server.run(sockets=sockets)
    if not server.started:
        return 3
    return 0 if server.clean else 1
