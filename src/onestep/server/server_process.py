"""One server process of ``onestep serve --processes N`` (started by :mod:`onestep.server.supervisor`).

It is a whole server (its own engine, scheduler, limits and phrase cache) on a socket bound with
``SO_REUSEPORT`` to the port its siblings share, so the kernel spreads the connections over them. It listens
only after its warm-up (a connection never reaches a process that would answer 503 warming up), then says
``ready`` to the supervisor on a pipe; it drains on SIGTERM like a single server, and drains too when the
supervisor is gone (its parent changes).

Its entry point is :mod:`onestep.commands.serve_process` (the pickled ``{"args", "config", "spec"}`` on stdin):
the command layer starts it, this module only knows the socket, the readiness pipe and the parent watch.
"""

from __future__ import annotations

import ipaddress
import os
import signal
import socket
import threading
from dataclasses import dataclass

#: What a process writes to its ready pipe once it listens.
READY = b"ready\n"
#: Seconds between two looks at whether the supervisor still lives.
PARENT_POLL_S = 0.5


@dataclass(frozen=True)
class ProcessSpec:
    """Where one server process stands among its siblings.

    Attributes:
        index: 0..N-1, for the log.
        ready_fd: the write end of the pipe on which it says :data:`READY` (inherited from the supervisor).
        parent_pid: the supervisor's pid: when the process's parent is another, it drains and exits.
    """

    index: int
    ready_fd: int
    parent_pid: int


def address_family(host: str) -> socket.AddressFamily:
    """``AF_INET6`` for an IPv6 literal, else ``AF_INET`` (a name is resolved by ``bind``)."""
    try:
        return socket.AF_INET6 if ipaddress.ip_address(host).version == 6 else socket.AF_INET
    except ValueError:
        return socket.AF_INET


def reuseport_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound (not listening) to ``host:port`` with ``SO_REUSEADDR`` and ``SO_REUSEPORT``: it
    shares the port with every other such socket of this user; the kernel gives each new connection to one of
    those that listen.

    Raises:
        OSError: the port is held by a socket without ``SO_REUSEPORT`` (or another user's).
    """
    sock = socket.socket(address_family(host), socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    return sock


def notify_ready(spec: ProcessSpec) -> None:
    """Tell the supervisor that this process listens (once; the pipe is closed after)."""
    try:
        os.write(spec.ready_fd, READY)
        os.close(spec.ready_fd)
    except OSError:  # the supervisor is gone: the parent watch stops this process
        pass


def watch_parent(parent_pid: int, poll_s: float = PARENT_POLL_S) -> threading.Thread:
    """A daemon thread that sends this process SIGTERM (a drain) once its parent is no longer ``parent_pid``
    (the supervisor died: no process is left to forward a signal or restart it)."""

    def watch() -> None:
        stop = threading.Event()
        while os.getppid() == parent_pid:
            stop.wait(poll_s)
        os.kill(os.getpid(), signal.SIGTERM)

    thread = threading.Thread(target=watch, name="onestep-parent-watch", daemon=True)
    thread.start()
    return thread
