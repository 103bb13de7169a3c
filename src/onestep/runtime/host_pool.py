"""The per-text host work around one engine, on a pool that scales with the machine's cores.

On a GPU the engine pass of a batch takes a fraction of a millisecond a text, while the host work around
it (the text frontend before; word timings, assembly and output conversion after) took ~4 ms a text on one
core: the GPU idled behind the host (issue 22). :func:`run_ordered` runs that work on :class:`HostPool`'s
threads, feeding ONE engine (the calling thread) that batches a chunk of texts per pass, and hands the
results back in input order:

    prepare(item)  (threads, or the frontend in worker processes) --> chunk of prepared items
        --> engine(chunk)  (the calling thread: one engine, one batched pass)
        --> finish(prepared, engine result)  (threads) --> results, in input order

Chunk ``k + 1`` is prepared and chunk ``k - 1`` finished while chunk ``k`` is on the engine. The numpy
parts of the work (frame RMS, concatenation, resampling in soxr) release the GIL, so they scale on
threads; the frontend is pure Python and holds it, so :class:`HostPool` can run it in worker processes
(``processes``; spawned, never forked: the caller may hold CUDA; :mod:`onestep.runtime.host_workers`): each
builds its own frontend once. ``TTS.synthesize_batch`` then runs the finishing work (word and phoneme
timings, assembly, the output stage) in the same worker that ran a text's frontend, the engine's audio handed
over in shared memory (:mod:`onestep.synthesis.remote`, :mod:`onestep.runtime.shm`): the parent only feeds the
engine. The same steps run whatever the pool (the same functions, in the same order per item), so the
results equal a serial run's.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:  # pragma: no cover
    from onestep.frontend.tokens import Utterance
    from onestep.runtime.host_workers import WorkerProcs
    from onestep.runtime.shm import SegmentRing

Item = TypeVar("Item")
Prepared = TypeVar("Prepared")
Rendered = TypeVar("Rendered")
Result = TypeVar("Result")


def usable_cores() -> int:
    """CPUs this process may run on (affinity where the OS tells it), at least 1."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not Linux
        return max(os.cpu_count() or 1, 1)


@dataclass(frozen=True)
class HostPoolSettings:
    """How the host work is spread.

    Attributes:
        threads: threads for the per-text work (None: one per usable core, at most 32; 1 runs it serially
            on the calling thread); unused by ``TTS.synthesize_batch`` when ``processes`` are given.
        processes: worker processes for the per-text work (0: it runs on the threads): the text frontend, and
            in ``TTS.synthesize_batch`` the finishing work too (timings, assembly, output stage). They are
            spawned, so, as with any spawned pool, a script that uses them must guard its entry point with
            ``if __name__ == "__main__":`` (a worker imports the main module again).
        chunk: texts per engine pass (the engine batches their sentences; larger chunks fill the GPU better
            and hold more audio at once).
        lexicon: the user lexicon file the worker processes' frontends load: the TTS's own (``TTS.synthesize_batch``
            refuses a pool whose workers would load another).
        switch_interval_s: the interpreter's GIL switch interval while :func:`run_ordered` runs (restored after);
            None leaves it (5 ms by default). The engine's thread gives the GIL up in every CUDA call and must
            get it back from threads busy in Python: each time it may wait up to this interval, so a shorter
            one keeps a GPU fed (at a little switching cost). It is process-wide: concurrent runs share it.
    """

    threads: int | None = None
    processes: int = 0
    chunk: int = 64
    lexicon: str | None = None
    switch_interval_s: float | None = None

    def __post_init__(self) -> None:
        if self.threads is not None and self.threads < 1:
            raise ValueError(f"threads must be >= 1 or None, got {self.threads}")
        if self.processes < 0:
            raise ValueError(f"processes must be >= 0, got {self.processes}")
        if self.chunk < 1:
            raise ValueError(f"chunk must be >= 1, got {self.chunk}")
        if self.switch_interval_s is not None and not 0 < self.switch_interval_s <= 1:
            raise ValueError(f"switch_interval_s must be in (0, 1] or None, got {self.switch_interval_s}")

    @property
    def n_threads(self) -> int:
        return self.threads if self.threads is not None else min(usable_cores(), 32)


