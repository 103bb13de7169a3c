"""The batch job as a Ray Data pipeline (``pip install 'onestep-tts[ray]'``).

    read (the rows) -> [map_batches: frontend actors, CPU] -> map_batches: engine actors (CPU or GPU)
                    -> the driver appends each finished batch's entries to the manifest

Each engine actor holds one :class:`~onestep.batch.synth.RowSynthesizer` (one engine) and writes its
audio files itself, so the output folder must be one that every node sees (a shared filesystem) on a
multi-node cluster. With ``frontend_workers``, the text frontend runs on separate CPU actors ahead of the
engine actors: on a GPU, one engine actor is then fed by as many frontend cores as the job asks for.
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
from onestep.batch.synth import FrontendStage, RowSynthesizer, SynthSettings
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
    """Ray Data stage: rows (+ utterances) -> audio files, and one JSON manifest entry per row (``entry``)."""

    def __init__(self, settings: SynthSettings) -> None:
        self.synth = RowSynthesizer(settings)

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        utterances = list(batch["utt"]) if "utt" in batch else None
        entries = self.synth.run(_rows_of(batch), utterances)
        return {"entry": np.array([json.dumps(e, ensure_ascii=False) for e in entries], dtype=object)}


def run_ray(job: Any, rows: list[BatchRow], writer: ManifestWriter, progress: JobProgress) -> None:
    """Run ``rows`` of ``job`` (:class:`onestep.batch.job.BatchJob`) through Ray Data."""
    settings = job.synth
    cpus = job.workers * job.cpus_per_worker + job.frontend_workers + 1  # +1: Ray Data's own small tasks
    init_ray(job.ray_address, cpus, job.workers * job.gpus_per_worker)
    import ray.data

    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False  # ours is shown instead
    ctx.print_on_execution_start = False
    # enough blocks for every actor to have work (and a progress that moves), few enough to keep Ray's
    # per-block overhead small
    blocks = max(1, min(-(-len(rows) // job.batch_size), BLOCKS_PER_WORKER * (job.workers + job.frontend_workers)))
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
        fn_constructor_kwargs={"settings": settings},
        batch_size=job.batch_size,
        batch_format="numpy",
        concurrency=job.workers,
        num_cpus=job.cpus_per_worker,
        num_gpus=job.gpus_per_worker or None,
    )
    for batch in ds.iter_batches(batch_size=None, batch_format="numpy"):
        entries = [json.loads(str(s)) for s in batch["entry"]]
        writer.write(entries)
        progress.advance(entries)
