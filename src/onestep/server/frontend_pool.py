"""The text frontend in worker processes, for the GPU server.

On a GPU the engine call of a batch takes about as long as the text frontend of a few requests, and the
frontend is pure Python: on threads it holds the GIL that the event loop and the engine thread need, so a
burst of requests is phonemized one after another while both wait. :class:`FrontendProcesses` runs
``Frontend.sentences`` in ``processes`` spawned workers instead (each with its own frontend and the same
user lexicon); the server's frontend threads only hand texts over and wait, with the GIL released.

Each worker is a process with its own pipe, lent to one calling thread at a time: a text goes down the pipe
and its utterances come back, with no broker thread in between (``concurrent.futures``' process pool adds
two thread hand-overs per call, about as long as the frontend pass of a short sentence). A worker that dies
(killed, out of memory) is replaced and its request retried once on the new one, so one lost worker costs
one retry, not the server; an error the frontend raises (e.g. ``ValueError``) is raised in the caller.
"""

from __future__ import annotations

import logging
import multiprocessing
import queue
import threading
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from onestep.frontend.tokens import Utterance

log = logging.getLogger("onestep.server")


def _worker_main(conn: Connection, lexicon: Path | None) -> None:
    """A worker process: build and warm the frontend, then answer ``(text, max_ids, language)`` until the pipe
    closes.

    Answers ``("ok", utterances)`` or ``("error", exception)``; the first message is ``("ready", None)``.
    """
    from onestep.frontend.pipeline import Frontend
    from onestep.frontend.warm_up import MIXED_WARM_UP_TEXT, warm_frontend

    frontend = Frontend(lexicon=lexicon)
    list(frontend.sentences(MIXED_WARM_UP_TEXT))
    warm_frontend(frontend)
    conn.send(("ready", None))
    while True:
        try:
            text, max_ids, language = conn.recv()
        except (EOFError, OSError):  # the server closed the pipe: exit
            return
        try:
            reply: tuple[str, Any] = ("ok", list(frontend.speakable_sentences(text, max_ids, None, language)))
        except Exception as e:  # sent back and raised in the caller
            reply = ("error", e)
        conn.send(reply)


class _Worker:
    """One frontend process and the parent's end of its pipe."""

    def __init__(self, lexicon: Path | None) -> None:
        ctx = multiprocessing.get_context("spawn")  # never fork: the server process may hold CUDA
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_worker_main, args=(child, lexicon), name="onestep-frontend", daemon=True)
        self.process.start()
        child.close()

    def wait_ready(self, timeout_s: float) -> None:
        if not self.conn.poll(timeout_s):
            raise RuntimeError(f"frontend worker {self.process.pid} not ready after {timeout_s:g} s")
        kind, _ = self.conn.recv()
        if kind != "ready":
            raise RuntimeError(f"frontend worker {self.process.pid}: unexpected start-up message {kind!r}")

    def ask(self, text: str, max_ids: int, language: str | None) -> list[Utterance]:
        self.conn.send((text, max_ids, language))
        kind, value = self.conn.recv()
        if kind == "error":
            raise value
        return value

    def stop(self) -> None:
        self.conn.close()
        self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()


class FrontendProcesses:
    """``Frontend.sentences`` in ``processes`` worker processes.

    Args:
        processes: worker processes (>= 1); at most that many texts are phonemized at once.
        lexicon: the user lexicon file every worker's frontend loads (as the server's own frontend does).
        start_timeout_s: how long :meth:`start` waits for a worker to build and warm its frontend.
    """

    def __init__(self, processes: int, lexicon: Path | None = None, start_timeout_s: float = 120.0) -> None:
        if processes < 1:
            raise ValueError(f"processes must be >= 1, got {processes}")
        self.processes = processes
        self.lexicon = lexicon
        self.start_timeout_s = start_timeout_s
        self._idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._started = False

    def start(self) -> list[int]:
        """Start every worker (all at once: each builds and warms its frontend); returns their process ids."""
        with self._lock:
            if not self._started:
                workers = [_Worker(self.lexicon) for _ in range(self.processes)]
                for w in workers:
                    w.wait_ready(self.start_timeout_s)
                    self._idle.put(w)
                self._all = workers
                self._started = True
        return [int(w.process.pid or 0) for w in self._all]

    def sentences(self, text: str, max_ids: int, language: str | None = None) -> list[Utterance]:
        """The utterances of ``text`` that fit ``max_ids`` ids (digits alone read in ``language``, the voice's),
        computed in a worker (blocks this thread until one is free and has answered). Raises what the frontend
        raises, as if it had run here."""
        if not self._started:
            self.start()
        worker = self._idle.get()
        try:
            try:
                return worker.ask(text, max_ids, language)
            except (EOFError, OSError):  # the worker died (its pipe broke): replace it and retry once
                worker = self._replace(worker)
                return worker.ask(text, max_ids, language)
        finally:
            self._idle.put(worker)

    def _replace(self, dead: _Worker) -> _Worker:
        log.error("frontend worker %s died (exit code %s); starting a new one", dead.process.pid, dead.process.exitcode)
        dead.stop()
        fresh = _Worker(self.lexicon)
        fresh.wait_ready(self.start_timeout_s)
        with self._lock:
            self._all = [fresh if w is dead else w for w in self._all]
        return fresh

    def shutdown(self) -> None:
        """Stop every worker (their pipes close, they exit)."""
        with self._lock:
            for w in self._all:
                w.stop()
            self._all = []