# --- the frontend in worker processes ---------------------------------------------------------------------

_FRONTEND = None  # the worker process's frontend (built once by _init_worker)


def _init_worker(lexicon: str | None) -> None:
    """A frontend worker's start: build and warm its frontend (every language's tables) once."""
    global _FRONTEND
    from onestep.frontend.pipeline import Frontend
    from onestep.frontend.warm_up import warm_frontend

    _FRONTEND = Frontend(lexicon=lexicon)
    warm_frontend(_FRONTEND)


def _worker_sentences(text: str, max_ids: int, language: str | None) -> tuple[list[Utterance], dict[str, int]]:
    """In a worker: the speakable utterances of ``text`` (as ``onestep.synthesis.resources.Resources.sentences``)
    and the characters skipped."""
    from collections import Counter

    assert _FRONTEND is not None, "worker not initialised"
    skipped: Counter[str] = Counter()
    found = list(_FRONTEND.speakable_sentences(text, max_ids, skipped, language))
    return found, dict(skipped)


def worker_frontend() -> object:
    """In a worker process: its frontend (``onestep.frontend.pipeline.Frontend``), for functions given to
    :meth:`HostPool.submit`."""
    if _FRONTEND is None:
        raise RuntimeError("not in a host pool worker process")
    return _FRONTEND


def _ping() -> int:
    return os.getpid()


class HostPool:
    """Threads (and optionally frontend processes) for :func:`run_ordered`; started on first use.

    Use as a context manager, or call :meth:`close`. Safe to share between calls (not between concurrent
    :func:`run_ordered` calls that each expect the whole pool: they then share it).
    """

    def __init__(self, settings: HostPoolSettings | None = None) -> None:
        self.settings = settings or HostPoolSettings()
        self._threads: ThreadPoolExecutor | None = None
        self._processes: WorkerProcs | None = None
        self._ring: SegmentRing | None = None
        self._lock = threading.Lock()

    @property
    def threads(self) -> ThreadPoolExecutor | None:
        """The thread pool (None when ``threads == 1``: work runs on the calling thread)."""
        n = self.settings.n_threads
        if n > 1 and self._threads is None:
            with self._lock:
                if self._threads is None:
                    self._threads = ThreadPoolExecutor(n, thread_name_prefix="onestep-host")
        return self._threads

    @property
    def processes(self) -> WorkerProcs | None:
        """The worker processes (None when ``processes == 0``), started on first use."""
        if self.settings.processes and self._processes is None:
            from onestep.runtime.host_workers import WorkerProcs  # multiprocessing only where processes are asked for

            with self._lock:
                if self._processes is None:
                    self._processes = WorkerProcs(
                        self.settings.processes, initializer=_init_worker, initargs=(self.settings.lexicon,)
                    )
        return self._processes

    @property
    def ring(self) -> SegmentRing:
        """Shared memory slots for handing the engine's audio to the worker processes (reused from call to call)."""
        if self._ring is None:
            from onestep.runtime.shm import SegmentRing, sweep_orphans_once

            with self._lock:
                if self._ring is None:
                    sweep_orphans_once()  # what a killed pool (workers and all) left in /dev/shm
                    self._ring = SegmentRing(3)
        return self._ring

    def start(self) -> list[int]:
        """Start every worker process now and wait until each has built its frontend; returns their ids."""
        procs = self.processes
        if procs is None:
            return []
        return sorted(procs.submit(_ping, worker=i).result() for i in range(len(procs)))

    def sentences(self, text: str, max_ids: int, language: str | None) -> Future[tuple[list[Utterance], dict[str, int]]]:
        """The frontend pass of ``text`` in a worker process (needs ``processes >= 1``): its speakable
        utterances of at most ``max_ids`` ids (digits alone read in ``language``) and the characters skipped."""
        procs = self.processes
        if procs is None:
            raise RuntimeError("this pool has no frontend processes (processes=0)")
        return procs.submit(_worker_sentences, text, max_ids, language)

    def submit(self, fn: Callable[..., Result], *args: object, worker: int | None = None) -> Future[Result]:
        """Run the module-level function ``fn(*args)`` in worker process ``worker`` (None: the next in turn;
        it may call :func:`worker_frontend` and keep state in
        :func:`onestep.runtime.host_workers.worker_state`); needs ``processes >= 1``."""
        procs = self.processes
        if procs is None:
            raise RuntimeError("this pool has no frontend processes (processes=0)")
        return procs.submit(fn, *args, worker=worker)

    def close(self) -> None:
        """Stop the threads and the worker processes (waits for work in flight)."""
        with self._lock:
            threads, procs, self._threads, self._processes = self._threads, self._processes, None, None
            ring, self._ring = self._ring, None
        if threads is not None:
            threads.shutdown(wait=True)
        if procs is not None:
            procs.drain()
        if ring is not None:  # unlinked before the workers are stopped: a process killed while they exit (e.g. a
            ring.close()  # Ray actor at the end of its stage, with its children) leaves no shared memory behind
        if procs is not None:
            procs.close()

    def __enter__(self) -> HostPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Done(Generic[Result]):
    """A result computed on the calling thread, with the interface of a future."""

    def __init__(self, fn: Callable[[], Result]) -> None:
        try:
            self._value, self._error = fn(), None
        except BaseException as e:  # raised again by result(), in input order, as a pooled run would
            self._value, self._error = None, e

    def result(self) -> Result:
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]


