"""``onestep serve``: the HTTP server (OpenAI-compatible speech, /synthesize, WebSocket stream, web page).

onestep serve                                   # http://127.0.0.1:8000/  (page), /docs (API)
onestep serve --host 0.0.0.0 --api-key "$KEY" --cors-origin https://example.org
"""

from __future__ import annotations

import argparse
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from onestep.cli import CLIError

if TYPE_CHECKING:  # pragma: no cover
    from onestep.server.backend import TTSBackend
    from onestep.server.config import ServerConfig

API_KEY_ENV = "ONESTEP_API_KEY"
#: GIL switch interval of the server process, ms. With the event loop, the frontend threads and the
#: engine thread all wanting the GIL, CPython's 5 ms let one thread's pure-Python work (the frontend)
#: delay a ready batch or response by up to 5 ms per hand-over.
SWITCH_INTERVAL_MS = 0.5


def add_engine_arguments(p: argparse.ArgumentParser) -> None:
    """Options shared by ``serve`` and ``wyoming``: voices, device, engine threads and request limits."""
    p.add_argument("--voices-dir", type=Path, action="append", default=[], help="extra directory to search for voices")
    p.add_argument(
        "--device", choices=("cpu", "cuda"), default="cpu", help="cpu (thread pool) or cuda (micro-batching)"
    )
    p.add_argument("--lexicon", type=Path, help="user pronunciation lexicon file")
    p.add_argument("--workers", type=int, help="CPU synthesis threads (default: one per core)")
    p.add_argument("--threads", type=int, help="ONNX Runtime threads per graph (default: cores / workers)")
    p.add_argument("--queue-size", type=int, default=32, help="requests that may wait; more get 503 (default 32)")
    p.add_argument("--max-chars", type=int, default=5000, help="longest input text in characters (default 5000)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds a request may go without audio (default 30)")
    p.add_argument("--batch-window-ms", type=float, default=1.0, help="cuda: collect concurrent requests this long")
    p.add_argument("--max-batch", type=int, default=16, help="cuda: most requests per engine call (default 16)")
    p.add_argument(
        "--scheduler",
        choices=("auto", "pool", "batch"),
        default="auto",
        help="auto: thread pool on cpu, micro-batching on cuda; batch: micro-batching on cpu too",
    )
    p.add_argument(
        "--frontend-threads", type=int, default=2, help="cuda: text-frontend threads ahead of the batcher (default 2)"
    )
    p.add_argument(
        "--frontend-processes",
        type=int,
        default=0,
        help="cuda: run the text frontend in N worker processes, off the GIL (default 0: on the threads)",
    )
    p.add_argument(
        "--phrase-cache-mb",
        type=float,
        help="instant phrases: keep up to this many MB of synthesized audio for repeated requests "
        "(default: off, or 64 with --preload)",
    )
    p.add_argument(
        "--preload",
        type=Path,
        metavar="PHRASES",
        help="synthesize these phrases into the phrase cache at start (one per line; text<TAB>voice<TAB>speed)",
    )
    p.add_argument("--no-warmup", action="store_true", help="skip the warm-up synthesis at start-up")
    p.add_argument("--no-tune-gc", action="store_true", help="keep the GC as is (default: gc.freeze after warm-up)")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))


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
    add_engine_arguments(p)
    from onestep.commands.serve_ray import add_ray_arguments

    add_ray_arguments(p)
    p.set_defaults(func=run)


def build_config(args: argparse.Namespace, **extra: object) -> ServerConfig:
    """A validated :class:`ServerConfig` from parsed arguments (a bad value is a CLIError)."""
    from onestep.config import ConfigError
    from onestep.server.config import ServerConfig, default_workers

    try:
        return ServerConfig(
            device=args.device,
            workers=args.workers if args.workers is not None else default_workers(),
            threads=args.threads,
            queue_size=args.queue_size,
            max_chars=args.max_chars,
            timeout=args.timeout,
            voices_dirs=tuple(args.voices_dir),
            lexicon=args.lexicon,
            batch_window_ms=args.batch_window_ms,
            max_batch=args.max_batch,
            scheduler_kind=args.scheduler,
            frontend_threads=args.frontend_threads,
            frontend_processes=args.frontend_processes,
            warmup=not args.no_warmup,
            tune_gc=not args.no_tune_gc,
            **extra,  # type: ignore[arg-type]
        )
    except ConfigError as e:
        raise CLIError(str(e)) from e


def build_backend(config: ServerConfig) -> TTSBackend:
    """The engine behind the server: one shared :class:`onestep.TTS`; error if it finds no voice."""
    from onestep.api import TTS
    from onestep.config import ConfigError
    from onestep.server.backend import TTSBackend

    try:
        tts = TTS(
            device=config.device,
            threads=config.engine_threads,
            lexicon=config.lexicon,
            voices_dir=list(config.voices_dirs) or None,
        )
        pool = None
        if config.frontend_processes:
            from onestep.server.frontend_pool import FrontendProcesses

            pool = FrontendProcesses(config.frontend_processes, config.lexicon)
        backend = TTSBackend(tts, frontend_pool=pool)
        voices = backend.voices()
    except (ConfigError, LookupError, ValueError) as e:
        raise CLIError(str(e)) from e
    if not voices:
        raise CLIError("no voices found: pass --voices-dir DIR or set $ONESTEP_VOICES (see `onestep voices`)")
    return backend


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

    import uvicorn

    from onestep.server.app import create_app

    if not 0.01 <= args.switch_interval_ms <= 100:
        raise CLIError(f"--switch-interval-ms must be 0.01-100, got {args.switch_interval_ms}")
    sys.setswitchinterval(args.switch_interval_ms / 1000.0)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = build_config(
        args,
        host=args.host,
        port=args.port,
        api_key=args.api_key or os.environ.get(API_KEY_ENV) or None,
        cors_origins=tuple(args.cors_origin),
    )
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
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=config.host,
            port=config.port,
            loop=loop,
            http=http,
            access_log=args.access_log,
            log_level=args.log_level,
            ws_max_size=config.max_body_bytes,
            timeout_graceful_shutdown=int(config.timeout) + 1,
        )
    )
    server.run()
    return 0
