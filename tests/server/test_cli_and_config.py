"""``onestep serve`` as a real process, argument validation, and ``ServerConfig`` checks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import httpx
import pytest

from onestep.cli import main
from onestep.config import ConfigError
from onestep.server.config import ServerConfig

from .conftest import FIXTURES, free_port


def test_serve_process_starts_serves_and_stops_on_sigterm() -> None:
    port = free_port()
    cmd = [sys.executable, "-m", "onestep", "serve", "--port", str(port), "--voices-dir", str(FIXTURES),
           "--workers", "1", "--threads", "1", "--log-level", "warning", "--no-warmup"]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ})
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, proc.stdout.read().decode()  # type: ignore[union-attr]
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "server did not become ready"
            time.sleep(0.1)
        # Mandarin: the process then loads only the Mandarin frontend (the English one takes ~10 s)
        r = httpx.post(f"http://127.0.0.1:{port}/synthesize", json={"text": "你好，世界。"}, timeout=60)
        assert r.status_code == 200 and r.content[:4] == b"RIFF"
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=20)
    # uvicorn shuts down gracefully, then re-raises the signal so the exit status reports it
    assert code in (0, -signal.SIGTERM)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["serve", "--workers", "0"], "workers must be >= 1"),
        (["serve", "--port", "70000"], "port must be 0-65535"),
        (["serve", "--cors-origin", "example.org"], "CORS origin must be"),
        (["serve", "--voices-dir", "/nonexistent/dir"], "is not a directory"),
        (["serve", "--timeout", "0"], "timeout must be"),
        (["serve", "--max-audio-s", "0"], "max_audio_s must be"),
        (["serve", "--max-buffered-s", "0.1"], "max_buffered_s must be"),
        (["serve", "--write-timeout", "0"], "write_timeout must be"),
        (["wyoming", "--uri", "http://x"], "--uri must start with"),
    ],
)
def test_cli_rejects_bad_options(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("device", "tpu"),
        ("queue_size", 0),
        ("max_chars", 0),
        ("api_key", "  "),
        ("batch_window_ms", 500),
        ("max_batch", 0),
        ("threads", 0),
        ("host", ""),
    ],
)
def test_server_config_validates(field: str, value: object) -> None:
    with pytest.raises(ConfigError, match=field.split("_")[0]):
        ServerConfig(**{field: value})  # type: ignore[arg-type]


def test_server_config_derived_values() -> None:
    cfg = ServerConfig(max_chars=1000, workers=1, threads=None)
    assert cfg.max_body_bytes == 1000 * 6 + 4096
    assert cfg.engine_threads == max(1, os.cpu_count() or 1)
    assert ServerConfig(host="127.0.0.2").is_loopback and ServerConfig(host="localhost").is_loopback
    assert not ServerConfig(host="0.0.0.0").is_loopback
