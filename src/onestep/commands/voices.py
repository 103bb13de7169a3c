"""``onestep voices``: list the voices found on the search path (a table, or JSON with ``--json``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("voices", help="list available voices")
    p.add_argument("--voices-dir", type=Path, action="append", help="extra directory to search for voices")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from onestep.runtime.voices import VoiceCatalog

    catalog = VoiceCatalog(args.voices_dir)
    rows = [
        {
            "name": e.name,
            "language": e.config.language,
            "version": e.config.version,
            "sample_rate": e.config.audio.sample_rate,
            "placeholder": e.config.placeholder,
            "path": str(e.path),
        }
        for e in catalog.entries.values()
    ]
    if args.json:
        print(json.dumps({"voices": rows, "problems": catalog.problems}, ensure_ascii=False, indent=2))
        return 0
    console = Console()
    if not rows:
        searched = ", ".join(str(p) for p in catalog.paths)
        console.print(f"no voices found (searched {searched})")
    else:
        table = Table("name", "language", "version", "sample rate", "placeholder")
        table.add_column("path", overflow="fold")
        for r in rows:
            table.add_row(
                r["name"], r["language"], r["version"], str(r["sample_rate"]), "yes" if r["placeholder"] else "",
                r["path"],
            )
        console.print(table)
    for problem in catalog.problems:
        console.print(f"[yellow]skipped[/] {problem}")
    return 0
