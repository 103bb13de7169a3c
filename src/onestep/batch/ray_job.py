"""The batch job as a Ray Data pipeline (``pip install 'onestep-tts[ray]'``).

    read (the rows) -> [map_batches: frontend actors, CPU] -> map_batches: engine actors (CPU or GPU)
                    -> the driver appends each finished batch's entries to the manifest

Each engine actor holds one :class:`~onestep.batch.synth.RowSynthesizer` (one engine) and writes its
audio files itself, so the output folder must be one that every node sees (a shared filesystem) on a
multi-node cluster. Who does the host work around the engine:

- ``frontend_processes`` (the GPU shape, one engine actor per GPU): each engine actor owns a host pool of that
  many worker processes on its node (:mod:`onestep.runtime.host_pool`, the machinery of the local
  ``--frontend-processes`` runner: the frontend, word timings, output stage, encoding and file of each row run
  there, the audio crosses in shared memory, the actor only feeds the engine) and reserves a CPU for each. A
  block of ``batch_size`` x :data:`~onestep.batch.synth.PASSES_PER_BLOCK` rows goes to an actor at a time,
  so the frontend of the next passes and the finishing of the last overlap the engine.
- ``frontend_workers``: the text frontend on separate CPU actors ahead of the engine actors (the rest of the
  host work stays in the engine actor).
- neither: the engine actors do everything.
Workers import ``onestep`` from their own environment: on a cluster install it on every node (or pass
a ``runtime_env``).
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

import numpy as np

from onestep.batch.manifest import ManifestWriter
from onestep.batch.progress import JobProgress
from onestep.batch.rows import BatchRow
from onestep.batch.synth import PASSES_PER_BLOCK, FrontendStage, RowSynthesizer, SynthSettings, make_host_pool
from onestep.ray_cluster import init_ray

#: Upper bound of input blocks per actor.
BLOCKS_PER_WORKER = 64


def _rows_of(batch: dict[str, np.ndarray]) -> list[BatchRow]:
    return [BatchRow(**json.loads(str(s))) for s in batch["row"]]


class FrontendActor:
    """Ray Data stage: rows -> rows + their pickled utterances (``utt`` column)."""

    def __init__(self, settings: SynthSettings) -> None:
        self.stage = FrontendStage(settings)

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        utterances = self.stage.run(_rows_of(batch))
        return {"row": batch["row"], "utt": np.array(utterances, dtype=object)}


class EngineActor:
    """Ray Data stage: rows (+ utterances) -> audio files, and one JSON manifest entry per row (``entry``).

    With ``host_processes``, the actor's engine is fed by a host pool of that many worker processes (``chunk``
    rows per engine pass), started here and closed when Ray Data drops the UDF at the stage's end."""

    def __init__(self, settings: SynthSettings, host_processes: int = 0, chunk: int = 8) -> None:
        self.pool = make_host_pool(settings, host_processes, chunk) if host_processes else None
        self.synth = RowSynthesizer(settings, self.pool)
        if self.pool is not None:
            self.pool.start()

    def __del__(self) -> None:
        """Ray Data drops the actor's UDF when the stage ends (``__ray_shutdown__``): unlink the pool's shared
        memory and stop its workers. (An actor killed outright goes with its workers; the next host pool on the
        machine unlinks the segments of creators that are gone.)"""
        pool = getattr(self, "pool", None)
        if pool is not None:
            self.pool = None
            pool.close()

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        utterances = list(batch["utt"]) if "utt" in batch else None
        entries = self.synth.run(_rows_of(batch), utterances)
        return {"entry": np.array([json.dumps(e, ensure_ascii=False) for e in entries], dtype=object)}


def run_ray(job: Any, rows: list[BatchRow], writer: ManifestWriter, progress: JobProgress) -> None:
    """Run ``rows`` of ``job`` (:class:`onestep.batch.job.BatchJob`) through Ray Data."""
    settings = job.synth
    actor_cpus = job.cpus_per_worker + job.frontend_processes  # the engine + its host pool's processes
    cpus = job.workers * actor_cpus + job.frontend_workers + 1  # +1: Ray Data's own small tasks
    init_ray(job.ray_address, cpus, job.workers * job.gpus_per_worker)
    import ray.data

    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False  # ours is shown instead
    ctx.print_on_execution_start = False
    # enough blocks for every actor to have work (and a progress that moves), few enough to keep Ray's
    # per-block overhead small
    rows_per_call = job.batch_size * (PASSES_PER_BLOCK if job.frontend_processes else 1)
    blocks = max(1, min(-(-len(rows) // rows_per_call), BLOCKS_PER_WORKER * (job.workers + job.frontend_workers)))
    items = [{"row": json.dumps(asdict(r), ensure_ascii=False)} for r in rows]
    ds = ray.data.from_items(items, override_num_blocks=blocks)
    if job.frontend_workers:
        ds = ds.map_batches(
            FrontendActor,
            fn_constructor_kwargs={"settings": settings},
            batch_size=job.batch_size,
            batch_format="numpy",
            concurrency=job.frontend_workers,
            num_cpus=1,
        )
    ds = ds.map_batches(
        EngineActor,
        fn_constructor_kwargs={
            "settings": settings, "host_processes": job.frontend_processes, "chunk": job.batch_size
        },
        batch_size=rows_per_call,
        batch_format="numpy",
        concurrency=job.workers,
        num_cpus=actor_cpus,
        num_gpus=job.gpus_per_worker or None,
    )
    for batch in ds.iter_batches(batch_size=None, batch_format="numpy"):
        entries = [json.loads(str(s)) for s in batch["entry"]]
        writer.write(entries)
        progress.advance(entries)
