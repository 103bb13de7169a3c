"""``onestep serve --processes N`` (:mod:`onestep.server.supervisor`): N server processes on one port
(``SO_REUSEPORT``), each serving; the same audio as one process; a killed process replaced; SIGTERM drains all
of them and exits 0; a taken port, a process that cannot start and a system without ``SO_REUSEPORT`` refused
with a message. Real processes on the tiny fixture voice, started without warm-up (Mandarin text only)."""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from onestep.runtime.shm import pid_alive
from onestep.server import supervisor
from onestep.server.app import create_app
from onestep.server.config import ServerConfig
from onestep.server.server_process import reuseport_socket
from onestep.server.shutdown import build_server

from .conftest import FIXTURES, TEXT, VOICE, GatedBackend, LiveServer, free_port, wait_for

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_REUSEPORT balancing: Linux only")

SRC = Path(__file__).resolve().parents[2] / "src"
BODY = {"input": TEXT, "voice": VOICE, "response_format": "pcm"}


def _command(port: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "onestep.cli", "serve", "--voices-dir", str(FIXTURES), "--port", str(port),
            "--no-warmup", "--workers", "1", "--threads", "1", "--log-level", "warning", *extra]  # fmt: skip


def _env(**extra: str) -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(SRC), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path, **extra}


@contextmanager
def _processes(port: int, n: int = 2, **env: str) -> Iterator[subprocess.Popen[bytes]]:
    """``onestep serve --processes n`` on ``port`` until each of its processes answered /health."""
    proc = subprocess.Popen(_command(port, "--processes", str(n)), env=_env(**env),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        wait_for(lambda: proc.poll() is None and len(_pids(port, tries=6)) == n or _died(proc), timeout=90)
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _died(proc: subprocess.Popen[bytes]) -> bool:
    assert proc.poll() is None, proc.stdout.read().decode()  # type: ignore[union-attr]
    return False


def _pids(port: int, tries: int) -> set[int]:
    """The pids of the processes that answered ``tries`` fresh connections to /health (ready ones only)."""
    pids = set()
    for _ in range(tries):
        try:
            r = httpx.get(f"http://127.0.0.1:{port}/health", timeout=5)  # a new connection each time
        except httpx.TransportError:
            continue
        assert r.status_code == 200, r.text  # a process listens only once ready: never 503 warming up
        pids.add(r.json()["pid"])
    return pids


def _served_by_pid(metrics_dir: Path) -> dict[int, float]:
    """Finished requests per process, from prometheus-client's files (``counter_<pid>.db``)."""
    from prometheus_client.mmap_dict import MmapedDict

    served = {}
    for path in metrics_dir.glob("counter_*.db"):
        values = MmapedDict.read_all_values_from_file(str(path))
        served[int(path.stem.split("_")[1])] = sum(v for key, v, *_ in values if "onestep_requests_total" in key)
    return served


def test_two_processes_share_the_port_serve_the_same_audio_and_sum_their_metrics(
    server: LiveServer, tmp_path: Path
) -> None:
    expected = httpx.post(server.url + "/v1/audio/speech", json=BODY, timeout=60)
    assert expected.status_code == 200 and len(expected.content) > 1000
    port = free_port()
    with _processes(port, 2, PROMETHEUS_MULTIPROC_DIR=str(tmp_path)):
        sent = 0
        while sent < 200 and len([n for n in _served_by_pid(tmp_path).values() if n]) < 2:
            r = httpx.post(f"http://127.0.0.1:{port}/v1/audio/speech", json=BODY, timeout=60)  # a new connection
            assert r.status_code == 200
            assert r.content == expected.content  # the same audio as one process
            sent += 1
        served = _served_by_pid(tmp_path)
        assert len(served) == 2 and all(served.values()), served  # both processes served requests
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
        line = next(x for x in metrics.splitlines() if x.startswith('onestep_requests_total{endpoint="speech"'))
        assert float(line.split()[-1]) == sent  # /metrics, from either process, sums both


def test_a_killed_process_is_replaced_and_sigterm_drains_all_and_exits_0() -> None:
    port = free_port()
    with _processes(port, 2) as proc:
        before = _pids(port, tries=40)
        victim = min(before)
        os.kill(victim, signal.SIGKILL)
        # the other keeps answering meanwhile, and a new process joins
        wait_for(lambda: len(_pids(port, tries=8) - {victim}) == 2 or _died(proc), timeout=90)
        after = _pids(port, tries=40)
        assert victim not in after and len(after) == 2
        r = httpx.post(f"http://127.0.0.1:{port}/v1/audio/speech", json=BODY, timeout=60)
        assert r.status_code == 200 and len(r.content) > 1000
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        for pid in after:  # no process outlives the supervisor
            wait_for(lambda pid=pid: not pid_alive(pid), timeout=30)


def test_a_taken_port_is_refused_with_a_message() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(_command(port, "--processes", "2"), env=_env(), capture_output=True, timeout=60)
    assert done.returncode == 2
    assert f"port {port} on 127.0.0.1 is taken" in done.stderr.decode()


def test_a_process_that_cannot_start_stops_the_server_with_a_message(tmp_path: Path) -> None:
    phrases = tmp_path / "phrases.txt"
    phrases.write_text(f"{TEXT}\t{VOICE}\tfast\n", encoding="utf-8")  # read by each process at its start
    done = subprocess.run(_command(free_port(), "--processes", "2", "--preload", str(phrases)), env=_env(),
                          capture_output=True, timeout=90)  # fmt: skip
    assert done.returncode == 2
    err = done.stderr.decode()
    assert "bad speed 'fast'" in err and "exited with status 2 before it was ready" in err


def test_systems_without_reuseport_balancing_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supervisor.sys, "platform", "darwin")
    with pytest.raises(supervisor.MultiProcessUnsupported, match="needs Linux"):
        supervisor.Supervisor(ServerConfig(processes=2), argparse.Namespace(), "onestep.commands.serve_process").run()


def test_processes_is_validated() -> None:
    from onestep.config import ConfigError

    with pytest.raises(ConfigError, match="processes must be 1-256"):
        ServerConfig(processes=0)


class _WarmingBackend(GatedBackend):
    """Says when its warm-up has begun (it then waits for ``warm_gate``)."""

    def __init__(self, inner: object) -> None:
        super().__init__(inner)  # type: ignore[arg-type]
        self.warming = threading.Event()

    def warm_up(self) -> None:
        self.warming.set()
        super().warm_up()


def test_a_server_process_listens_only_once_warm(gated: GatedBackend) -> None:
    backend = _WarmingBackend(gated.inner)
    backend.warm_gate.clear()
    config = ServerConfig(port=0, workers=1, threads=1, processes=2)
    app = create_app(config, backend, warm_before_listening=True)
    ready_when_listening: list[bool] = []
    server = build_server(app, config, http="h11", log_level="warning",
                          on_started=lambda: ready_when_listening.append(app.state.onestep.ready))  # fmt: skip
    sock = reuseport_socket("127.0.0.1", 0)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        assert backend.warming.wait(30)
        assert not server.started  # warming: not listening (the warm-up cannot end while its gate is closed)
        backend.warm_gate.set()
        wait_for(lambda: server.started)
        assert ready_when_listening == [True]
        port = sock.getsockname()[1]
        assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=10).status_code == 200
    finally:
        backend.warm_gate.set()
        server.should_exit = True
        thread.join(timeout=30)


def test_processes_with_ray_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from onestep.cli import main

    assert main(["serve", "--voices-dir", str(FIXTURES), "--processes", "2", "--ray"]) == 2
    assert "--processes does not combine with --ray" in capsys.readouterr().err
