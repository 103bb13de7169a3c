"""``onestep serve --processes N``: N whole server processes on one port, and the parent that keeps them.

Why: one Python process cannot do much more than a few hundred requests/s of HTTP (uvicorn, Starlette,
FastAPI, pydantic hold its GIL); N processes take N cores. Each process (:mod:`onestep.server.server_process`)
is a whole server with its own engine (on a GPU its own CUDA graphs, all on the one card), scheduler,
admission limits, phrase cache and frontend pool; they share the port through ``SO_REUSEPORT`` (Linux), the
kernel spreading the connections over the processes that listen.

The supervisor (this module, the process ``onestep serve`` started):

- refuses at once, with a message, a system without ``SO_REUSEPORT`` balancing (anything but Linux) and a port
  another server holds, then keeps the port bound (not listening) while it runs (a port given as 0 is chosen
  here, once, for all the processes);
- starts the N processes; each listens only after its warm-up and then says so on a pipe; the server is ready
  (logged) once all have; one that exits before it is ready stops the start: the others are stopped and
  ``onestep serve`` exits with an error naming it;
- restarts a process that dies while serving (at once, or after a back-off of up to
  :data:`MAX_RESTART_DELAY_S` when it keeps dying young);
- forwards SIGTERM / SIGINT to every process: the first drains each of them (docs/SERVER.md, graceful
  shutdown), a second stops them at once; it exits 0 when every process drained cleanly, else 1;
- runs the processes with ``$PROMETHEUS_MULTIPROC_DIR`` (a fresh directory of its own unless set) so that
  ``/metrics`` sums all of them (:mod:`onestep.server.metrics`).

The processes have their own sessions: a Ctrl-C at a terminal reaches the supervisor only, which forwards it
once (not twice, which would stop them without a drain).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import pickle
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import FrameType

from onestep.errors import UserError
from onestep.server.config import ServerConfig
from onestep.server.metrics import MULTIPROC_ENV
from onestep.server.server_process import READY, ProcessSpec, reuseport_socket

log = logging.getLogger("onestep.server")

#: Seconds between two looks at the processes (signals, readiness, exits).
POLL_S = 0.1
#: A process that dies before it has served this long is restarted after a back-off.
YOUNG_S = 30.0
#: Longest back-off before restarting a process that keeps dying, seconds.
MAX_RESTART_DELAY_S = 30.0


class MultiProcessUnsupported(UserError):
    """This system cannot share a port between processes with the kernel balancing connections."""


class PortTaken(UserError):
    """The server's port is held by another server."""


class ProcessStartFailed(UserError):
    """A server process exited before it was ready."""


def check_reuseport() -> None:
    """Raise :class:`MultiProcessUnsupported` where ``SO_REUSEPORT`` does not spread connections (not Linux:
    macOS has the option but gives every connection to one socket; Windows has none)."""
    if not sys.platform.startswith("linux") or not hasattr(socket, "SO_REUSEPORT"):
        raise MultiProcessUnsupported(
            f"--processes > 1 needs Linux (SO_REUSEPORT load balancing); this is {sys.platform}: "
            "run one process (--processes 1), or several servers on their own ports behind a load balancer"
        )


def _probe_host(host: str) -> str:
    """The address to try a connection to when the server binds ``host`` (a wildcard: the loopback)."""
    return {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)


def reserve_port(host: str, port: int) -> socket.socket:
    """A socket bound (not listening) to ``host:port`` with ``SO_REUSEPORT``, held by the supervisor while it
    runs: a server process can bind beside it, a server without ``SO_REUSEPORT`` cannot. Port 0: a free one.

    Raises:
        PortTaken: something listens on the port already (our own kind of server included), or the port
            cannot be bound.
    """
    if port:
        with contextlib.suppress(OSError), socket.create_connection((_probe_host(host), port), timeout=1.0):
            raise PortTaken(f"port {port} on {host} is taken: a server listens there already")
    try:
        return reuseport_socket(host, port)
    except OSError as e:
        raise PortTaken(f"cannot bind {host}:{port}: {e.strerror or e} (the port is taken?)") from e


