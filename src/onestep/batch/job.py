"""A batch job: read the input, skip what an earlier run finished, synthesize the rest on a local process
pool or a Ray Data pipeline, append each finished row to the manifest.

    from onestep.batch.job import BatchJob, run_batch
    from onestep.batch.synth import SynthSettings
    summary = run_batch(BatchJob("texts.jsonl", SynthSettings(out_dir="out", audio_format="flac"), workers=2))
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from onestep.batch.manifest import AUDIO_DIR, ManifestWriter, finished_ids
from onestep.batch.progress import JobProgress
from onestep.batch.rows import BatchRow, read_rows
from onestep.batch.synth import PASSES_PER_BLOCK, RowSynthesizer, SynthSettings, make_host_pool

SUMMARY_NAME = "summary.json"


@dataclass(frozen=True)
class BatchJob:
    """One bulk synthesis job.

    Attributes:
        input: the input file (txt / JSONL / CSV / Parquet; see :mod:`onestep.batch.rows`).
        synth: what each worker does (output folder, audio format, voice, engine settings).
        input_format: the input's format (None: by extension).
        workers: local: pool processes (0: in this process); Ray: engine actors.
        batch_size: rows per task (one batched engine pass per voice and speed).
        retry_errors: also redo rows that failed in an earlier run.
        limit: process at most this many rows (after skipping finished ones).
        ray: run as a Ray Data pipeline (``ray`` extra).
        ray_address: the Ray cluster to join (None with ``ray``: start a local one).
        cpus_per_worker / gpus_per_worker: Ray resources of each engine actor.
        frontend_workers: Ray: actors running the text frontend ahead of the engine actors (0: the engine
            actors run it themselves). With GPU engine actors, this is what keeps the GPU fed.
        frontend_processes: ONE engine fed by this many worker processes that run each row's frontend, timings,
            output stage, encoding and file (the host pool, :mod:`onestep.runtime.host_pool`; ``batch_size``
            texts per engine pass). Local: the engine in this process (``workers`` unused); Ray: every engine
            actor owns such a pool on its node and reserves a CPU per process. 0: local, ``workers`` processes,
            each with its own engine; Ray, the engine actors (or ``frontend_workers``) do the host work.
    """

    input: Path
    synth: SynthSettings
    input_format: str | None = None
    workers: int = 1
    batch_size: int = 8
    retry_errors: bool = False
    limit: int | None = None
    ray: bool = False
    ray_address: str | None = None
    cpus_per_worker: float = 1.0
    gpus_per_worker: float = 0.0
    frontend_workers: int = 0
    frontend_processes: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "input", Path(self.input))
        if self.workers < 0 or (self.ray and self.workers < 1):
            raise ValueError(f"workers must be >= 1 (>= 0 without Ray), got {self.workers}")
        if self.batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {self.batch_size}")
        if self.limit is not None and self.limit < 1:
            raise ValueError(f"limit must be >= 1, got {self.limit}")
        if self.frontend_workers < 0:
            raise ValueError(f"frontend_workers must be >= 0, got {self.frontend_workers}")
        if self.frontend_workers and not self.ray:
            raise ValueError("frontend_workers needs the Ray pipeline (--ray)")
        if self.frontend_processes < 0:
            raise ValueError(f"frontend_processes must be >= 0, got {self.frontend_processes}")
        if self.frontend_processes and self.frontend_workers:
            raise ValueError(
                "frontend_processes and frontend_workers both run the frontend: with --frontend-processes each "
                "engine's own worker processes do it"
            )
        if self.cpus_per_worker <= 0 or self.gpus_per_worker < 0:
            raise ValueError("cpus_per_worker must be > 0 and gpus_per_worker >= 0")

    @property
    def out_dir(self) -> Path:
        return Path(self.synth.out_dir)


def pending_rows(job: BatchJob) -> tuple[list[BatchRow], int]:
    """The rows this run must do (input order), and how many an earlier run already finished.

    A repeated id is a bad row (its first occurrence is the one synthesized).
    """
    done = finished_ids(job.out_dir, job.retry_errors)
    seen: set[str] = set()
    rows: list[BatchRow] = []
    skipped = 0
    for row in read_rows(job.input, job.input_format):
        if row.id in seen:
            row = replace(row, id=f"{row.id}-dup-{len(seen)}", error=f"duplicate id {row.id!r}")
        seen.add(row.id)
        if row.id in done:
            skipped += 1
            continue
        rows.append(row)
        if job.limit is not None and len(rows) >= job.limit:
            break
    return rows, skipped


def remove_partial_files(out_dir: Path) -> int:
    """Delete the audio files an earlier run was killed while writing (``audio/.<id>.<ext>.<pid>.tmp``: a file
    is written under such a name, then renamed); returns how many. Runs before this job's workers start: one
    job at a time per output folder."""
    audio = out_dir / AUDIO_DIR
    stale = list(audio.glob(".*.tmp")) if audio.is_dir() else []
    for path in stale:
        path.unlink(missing_ok=True)
    return len(stale)


def chunked(rows: Iterable[BatchRow], size: int) -> Iterator[list[BatchRow]]:
    chunk: list[BatchRow] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def run_batch(job: BatchJob, show_progress: bool = True) -> dict[str, Any]:
    """Run ``job`` to the end; returns (and writes to ``out_dir/summary.json``) its counts and throughput.

    Rows that fail are reported in the manifest; the job itself only stops for a broken worker or input.
    """
    job.out_dir.mkdir(parents=True, exist_ok=True)
    remove_partial_files(job.out_dir)
    rows, skipped = pending_rows(job)
    progress = JobProgress(len(rows), skipped, enabled=show_progress)
    writer = ManifestWriter(job.out_dir)
    try:
        if not rows:
            pass
        elif job.ray:
            from onestep.batch.ray_job import run_ray

            run_ray(job, rows, writer, progress)
        else:
            run_local(job, rows, writer, progress)
    finally:
        writer.close()
        progress.close()
    summary = progress.summary() | {
        "workers": job.workers,
        "runner": "ray" if job.ray else "local",
        "audio_format": job.synth.audio_format,
    }
    (job.out_dir / SUMMARY_NAME).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


# --- the local runner: a process pool -------------------------------------------------------------------

_worker: RowSynthesizer | None = None


def _init_worker(settings: SynthSettings) -> None:
    global _worker
    _worker = RowSynthesizer(settings)


def _work(rows: list[BatchRow]) -> list[dict[str, Any]]:
    assert _worker is not None, "worker not initialized"
    return _worker.run(rows)


def run_local(job: BatchJob, rows: list[BatchRow], writer: ManifestWriter, progress: JobProgress) -> None:
    """Synthesize ``rows`` on ``job.workers`` processes (each one engine), at most two chunks queued per
    process; entries are written as chunks finish."""
    if job.frontend_processes:
        run_host_pool(job, rows, writer, progress)
        return
    chunks = chunked(rows, job.batch_size)
    if job.workers == 0:
        synth = RowSynthesizer(job.synth)
        for chunk in chunks:
            entries = synth.run(chunk)
            writer.write(entries)
            progress.advance(entries)
        return
    ctx = multiprocessing.get_context("spawn")  # no fork of a process holding threads
    with ProcessPoolExecutor(job.workers, mp_context=ctx, initializer=_init_worker, initargs=(job.synth,)) as pool:
        pending: set[Future[list[dict[str, Any]]]] = set()
        for chunk in chunks:
            pending.add(pool.submit(_work, chunk))
            if len(pending) >= 2 * job.workers:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    entries = f.result()
                    writer.write(entries)
                    progress.advance(entries)
        for f in pending:
            entries = f.result()
            writer.write(entries)
            progress.advance(entries)


def run_host_pool(job: BatchJob, rows: list[BatchRow], writer: ManifestWriter, progress: JobProgress) -> None:
    """Synthesize ``rows`` with ONE engine in this process and ``job.frontend_processes`` worker processes for
    the rest (:class:`onestep.runtime.host_pool.HostPool`), a block of rows at a time."""
    with make_host_pool(job.synth, job.frontend_processes, job.batch_size) as pool:
        synth = RowSynthesizer(job.synth, pool)
        pool.start()
        for block in chunked(rows, job.batch_size * PASSES_PER_BLOCK):
            entries = synth.run(block)
            writer.write(entries)
            progress.advance(entries)
