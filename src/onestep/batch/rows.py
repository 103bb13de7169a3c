"""Batch input: txt / JSONL / CSV / Parquet files read as :class:`BatchRow` s.

- ``.txt``: one text per line; the id is the line number (``000001``...); blank lines are skipped.
- ``.jsonl`` / ``.ndjson``: one JSON object per line.
- ``.csv``: a header row, then one row per text.
- ``.parquet``: a table (needs ``pyarrow``, part of the ``ray`` extra).

Records have a ``text`` (or ``ssml``) column, and optionally ``id`` (default: the record's 1-based
position), ``voice`` and ``speed``. SSML (an ``ssml`` column, or text starting with ``<speak`` as in every
interface) is read by the one parser, :mod:`onestep.ssml`, when the row is synthesized (docs/SSML.md). A
record that cannot be used (not an object, bad speed, bad id) still becomes a row, with
:attr:`BatchRow.error` set, so that it is reported in the manifest; so does a row whose SSML is refused.
"""

from __future__ import annotations

import csv
import json
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from onestep.config import SPEED_MAX, SPEED_MIN
from onestep.errors import UserError
from onestep.ssml import is_ssml

INPUT_FORMATS: dict[str, tuple[str, ...]] = {
    "txt": (".txt", ".text"),
    "jsonl": (".jsonl", ".ndjson"),
    "csv": (".csv",),
    "parquet": (".parquet", ".pq"),
}
#: Ids are file names: letters, digits, ``.``, ``_``, ``-``; at most 128 characters; not starting with ``.``.
ID_PATTERN = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")


class InputError(UserError, ValueError):
    """The input file as a whole cannot be read (missing, unknown format, not a table)."""


@dataclass(frozen=True)
class BatchRow:
    """One text to synthesize.

    Attributes:
        id: unique id; also the audio file's name (without extension).
        text: the plain text to speak ("" when the row is SSML).
        voice: voice name, or None for the job's voice / the text's language default.
        speed: engine speed (0.5-2.0), or None for the job's speed (an SSML ``<prosody rate>`` multiplies it).
        ssml: the row's SSML source, when it is SSML.
        error: why the row cannot be synthesized, when that is known from the input alone.
    """

    id: str
    text: str
    voice: str | None = None
    speed: float | None = None
    ssml: str | None = None
    error: str | None = None

    @property
    def source(self) -> str:
        """What the row gives to speak: its SSML, else its text (the manifest's ``text``)."""
        return self.ssml if self.ssml is not None else self.text


def detect_format(path: Path) -> str:
    """The input format of ``path`` by its extension (:data:`INPUT_FORMATS`)."""
    suffix = path.suffix.lower()
    for fmt, suffixes in INPUT_FORMATS.items():
        if suffix in suffixes:
            return fmt
    known = ", ".join(s for group in INPUT_FORMATS.values() for s in group)
    raise InputError(f"cannot tell the format of {path.name!r} (extensions: {known}); pass --input-format")


def read_rows(path: str | Path, fmt: str | None = None) -> Iterator[BatchRow]:
    """The rows of ``path`` in file order (``fmt``: one of :data:`INPUT_FORMATS`; None: by extension)."""
    path = Path(path)
    if not path.is_file():
        raise InputError(f"input file not found: {path}")
    fmt = fmt or detect_format(path)
    if fmt == "txt":
        return _txt_rows(path)
    if fmt == "jsonl":
        return _jsonl_rows(path)
    if fmt == "csv":
        return _csv_rows(path)
    if fmt == "parquet":
        return _parquet_rows(path)
    raise InputError(f"unknown input format {fmt!r}; known: {', '.join(INPUT_FORMATS)}")


def _txt_rows(path: Path) -> Iterator[BatchRow]:
    with path.open(encoding="utf-8-sig") as f:
        for n, line in enumerate(f, 1):
            text = line.strip()
            if text:
                yield BatchRow(f"{n:06d}", "", ssml=text) if is_ssml(text) else BatchRow(f"{n:06d}", text)


def _jsonl_rows(path: Path) -> Iterator[BatchRow]:
    with path.open(encoding="utf-8-sig") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                yield BatchRow(f"line-{n}", "", error=f"line {n} is not JSON: {e.msg}")
                continue
            yield row_from_record(record, n)


def _csv_rows(path: Path) -> Iterator[BatchRow]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        reader = csv.DictReader(f)
        if not reader.fieldnames or not {"text", "ssml"} & set(reader.fieldnames):
            raise InputError(f"{path.name}: the CSV header needs a 'text' or 'ssml' column, got {reader.fieldnames}")
        for n, record in enumerate(reader, 1):
            yield row_from_record({k: (v if v != "" else None) for k, v in record.items()}, n)


def _parquet_rows(path: Path) -> Iterator[BatchRow]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError("Parquet input needs pyarrow: pip install 'onestep-tts[ray]'") from None
    table = pq.ParquetFile(path)
    names = set(table.schema_arrow.names)
    if not {"text", "ssml"} & names:
        raise InputError(f"{path.name}: the table needs a 'text' or 'ssml' column, got {sorted(names)}")
    columns = [c for c in ("id", "text", "voice", "speed", "ssml") if c in names]
    n = 0
    for batch in table.iter_batches(batch_size=4096, columns=columns):
        for record in batch.to_pylist():
            n += 1
            yield row_from_record(record, n)


def row_from_record(record: Any, position: int) -> BatchRow:
    """A :class:`BatchRow` of one input record (a mapping); problems go to :attr:`BatchRow.error`."""
    if not isinstance(record, Mapping):
        return BatchRow(f"{position:06d}", "", error=f"record {position} is not an object")
    raw_id = record.get("id")
    rid = f"{position:06d}" if raw_id is None or raw_id == "" else str(raw_id)
    if isinstance(raw_id, float) and raw_id.is_integer():
        rid = str(int(raw_id))
    text = record.get("text")
    text = "" if text is None else str(text)
    voice = record.get("voice") or None
    voice = None if voice is None else str(voice)
    ssml = record.get("ssml") or None
    if ssml is None and is_ssml(text):  # as every interface reads it
        ssml, text = text, ""
    row = BatchRow(rid, "" if ssml is not None else text, voice, None, None if ssml is None else str(ssml))
    if not ID_PATTERN.fullmatch(rid):
        return replace(row, id=f"bad-id-{position:06d}", error=f"id {rid[:40]!r} is not a valid file name")
    speed = record.get("speed")
    if speed is not None and speed != "":
        try:
            value = float(speed)
        except (TypeError, ValueError):
            return replace(row, error=f"speed {speed!r} is not a number")
        if not (math.isfinite(value) and SPEED_MIN <= value <= SPEED_MAX):
            return replace(row, error=f"speed must be between {SPEED_MIN} and {SPEED_MAX}, got {speed}")
        row = replace(row, speed=value)
    return row
