"""Run a frame-local graph (the decoder or the vocoder) over one input as several windows at once.

On a small CPU, ONNX Runtime's own intra-op threads barely speed these graphs up (measured on 2 cores: the
vocoder at 2 threads is as fast as at 1; its matmuls are too small per call to split well). Cutting the
frames into windows that carry the graph's receptive ``context`` on each side
(:func:`onestep.runtime.windows.split_windows`) and running them at the same time, as concurrent calls of
one single-threaded session (``InferenceSession.run`` is thread-safe; one session keeps one copy of the
weights), does use every core, and the joined cores are the samples of one call over the whole input (the
graphs are convolutions with per-frame normalisation; the INT8 vocoder quantizes per frame), so the output
does not depend on how an input is split. This pays only when the cores are free: on a machine already busy
the extra context frames are extra work (measured on the shared 2-core machine at load 4-5: ~15 % slower than
one call), so each call first checks that another core is idle right now (:func:`spare_cores`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import onnxruntime as ort

from onestep.runtime.windows import Window, split_windows


def spare_cores() -> int | None:
    """CPUs this process may use minus the tasks runnable right now, the caller included (Linux); else None.

    Read from ``/proc/loadavg``'s instantaneous "runnable/total" field (not the smoothed load averages), so it
    reflects the moment of the call; it costs a few microseconds.
    """
    try:
        with open("/proc/loadavg", "rb") as f:
            runnable = int(f.read().split()[3].split(b"/")[0])
        cpus = len(os.sched_getaffinity(0))
    except (OSError, ValueError, IndexError, AttributeError):
        return None
    return cpus - runnable


def _cores_free(workers: int) -> bool:
    """Whether ``workers - 1`` cores besides the caller's are idle now (True where that is unknown)."""
    spare = spare_cores()
    return spare is None or spare >= workers - 1


class FrameParallel:
    """One graph run as up to ``workers`` concurrent calls; inputs long enough are split along their frame axis.

    Args:
        session: the graph (with one intra-op thread when ``workers > 1``).
        workers: calls at once (the calling thread and ``workers - 1`` threads of ``pool``).
        output: name of the graph output to return.
        frame_axes: frame axis of each input, by input name.
        output_axis: frame axis of the output.
        output_per_frame: output elements per input frame along that axis (the vocoder: ``hop`` samples).
        context: frames of receptive field on each side (the graph's reach).
        min_split: split only inputs of at least this many frames (each cut costs ``2 * context`` frames
            of extra work, so short inputs run as one call).
        max_frames: cut inputs longer than this into more windows (bounds the activations' memory); None = no
            limit.
        pool: threads that run the windows of workers ``1..workers-1``.
        cores_free: ``cores_free(workers)`` says whether to split a call now (default: idle cores right now).
    """

    def __init__(
        self,
        session: ort.InferenceSession,
        workers: int,
        output: str,
        frame_axes: Mapping[str, int],
        output_axis: int,
        output_per_frame: int,
        context: int,
        min_split: int,
        max_frames: int | None = None,
        pool: ThreadPoolExecutor | None = None,
        cores_free: Callable[[int], bool] = _cores_free,
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers must be >= 1, got {workers}")
        if workers > 1 and pool is None:
            raise ValueError("several workers need a thread pool")
        self.session = session
        self.workers = workers
        self.output = output
        self.frame_axes = dict(frame_axes)
        self.output_axis = output_axis
        self.output_per_frame = output_per_frame
        self.context = context
        self.min_split = max(min_split, 1)
        self.max_frames = max_frames
        self.pool = pool
        self.cores_free = cores_free

    def windows(self, total: int, parallel: bool = True) -> list[Window]:
        """How an input of ``total`` frames is cut (one window = one call); ``parallel``: for all workers."""
        pieces = self.workers if parallel and total >= self.min_split else 1
        if self.max_frames is not None and total > self.max_frames:
            core = max(self.max_frames - 2 * self.context, 1)
            pieces = max(pieces, -(-total // core))
        return split_windows(total, pieces, self.context)

    def _call(self, feeds: Mapping[str, np.ndarray]) -> np.ndarray:
        return self.session.run([self.output], dict(feeds))[0]

    def __call__(self, feeds: Mapping[str, np.ndarray]) -> np.ndarray:
        """Run the graph on ``feeds``; the same result as one call of one session (to float rounding)."""
        name = next(iter(self.frame_axes))
        total = feeds[name].shape[self.frame_axes[name]]
        parallel = self.workers > 1 and total >= self.min_split and self.cores_free(self.workers)
        windows = self.windows(total, parallel)
        if len(windows) == 1:
            return self._call(feeds)
        cuts = [self._cut(feeds, w) for w in windows]
        results: list[np.ndarray | None] = [None] * len(windows)
        n = self.workers if parallel else 1
        futures = {}
        for worker in range(1, min(n, len(windows))):  # workers 1..n-1 on the pool, worker 0 on this thread
            futures[worker] = self.pool.submit(self._run_worker, cuts, worker, n)  # type: ignore[union-attr]
        own = self._run_worker(cuts, 0, n)
        for worker, future in [(0, None), *futures.items()]:
            outs = own if future is None else future.result()
            for j, out in zip(range(worker, len(windows), n), outs, strict=True):
                results[j] = out
        k = self.output_per_frame
        kept = []
        for w, out in zip(windows, results, strict=True):
            index = [slice(None)] * out.ndim  # type: ignore[union-attr]
            index[self.output_axis] = slice((w.keep_start - w.start) * k, (w.keep_end - w.start) * k)
            kept.append(out[tuple(index)])  # type: ignore[index]
        return np.concatenate(kept, axis=self.output_axis)

    def _run_worker(self, cuts: Sequence[Mapping[str, np.ndarray]], worker: int, n: int) -> list[np.ndarray]:
        """Windows ``worker, worker + n, ...`` one after another (one worker's share)."""
        return [self._call(cuts[j]) for j in range(worker, len(cuts), n)]

    def _cut(self, feeds: Mapping[str, np.ndarray], w: Window) -> dict[str, np.ndarray]:
        cut = {}
        for name, value in feeds.items():
            if name not in self.frame_axes:  # a per-utterance input (the speaker vector): every window
                cut[name] = value
                continue
            index = [slice(None)] * value.ndim
            index[self.frame_axes[name]] = slice(w.start, w.start + w.length)
            cut[name] = np.ascontiguousarray(value[tuple(index)])
        return cut
