"""``onestep phonemize``: print the frontend's output for text (the contract other tools rely on).

Inputs: TEXT (one input), or ``--input FILE`` (one input per line, ``-`` = stdin lines), or else all of stdin
as one input. Output, one line per input in input order: the phoneme string, or with ``--json`` one object
``{"text", "normalized", "segments": [{"lang", "text", "pinyin" (zh only), "phonemes"}]}`` (UTF-8, not
ASCII-escaped). An empty input line gives an empty line / an object with no segments. ``--lang`` gives the
language of an input of digits and symbols alone ("3+5=8", "14:30"; default English), as a voice's language does.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from onestep.cli import CLIError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("phonemize", help="show normalized text, pinyin and phonemes for text")
    p.add_argument("text", nargs="?", metavar="TEXT", help="text to phonemize (default: stdin)")
    p.add_argument("--json", action="store_true", help="one JSON object per input instead of phonemes")
    p.add_argument("--lexicon", type=Path, metavar="FILE", help="user lexicon JSON (default: $ONESTEP_LEXICON)")
    p.add_argument("--input", metavar="FILE", help="read inputs from FILE, one per line ('-' = stdin)")
    p.add_argument("--lang", metavar="CODE", help="language of an input with no letters, e.g. 3+5=8 (default: en)")
    p.set_defaults(func=run)


def _inputs(args: argparse.Namespace) -> Iterator[str]:
    if args.text is not None and args.input is not None:
        raise CLIError("give either TEXT or --input FILE, not both")
    if args.text is not None:
        yield args.text
        return
    if args.input == "-":
        for line in sys.stdin:
            yield line.rstrip("\r\n")
        return
    if args.input is not None:
        try:
            content = Path(args.input).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CLIError(f"cannot read input file {args.input}: {e.strerror if isinstance(e, OSError) else e}")
        yield from content.splitlines()
        return
    if sys.stdin is None or sys.stdin.isatty():
        raise CLIError("no text: give TEXT, --input FILE, or pipe text on stdin")
    yield sys.stdin.read().rstrip("\r\n")


def run(args: argparse.Namespace) -> int:
    import json

    from onestep.frontend.pipeline import Frontend, utterance_to_dict
    from onestep.languages import UnknownLanguageError, get_language

    if args.lang is not None:
        try:
            get_language(args.lang)
        except UnknownLanguageError as e:
            raise CLIError(str(e)) from None
    inputs = _inputs(args)
    frontend = Frontend(lexicon=args.lexicon)
    for text in inputs:
        utt = frontend.phonemize(text, args.lang)
        line = json.dumps(utterance_to_dict(utt), ensure_ascii=False) if args.json else utt.phonemes
        print(line, flush=True)
    return 0
