"""``onestep voices``: list the voices found on the search path (a table, or JSON with ``--json``).

Per voice: its native language, the languages it passed the quality gate in, gender, accent, teacher voice,
version, the model it belongs to (voices of one multi-speaker model blend: ``a:0.7+b:0.3``) and its
measured quality (``onestep eval``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("voices", help="list available voices")
    p.add_argument("--voices-dir", type=Path, action="append", help="extra directory to search for voices")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--sample", type=int, metavar="N",
        help="instead: N seeded voices (voice=seed:NUMBER[:LANG][:female|male]) with the voices each one mixes",
    )
    p.add_argument("--lang", help="with --sample: the language of the seeded voices (default en)")
    p.add_argument("--gender", choices=("female", "male"), help="with --sample: one gender")
    p.set_defaults(func=run)


def seed_samples(voices: list, n: int, language: str | None, gender: str | None, start: int) -> list[dict]:
    """``n`` seeded voices from ``start`` on: ``{"voice": "seed:...", "mix": {name: weight}}`` each."""
    from onestep.runtime.voices import seeded_blend

    qualifiers = "".join(f":{q}" for q in (language, gender) if q)
    out = []
    for seed in range(start, start + n):
        name, spec = seeded_blend(voices, f"seed:{seed}{qualifiers}")
        out.append({"voice": name, "mix": dict(spec.components)})
    return out


def quality_text(quality: dict[str, dict[str, float]]) -> str:
    """Measured figures per language read, student / teacher: ``"en WER 2.4/2.3 OVRL 3.11/3.24"``."""
    parts = []
    for lang, figures in quality.items():
        cells = [lang]
        for key, label, digits in (("wer", "WER", 1), ("cer", "CER", 1), ("dnsmos_ovrl", "OVRL", 2)):
            if key in figures:
                teacher = figures.get(f"teacher_{key}")
                cells.append(f"{label} {figures[key]:.{digits}f}" + ("" if teacher is None else f"/{teacher:.{digits}f}"))
        if "english_words_heard" in figures:  # code_switch: English words heard inside Mandarin sentences, %
            teacher = figures.get("teacher")
            cells.append(f"{figures['english_words_heard']:.0f} %" + ("" if teacher is None else f"/{teacher:.0f} %"))
        parts.append(" ".join(cells))
    return "; ".join(parts)


def run(args: argparse.Namespace) -> int:
    import sys

    from rich.console import Console
    from rich.table import Table

    from onestep.runtime.voices import VoiceCatalog

    catalog = VoiceCatalog(args.voices_dir)
    if args.sample is not None:
        return _print_samples(catalog, args)
    rows = []
    for e in catalog.entries.values():
        info = e.speaker
        rows.append(
            {
                "name": e.name,
                "language": e.config.language,
                "passes": list(info.languages) if info else [],
                "gender": info.gender if info else "",
                "accent": info.accent if info else "",
                "teacher": e.config.teacher,
                "version": e.config.version,
                "model": e.path.name,
                "blends": info is not None,
                "quality": info.quality if info else {},
                "sample_rate": e.config.audio.sample_rate,
                "placeholder": e.config.placeholder,
                "path": str(e.path),
            }
        )
    if args.json:
        print(json.dumps({"voices": rows, "problems": catalog.problems}, ensure_ascii=False, indent=2))
        return 0
    console = Console() if sys.stdout.isatty() else Console(width=200)  # a pipe or file gets whole lines
    if not rows:
        searched = ", ".join(str(p) for p in catalog.paths)
        console.print(f"no voices found (searched {searched})")
    else:
        table = Table("name", "language", "passes", "gender", "accent", "teacher", "version", "model",
                      "quality (student/teacher)")  # fmt: skip
        for r in rows:
            quality = quality_text(r["quality"])
            table.add_row(
                r["name"] + (" (placeholder)" if r["placeholder"] else ""), r["language"], ",".join(r["passes"]),
                r["gender"], r["accent"], r["teacher"].split("/")[-1], r["version"], r["model"], quality,
            )  # fmt: skip
        console.print(table)
    for problem in catalog.problems:
        console.print(f"[yellow]skipped[/] {problem}")
    return 0


def _print_samples(catalog: object, args: argparse.Namespace) -> int:
    """``--sample N``: seeded voices from a random start (each prints the seed that gives it again)."""
    import secrets

    from onestep.cli import CLIError
    from onestep.runtime.voices import VoiceNotFoundError

    if args.sample < 1 or args.sample > 100:
        raise CLIError(f"--sample must be 1-100, got {args.sample}")
    try:
        samples = seed_samples(list(catalog.entries.values()), args.sample, args.lang, args.gender,  # type: ignore[attr-defined]
                               secrets.randbelow(10**6))  # fmt: skip
    except VoiceNotFoundError as e:
        raise CLIError(str(e)) from None
    if args.json:
        print(json.dumps({"seeds": samples}, ensure_ascii=False, indent=2))
    else:
        for s in samples:
            print(f"{s['voice']:<24} " + " + ".join(f"{n} {w:.2f}" for n, w in s["mix"].items()))
    return 0