@dataclass
class ServerProcess:
    """One server process as the supervisor sees it."""

    index: int
    proc: subprocess.Popen[bytes]
    ready_fd: int | None
    started_at: float
    ready: bool = False


@dataclass
class _Restart:
    delay_s: float = 0.0
    at: float | None = None


@dataclass
class Supervisor:
    """Runs ``config.processes`` server processes of ``config`` (see the module doc); :meth:`run` returns the
    exit status. ``args`` are the parsed ``onestep serve`` options, handed to each process."""

    config: ServerConfig
    args: argparse.Namespace
    #: The module each server process runs (``python -m``), given by the command that starts the supervisor
    #: (``onestep.commands.serve_process``): it reads the pickled ``{"args", "config", "spec"}`` on stdin.
    child_module: str
    processes: list[ServerProcess | None] = field(default_factory=list)
    signals: list[int] = field(default_factory=list)
    exit_codes: dict[int, int] = field(default_factory=dict)
    restarts: list[_Restart] = field(default_factory=list)
    forwarded: int = 0
    env: dict[str, str] = field(default_factory=dict)
    metrics_dir: str = ""

    def run(self) -> int:
        """Start, supervise, drain; 0 when every process drained cleanly, else 1.

        Raises:
            MultiProcessUnsupported, PortTaken, ProcessStartFailed: the server could not start (nothing left
                running).
        """
        check_reuseport()
        holder = reserve_port(self.config.host, self.config.port)
        self.config = replace(self.config, port=holder.getsockname()[1])
        own_dir = not os.environ.get(MULTIPROC_ENV)
        metrics_dir = tempfile.mkdtemp(prefix="onestep-metrics-") if own_dir else os.environ[MULTIPROC_ENV]
        if not own_dir:  # prometheus-client: the directory must be wiped between runs
            for stale in Path(metrics_dir).glob("*.db"):
                stale.unlink()
        self.env = {**os.environ, MULTIPROC_ENV: metrics_dir}
        self.metrics_dir = metrics_dir
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
        try:
            return self._supervise()
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            self._stop_all(signal.SIGKILL)
            holder.close()
            if own_dir:
                shutil.rmtree(metrics_dir, ignore_errors=True)

    def _on_signal(self, sig: int, frame: FrameType | None) -> None:
        self.signals.append(sig)

    def _start(self, index: int) -> ServerProcess:
        read_fd, write_fd = os.pipe()
        spec = ProcessSpec(index=index, ready_fd=write_fd, parent_pid=os.getpid())
        payload = pickle.dumps({"args": self.args, "config": self.config, "spec": spec})
        try:
            proc = subprocess.Popen(
                [sys.executable, "-m", self.child_module],
                stdin=subprocess.PIPE,
                pass_fds=(write_fd,),
                start_new_session=True,  # a terminal's Ctrl-C reaches the supervisor only; it forwards it once
                env=self.env,
            )
        finally:
            os.close(write_fd)
        assert proc.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write(payload)
            proc.stdin.close()
        log.info("server process %d started (pid %d)", index, proc.pid)
        return ServerProcess(index=index, proc=proc, ready_fd=read_fd, started_at=time.monotonic())

    def _supervise(self) -> int:
        n = self.config.processes
        self.processes = [self._start(i) for i in range(n)]
        self.restarts = [_Restart() for _ in range(n)]
        self.forwarded = 0
        announced = False
        while True:
            self._forward_signals()
            self._read_ready()
            if not announced and all(p is not None and p.ready for p in self.processes):
                announced = True
                log.info("ready: %d server processes on http://%s:%d", n, self.config.host, self.config.port)
            self._reap_and_restart(starting=not announced)
            if self.forwarded and all(p is None for p in self.processes):
                clean = all(code == 0 for code in self.exit_codes.values())
                log.info("stopped: every server process exited%s", "" if clean else " (some not cleanly)")
                return 0 if clean else 1

    def _forward_signals(self) -> None:
        """Send each signal received to every process: the first drains them, a second stops them at once."""
        while len(self.signals) > self.forwarded:
            sig = self.signals[self.forwarded]
            self.forwarded += 1
            if self.forwarded == 1:  # the exit status tells how the drain went, not how earlier deaths did
                self.exit_codes.clear()
            what = "draining" if self.forwarded == 1 else "stopping"
            live = sum(p is not None for p in self.processes)
            log.info("%s: %s %d server process(es)", signal.Signals(sig).name, what, live)
            self._send_all(sig)

    def _reap_and_restart(self, *, starting: bool) -> None:
        """Forget the processes that exited; restart them when due (not while stopping). While ``starting``
        (not all ready yet) an exit stops the whole start (:class:`ProcessStartFailed`)."""
        now = time.monotonic()
        for i, p in enumerate(self.processes):
            restart = self.restarts[i]
            if p is None:
                if not self.forwarded and restart.at is not None and now >= restart.at:
                    restart.at = None
                    self.processes[i] = self._start(i)
                continue
            code = p.proc.poll()
            if code is None:
                continue
            self._reap(p, code)
            self.processes[i] = None
            if self.forwarded:
                continue
            if starting:
                self._send_all(signal.SIGTERM)
                self._wait_all()
                raise ProcessStartFailed(
                    f"server process {i} exited with status {code} before it was ready (its log is above); "
                    "stopped the others"
                )
            young = now - p.started_at < YOUNG_S
            restart.delay_s = min(MAX_RESTART_DELAY_S, max(0.5, 2 * restart.delay_s)) if young else 0.0
            restart.at = now + restart.delay_s
            log.warning("server process %d (pid %d) exited with status %d: restarting it in %.1f s",
                        i, p.proc.pid, code, restart.delay_s)  # fmt: skip

    def _read_ready(self) -> None:
        """Wait up to :data:`POLL_S` for a process to say it is ready."""
        waiting = {p.ready_fd: p for p in self.processes if p is not None and p.ready_fd is not None}
        if not waiting:
            time.sleep(POLL_S)
            return
        try:
            readable, _, _ = select.select(list(waiting), [], [], POLL_S)
        except InterruptedError:  # pragma: no cover - a signal (Python retries select itself)
            return
        for fd in readable:
            p = waiting[fd]
            data = os.read(fd, 64)
            if data.startswith(READY):
                p.ready = True
                log.info("server process %d (pid %d) ready", p.index, p.proc.pid)
            os.close(fd)  # ready, or EOF: the process exited (its exit is seen by poll)
            p.ready_fd = None

    def _reap(self, p: ServerProcess, code: int) -> None:
        """Forget an exited process: its pipe, and its live gauges in the metrics directory."""
        if p.ready_fd is not None:
            os.close(p.ready_fd)
            p.ready_fd = None
        self.exit_codes[p.proc.pid] = code
        from prometheus_client import multiprocess

        with contextlib.suppress(OSError):
            multiprocess.mark_process_dead(p.proc.pid, self.metrics_dir)

    def _send_all(self, sig: int) -> None:
        for p in self.processes:
            if p is not None and p.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    p.proc.send_signal(sig)

    def _wait_all(self, timeout_s: float = 30.0) -> None:
        for i, p in enumerate(self.processes):
            if p is None:
                continue
            try:
                code = p.proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                p.proc.kill()
                code = p.proc.wait()
            self._reap(p, code)
            self.processes[i] = None

    def _stop_all(self, sig: int) -> None:
        """Last resort on the way out (an error in the supervisor): no process outlives it."""
        self._send_all(sig)
        self._wait_all()
