"""Options shared by ``onestep serve`` and ``onestep wyoming``, and the :class:`ServerConfig` they describe."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from onestep.cli import add_engine_option

if TYPE_CHECKING:  # pragma: no cover
    from onestep.server.config import ServerConfig


#: Options only the HTTP/WebSocket server reads (``serve``): ``wyoming`` neither lists nor takes them.
HTTP_ONLY = ("max_header_bytes", "header_timeout", "body_timeout", "ws_max_pending")


def add_server_arguments(p: argparse.ArgumentParser, *, http: bool = True) -> None:
    """Options shared by ``serve`` and ``wyoming`` (voices, engine, engine threads and request limits), and with
    ``http`` the HTTP/WebSocket connection limits (:data:`HTTP_ONLY`) that only ``serve`` reads."""
    p.add_argument("--voices-dir", type=Path, action="append", default=[], help="extra directory to search for voices")
    add_engine_option(p)
    p.add_argument("--lexicon", type=Path, help="user pronunciation lexicon file")
    p.add_argument("--workers", type=int, help="CPU synthesis threads (default: one per core)")
    p.add_argument("--threads", type=int, help="ONNX Runtime threads per graph (default: cores / workers)")
    p.add_argument("--queue-size", type=int, default=32, help="requests that may wait; more are refused (default 32)")
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
        help="each request's host work in N worker processes, off the server's GIL: cuda (micro-batching) the text "
        "frontend and the finishing (timings, resampling, encoding); cpu the frontend (default 0: in the server)",
    )
    p.add_argument(
        "--no-inline-when-idle",
        action="store_true",
        help="with --frontend-processes: send every request's host work to the workers, also a lone request on an "
        "idle server (default: that one stays in the server process, skipping the hops)",
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
    p.add_argument(
        "--max-phonemes", type=int, default=10_000,
        help="most phonemes per request (~0.075 s of speech each); more is refused (default 10000)",
    )
    p.add_argument(
        "--admission-deadline-ms", type=float, default=2000.0,
        help="refuse a request whose audio could not start within this (default 2000; 0 = off)",
    )
    p.add_argument(
        "--drain-timeout", type=float, default=30.0,
        help="on SIGTERM: seconds to let requests in progress finish before cutting them (default 30)",
    )
    if http:
        p.add_argument("--max-header-bytes", type=int, default=16384, help="largest request headers (default 16384)")
        p.add_argument(
            "--header-timeout", type=float, default=10.0, help="seconds to receive request headers (default 10)"
        )
        p.add_argument(
            "--body-timeout", type=float, default=30.0, help="seconds to receive a request body (default 30)"
        )
        p.add_argument(
            "--ws-max-pending", type=int, default=8, help="WebSocket requests that may wait per connection (default 8)"
        )
    p.add_argument(
        "--max-audio-s", type=float, default=900.0,
        help="most seconds of audio per request (planned: say-as expanded, / speed, + breaks); more gets 413 (default 900)",
    )
    p.add_argument(
        "--max-buffered-s", type=float, default=10.0,
        help="seconds of audio a stream may buffer for a slow client before the engine waits (default 10)",
    )
    p.add_argument(
        "--write-timeout", type=float, default=30.0,
        help="seconds a client may take nothing (send buffer full) before it is cut (default 30)",
    )
    p.add_argument("--no-warmup", action="store_true", help="skip the warm-up synthesis at start-up")
    p.add_argument("--no-tune-gc", action="store_true", help="keep the GC as is (default: gc.freeze after warm-up)")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))


def build_config(args: argparse.Namespace, **extra: object) -> ServerConfig:
    """A validated :class:`ServerConfig` from parsed arguments (a bad value raises ConfigError)."""
    from onestep.server.config import ServerConfig, default_workers

    return ServerConfig(
        engine=args.engine,
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
        inline_when_idle=not args.no_inline_when_idle,
        warmup=not args.no_warmup,
        max_phonemes=args.max_phonemes,
        admission_deadline_ms=args.admission_deadline_ms,
        drain_timeout=args.drain_timeout,
        tune_gc=not args.no_tune_gc,
        max_audio_s=args.max_audio_s,
        max_buffered_s=args.max_buffered_s,
        write_timeout=args.write_timeout,
        **{name: getattr(args, name) for name in HTTP_ONLY if hasattr(args, name)},  # type: ignore[arg-type]
        **extra,  # type: ignore[arg-type]
    )
