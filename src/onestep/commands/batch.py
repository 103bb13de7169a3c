"""``onestep batch``: bulk synthesis of a txt / JSONL / CSV / Parquet file into audio files + a manifest.

onestep batch texts.txt --out out/                    # out/audio/000001.wav ..., out/manifest.jsonl
onestep batch book.jsonl --out out/ --format flac --workers 2
onestep batch rows.parquet --out /shared/out --ray --ray-address auto --workers 8   # a Ray Data pipeline

Re-running the same command resumes: rows already in the manifest are skipped. The exit status is 1 when
any row of this run failed (the manifest says why), 0 when all were written.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

from onestep.cli import CLIError, add_engine_option


def register(subparsers: argparse._SubParsersAction) -> None:
    from onestep.batch.rows import INPUT_FORMATS
    from onestep.batch.synth import AUDIO_FORMATS
    from onestep.runtime.output import SAMPLE_RATES

    p = subparsers.add_parser("batch", help="synthesize a file of texts (txt/JSONL/CSV/Parquet) into audio files")
    p.add_argument("input", type=Path, help="input file: .txt (one text a line), .jsonl, .csv or .parquet")
    p.add_argument("--out", type=Path, required=True, help="output folder (audio/ + manifest.jsonl)")
    p.add_argument("--input-format", choices=tuple(INPUT_FORMATS), help="input format (default: by extension)")
    p.add_argument("--format", choices=tuple(AUDIO_FORMATS), default="wav", help="audio file format (default wav)")
    p.add_argument(
        "--sample-rate", type=int, choices=SAMPLE_RATES, help="output sample rate in Hz (default: the voice's)"
    )
    p.add_argument("--gain", type=float, default=0.0, help="volume change in dB, with clipping prevention (default 0)")
    p.add_argument(
        "--voice", help="voice of rows that name none: a name, a blend or a voice directory (default: by the text's language)"
    )
    p.add_argument("--speed", type=float, default=1.0, help="speed of rows that give none (0.5-2.0, default 1)")
    p.add_argument("--workers", type=int, help="worker processes / Ray engine actors (default: one per core)")
    p.add_argument("--threads", type=int, default=1, help="ONNX Runtime threads per worker (default 1)")
    p.add_argument("--batch-size", type=int, default=8, help="rows per engine pass (default 8)")
    p.add_argument("--max-chars", type=int, default=5000, help="longest text in characters (default 5000)")
    p.add_argument("--limit", type=int, help="process at most this many rows")
    p.add_argument("--retry-errors", action="store_true", help="also redo rows that failed in an earlier run")
    add_engine_option(p)
    p.add_argument("--voices-dir", type=Path, action="append", default=[], help="extra directory to search for voices")
    p.add_argument("--lexicon", type=Path, help="user pronunciation lexicon file")
    p.add_argument("--ray", action="store_true", help="run as a Ray Data pipeline (pip install 'onestep-tts[ray]')")
    p.add_argument("--ray-address", help="join this Ray cluster ('auto', ray://HOST:PORT); implies --ray")
    p.add_argument("--gpus-per-worker", type=float, default=0.0, help="Ray: GPUs per engine actor (e.g. 0.25)")
    p.add_argument("--frontend-workers", type=int, default=0, help="Ray: text-frontend actors ahead of the engines")
    p.add_argument(
        "--frontend-processes",
        type=int,
        default=0,
        metavar="N",
        help="one engine (e.g. --device cuda) fed by N worker processes that run the text frontend, word timings, "
        "output stage and encoding of each row (the host pool; --batch-size is texts per engine pass: 64 suits a "
        "GPU). Local: the engine in this process, --workers unused; with --ray: each of the --workers engine actors "
        "owns N such processes (one actor per GPU). Default 0: --workers processes (or actors), each its own engine",
    )
    p.add_argument("--quiet", action="store_true", help="no progress output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from onestep.batch.job import BatchJob, run_batch
    from onestep.batch.rows import InputError
    from onestep.batch.synth import SynthSettings

    logging.basicConfig(level="WARNING", format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    use_ray = args.ray or bool(args.ray_address)
    workers = args.workers if args.workers is not None else max(1, os.cpu_count() or 1)
    try:
        job = BatchJob(
            input=args.input,
            synth=SynthSettings(
                out_dir=str(args.out),
                audio_format=args.format,
                voice=args.voice,
                speed=args.speed,
                max_chars=args.max_chars,
                engine=args.engine,
                threads=args.threads,
                voices_dirs=tuple(str(d) for d in args.voices_dir),
                lexicon=None if args.lexicon is None else str(args.lexicon),
                sample_rate=args.sample_rate,
                gain_db=args.gain,
            ),
            input_format=args.input_format,
            workers=workers,
            batch_size=args.batch_size,
            retry_errors=args.retry_errors,
            limit=args.limit,
            ray=use_ray,
            ray_address=args.ray_address,
            gpus_per_worker=args.gpus_per_worker,
            frontend_workers=args.frontend_workers,
            frontend_processes=args.frontend_processes,
        )
        if not 0.5 <= args.speed <= 2.0:
            raise ValueError(f"--speed must be between 0.5 and 2.0, got {args.speed}")
        summary = run_batch(job, show_progress=not args.quiet)
    except (InputError, ValueError, ImportError) as e:
        raise CLIError(str(e)) from e
    print(
        f"{summary['rows']} row(s) done ({summary['errors']} with errors, {summary['skipped']} skipped as done "
        f"before): {args.out / 'manifest.jsonl'}"
    )
    if summary["errors"]:
        print(
            f"error: {summary['errors']} of {summary['rows']} row(s) failed; their manifest entries say why "
            "(--retry-errors redoes them)",
            file=sys.stderr,
        )
        return 1
    return 0
