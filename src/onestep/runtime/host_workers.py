"""Worker processes that keep state between calls: the host pool's processes (:mod:`onestep.runtime.host_pool`).

Unlike a ``ProcessPoolExecutor``, a call goes to a chosen worker (:meth:`WorkerProcs.submit`), so a text's
frontend pass and its finishing work (after the engine) run in the same process, which keeps what the first
left for the second (:func:`worker_state`) and nothing big crosses back and forth. Each worker is spawned
(never forked: the caller may hold CUDA) and talks over its own pipe; a thread per worker in the parent reads
the answers and completes their futures. Calls to one worker run in the order they were sent.

A call that raises gives its exception to its own future only. A worker that dies (killed, out of memory)
fails the futures of its calls in flight with :class:`WorkerDied`; the others go on, and the next call sent to
its place starts a new worker there (``replace=True``, the default; what a long-running server needs) or fails
with the same error (``replace=False``). What the dead worker kept (:func:`worker_state`) is gone with it.
Workers ignore Ctrl-C (the parent's to handle: it closes the pool) and end when the parent's end of their pipe
closes (the parent exited, however). A worker that finds its parent gone (it was reparented: the parent was
killed, e.g. by SIGKILL, and closed nothing) unlinks the shared memory segments the parent left
(:func:`onestep.runtime.shm.remove_dead_owners`; every worker tries, the first one out removes them).
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from onestep.errors import Unavailable
from onestep.runtime import idle_gc

_STATE: dict[Any, Any] = {}  # in a worker: what its calls keep for later calls


def worker_state() -> dict[Any, Any]:
    """In a worker process: a dict its calls share (what a call keeps for a later call to the same worker)."""
    return _STATE


class WorkerDied(Unavailable, RuntimeError):
    """The worker process running a call ended before answering it (the same text may succeed again)."""


def picklable_error(e: BaseException) -> BaseException:
    """``e`` if it survives pickling, else a RuntimeError that names it (what a worker can send back)."""
    import pickle

    try:
        pickle.loads(pickle.dumps(e))
        return e
    except Exception:
        return RuntimeError(f"{type(e).__name__}: {e}")


def _worker_main(conn: Any, initializer: Callable[..., None] | None, initargs: tuple[Any, ...], parent: int) -> None:
    """A worker's life: its initializer, then each ``(call id, fn, args)`` answered ``(call id, ok, value)``
    until ``None`` (or the parent's end of the pipe closes). ``parent``: the pool's process id (passed, not read
    here: the parent may already be gone when a spawned worker gets this far)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it closes the pool
    init_error: BaseException | None = None
    orphaned = False  # the pipe closed without the parent's goodbye (None): it died, or is dying
    if initializer is not None:
        try:
            initializer(*initargs)
        except BaseException as e:  # every call then fails with it
            init_error = e
    idle_gc.freeze_survivors()  # the frontend's tables out of every later collection
    while True:
        try:
            if not conn.poll():  # idle: collect now rather than inside the next call
                idle_gc.collect_when_idle()
            message = conn.recv()
        except (EOFError, OSError):
            orphaned = True
            break
        if message is None:
            break
        call, fn, args = message
        try:
            if init_error is not None:
                raise RuntimeError(f"host worker failed to start: {init_error!r}")
            reply = (call, True, fn(*args))
        except BaseException as e:
            reply = (call, False, picklable_error(e))
        try:
            conn.send(reply)
        except OSError:  # the parent's end closed while the call ran
            orphaned = True
            break
        except Exception as e:  # an answer that cannot be pickled
            try:
                conn.send((call, False, RuntimeError(f"cannot send the result back: {e!r}")))
            except OSError:
                orphaned = True
                break
    conn.close()
    if orphaned:
        _clean_after(parent)


def _clean_after(parent: int, wait: float = 5.0) -> None:
    """In a worker whose pipe closed without a goodbye: once its parent is gone (this process is reparented:
    the parent exited without closing the pool, e.g. killed), unlink the shared memory segments the parent
    left. A dying process closes its files before its children are reparented, so this waits up to ``wait``
    seconds for that; a parent still there after it (it closed only the pipe) keeps its segments."""
    import time

    deadline = time.monotonic() + wait
    while os.getppid() == parent:
        if time.monotonic() >= deadline:
            return
        time.sleep(0.01)
    from onestep.runtime.shm import remove_dead_owners

    try:
        remove_dead_owners(parent, dead=True)
    except Exception:  # a worker's last act: never a traceback on the way out
        pass


class _Worker:
    """The parent's side of one worker: its process, pipe, calls in flight and reader thread."""

    def __init__(self, ctx: Any, initializer: Callable[..., None] | None, initargs: tuple[Any, ...], index: int) -> None:
        parent, child = ctx.Pipe(duplex=True)
        self.conn = parent
        self.process = ctx.Process(
            target=_worker_main, args=(child, initializer, initargs, os.getpid()), daemon=True, name=f"onestep-host-{index}"
        )
        self.process.start()
        child.close()
        self.pending: dict[int, Future[Any]] = {}
        self.lock = threading.Lock()  # guards pending and dead (the reader takes it: never held while sending)
        self.send_lock = threading.Lock()  # one message at a time on the pipe
        self.dead: BaseException | None = None
        self.reader = threading.Thread(target=self._read, daemon=True, name=f"onestep-host-reader-{index}")
        self.reader.start()

    def _read(self) -> None:
        while True:
            try:
                call, ok, value = self.conn.recv()
            except (EOFError, OSError):
                break
            with self.lock:
                future = self.pending.pop(call, None)
            if future is None:
                continue
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._fail(WorkerDied(f"host worker process {self.process.pid} ended (exit code {self.process.exitcode})"))

    def _fail(self, error: BaseException) -> None:
        with self.lock:
            self.dead = self.dead or error
            pending, self.pending = self.pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(error)

    def submit(self, call: int, fn: Callable[..., Any], args: tuple[Any, ...]) -> Future[Any]:
        future: Future[Any] = Future()
        with self.lock:
            if self.dead is not None:
                future.set_exception(self.dead)
                return future
            self.pending[call] = future
        try:
            with self.send_lock:
                self.conn.send((call, fn, args))
        except Exception as e:
            with self.lock:
                self.pending.pop(call, None)
            if not future.done():
                future.set_exception(WorkerDied(str(e)) if isinstance(e, OSError) else e)
        return future

    def stop(self, timeout: float) -> None:
        with self.send_lock:
            try:
                self.conn.send(None)
            except Exception:
                pass
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout)
        self.conn.close()
        if self.reader is not threading.current_thread():  # (a callback on the reader replacing its worker)
            self.reader.join(timeout)
        self._fail(WorkerDied("the host pool was closed"))