def run_ordered(
    items: Sequence[Item],
    prepare: Callable[[Item], Prepared],
    engine: Callable[[list[Prepared]], list[Rendered]],
    finish: Callable[[Prepared, Rendered], Result],
    pool: HostPool | None = None,
    chunk: int | None = None,
) -> list[Result]:
    """``finish(p, r)`` for every item, in input order, where ``p = prepare(item)`` and the ``r`` of a chunk
    of items come from one ``engine([p, ...])`` call on this thread (results in the chunk's order).

    ``prepare`` and ``finish`` run on ``pool``'s threads (on this thread without a pool, or with one thread);
    ``chunk`` (default: the pool's) items per engine call. An exception of ``prepare`` / ``engine`` /
    ``finish`` is raised here for the first item (in input order) that raised; no engine call is made for a
    chunk after it, and work not yet started is cancelled.
    """
    threads = pool.threads if pool is not None else None
    size = chunk or (pool.settings.chunk if pool is not None else max(len(items), 1))

    def submit(fn: Callable[..., Result], *args: object) -> Future[Result] | _Done[Result]:
        if threads is None:
            return _Done(lambda: fn(*args))
        return threads.submit(fn, *args)

    switch = pool.settings.switch_interval_s if pool is not None and threads is not None else None
    previous = sys.getswitchinterval()
    if switch is not None:
        sys.setswitchinterval(switch)
    prepared = [submit(prepare, item) for item in items]  # type: ignore[arg-type]
    finished: list[Future[Result] | _Done[Result]] = []
    try:
        for start in range(0, len(items), size):
            ready = [f.result() for f in prepared[start : start + size]]
            rendered = engine(ready)  # type: ignore[arg-type]
            if len(rendered) != len(ready):
                raise RuntimeError(f"engine returned {len(rendered)} results for {len(ready)} items")
            finished += [submit(finish, p, r) for p, r in zip(ready, rendered, strict=True)]  # type: ignore[arg-type]
        return [f.result() for f in finished]
    finally:
        for f in prepared + finished:  # nothing left running behind a raised error
            if isinstance(f, Future):
                f.cancel()
        if switch is not None:
            sys.setswitchinterval(previous)
