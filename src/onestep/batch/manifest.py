"""The job manifest: ``manifest.jsonl`` in the output folder, one JSON object per finished row.

Each line: ``id``, ``text``, ``voice``, ``speed``, ``audio`` (file name relative to the output folder, or
null), ``duration_s``, ``sample_rate``, ``words`` (``[{"text", "start", "end"}]``, seconds) and ``error``
(null when the audio was written). Lines are appended and flushed as rows finish, after their audio file
is complete, so a crashed job leaves a manifest whose rows are all done; a re-run skips them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

MANIFEST_NAME = "manifest.jsonl"
AUDIO_DIR = "audio"


def error_entry(row_id: str, text: str, voice: str | None, speed: float | None, error: str) -> dict[str, Any]:
    """The manifest entry of a row that produced no audio."""
    return {
        "id": row_id,
        "text": text,
        "voice": voice,
        "speed": speed,
        "audio": None,
        "duration_s": 0.0,
        "sample_rate": None,
        "words": [],
        "error": error,
    }


def load_manifest(path: Path) -> dict[str, dict[str, Any]]:
    """The entries of a manifest by id (a later line for an id replaces an earlier one). A last line cut
    short by a crash is ignored."""
    entries: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return entries
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue  # the torn last line of a crashed run
            if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                entries[entry["id"]] = entry
    return entries


def finished_ids(out_dir: Path, retry_errors: bool = False) -> set[str]:
    """Ids a re-run of the job in ``out_dir`` skips: rows whose audio file exists (and, unless
    ``retry_errors``, rows that failed)."""
    done = set()
    for rid, entry in load_manifest(out_dir / MANIFEST_NAME).items():
        if entry.get("error"):
            if not retry_errors:
                done.add(rid)
        elif entry.get("audio") and (out_dir / entry["audio"]).is_file():
            done.add(rid)
    return done


class ManifestWriter:
    """Appends entries to ``out_dir/manifest.jsonl`` (one line each, flushed; fsync every ``sync_every``)."""

    def __init__(self, out_dir: Path, sync_every: int = 256) -> None:
        self.path = out_dir / MANIFEST_NAME
        self._repair_torn_tail()
        self._file: IO[str] = self.path.open("a", encoding="utf-8")
        self._sync_every = sync_every
        self._since_sync = 0

    def _repair_torn_tail(self) -> None:
        """End the file with a newline, so that a line cut short by a crash stays on its own."""
        if self.path.exists() and self.path.stat().st_size:
            with self.path.open("rb+") as f:
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    f.write(b"\n")

    def write(self, entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            self._file.write(json.dumps(entry, ensure_ascii=False) + "\n")
        self._file.flush()
        self._since_sync += len(entries)
        if self._since_sync >= self._sync_every:
            os.fsync(self._file.fileno())
            self._since_sync = 0

    def close(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