class WorkerProcs:
    """``n`` spawned worker processes, each run ``initializer(*initargs)`` once, then the calls sent to it.

    Use :meth:`close` (waits for the calls in flight, then stops every worker).
    """

    def __init__(
        self,
        n: int,
        initializer: Callable[..., None] | None = None,
        initargs: tuple[Any, ...] = (),
        *,
        replace: bool = True,
    ) -> None:
        import multiprocessing

        if n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        self._ctx = multiprocessing.get_context("spawn")
        self._init = (initializer, initargs)
        self._workers = [_Worker(self._ctx, initializer, initargs, i) for i in range(n)]
        self._calls = itertools.count()
        self._next = itertools.count()
        self._replace = replace
        self._closed = False
        self._lock = threading.Lock()
        self.replaced = 0  # workers started in place of dead ones

    def __len__(self) -> int:
        return len(self._workers)

    @property
    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def submit(self, fn: Callable[..., Any], *args: Any, worker: int | None = None) -> Future[Any]:
        """``fn(*args)`` (a module-level function) on worker ``worker`` (None: the next in turn)."""
        index = (next(self._next) if worker is None else worker) % len(self._workers)
        w = self._workers[index]
        if self._replace and not self._closed and (w.dead is not None or not w.process.is_alive()):
            w = self._replace_dead(index, w)
        return w.submit(next(self._calls), fn, args)

    def _replace_dead(self, index: int, dead: _Worker) -> _Worker:
        """A new worker at ``index`` in place of ``dead`` (whose calls in flight fail with :class:`WorkerDied`)."""
        import logging

        with self._lock:
            current = self._workers[index]
            if current is not dead:  # another thread replaced it already
                return current
            logging.getLogger("onestep").error(
                "host worker process %s ended (exit code %s); starting a new one", dead.process.pid, dead.process.exitcode
            )
            dead.stop(1.0)
            fresh = _Worker(self._ctx, self._init[0], self._init[1], index)
            self._workers[index] = fresh
            self.replaced += 1
            return fresh

    def close(self, timeout: float = 10.0) -> None:
        """Wait for the calls in flight, then stop every worker (terminated after ``timeout`` seconds)."""
        self.drain(timeout)
        for w in self._workers:
            w.stop(timeout)

    def drain(self, timeout: float = 10.0) -> None:
        """Take no more calls and wait (up to ``timeout`` seconds each) for those in flight; the workers stay."""
        self._closed = True
        for w in self._workers:
            with w.lock:
                pending = list(w.pending.values())
            for f in pending:
                try:
                    f.exception(timeout)
                except Exception:
                    pass
