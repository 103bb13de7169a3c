"""Server settings from a TOML file and ONESTEP_* variables (command line > environment > file > default),
``--print-config``, their errors, a real ``onestep serve`` configured by them, and the [server] extra's check."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
import pytest

from onestep.cli import main

from .conftest import FIXTURES, free_port


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ONESTEP_* setting from the outer environment leaks into these tests."""
    for name in list(os.environ):
        if name.startswith("ONESTEP_") and name not in ("ONESTEP_PRELOAD", "ONESTEP_SHARED_DIR"):
            monkeypatch.delenv(name)


def printed(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, object], str]:
    """Run ``onestep <argv> --print-config``: the printed table (as TOML) and the raw text."""
    assert main([*argv, "--print-config"]) == 0
    text = capsys.readouterr().out
    command = argv[0]
    return tomllib.loads(text)[command], text


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "onestep.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_precedence_command_line_env_file_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = write(tmp_path, f'workers = 2\nqueue_size = 5\nmax_chars = 900\nvoices_dir = ["{FIXTURES}"]\n[serve]\nport = 9100\n')
    monkeypatch.setenv("ONESTEP_QUEUE_SIZE", "7")
    monkeypatch.setenv("ONESTEP_MAX_CHARS", "800")
    table, text = printed(["serve", "--config", str(cfg), "--max-chars", "700"], capsys)
    assert table["workers"] == 2 and table["port"] == 9100  # file
    assert table["queue_size"] == 7  # env beats file
    assert table["max_chars"] == 700  # command line beats env and file
    assert table["timeout"] == 30.0 and table["host"] == "127.0.0.1"  # defaults
    assert table["voices_dir"] == [str(FIXTURES)]
    assert "max_chars = 700  # command line" in text and "queue_size = 7  # $ONESTEP_QUEUE_SIZE" in text


def test_file_from_env_shared_and_per_command_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = write(
        tmp_path,
        'workers = 3\nwarmup = false\nuri = "tcp://127.0.0.1:10300"\nport = 9200\n'
        '[serve]\nworkers = 4\n[wyoming]\nsamples_per_chunk = 512\n',
    )
    monkeypatch.setenv("ONESTEP_CONFIG", str(cfg))
    serve, _ = printed(["serve"], capsys)
    assert serve["workers"] == 4 and serve["port"] == 9200 and serve["warmup"] is False and "uri" not in serve
    wyoming, _ = printed(["wyoming"], capsys)
    assert wyoming["workers"] == 3 and wyoming["uri"] == "tcp://127.0.0.1:10300" and wyoming["samples_per_chunk"] == 512
    assert "port" not in wyoming


def test_booleans_lists_and_secrets_from_env(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("ONESTEP_WARMUP", "off")
    monkeypatch.setenv("ONESTEP_TUNE_GC", "0")
    monkeypatch.setenv("ONESTEP_INLINE_WHEN_IDLE", "no")
    monkeypatch.setenv("ONESTEP_CORS_ORIGIN", "https://a.example,https://b.example")
    monkeypatch.setenv("ONESTEP_API_KEY", "k-123")
    table, text = printed(["serve"], capsys)
    assert table["warmup"] is False and table["tune_gc"] is False and table["inline_when_idle"] is False
    assert table["cors_origin"] == ["https://a.example", "https://b.example"]
    assert table["api_key"] == "***" and "k-123" not in text


def test_unset_keys_are_shown_commented(capsys: pytest.CaptureFixture[str]) -> None:
    table, text = printed(["serve"], capsys)
    assert "threads" not in table and "# threads =  (unset; ONESTEP_THREADS)" in text


@pytest.mark.parametrize(
    ("body", "env", "message"),
    [
        ("wrokers = 2\n", {}, "unknown setting 'wrokers' (did you mean 'workers'?)"),
        ("[serve]\nuri = 'tcp://x:1'\n", {}, "[serve]: unknown setting 'uri'"),
        ("workers = 'four'\n", {}, "workers: expected an integer, got 'four'"),
        ("warmup = 'maybe'\n", {}, "warmup: expected true or false"),
        ("log_level = 'loud'\n", {}, "log_level: expected one of debug, info, warning, error"),
        ("voices_dir = 3\n", {}, "voices_dir: expected a list"),
        ("voices_dir = '/nonexistent/x'\n", {}, "voices directory '/nonexistent/x' is not a directory"),
        ("port = \n", {}, "is not valid TOML"),
        ("serve = 3\n", {}, "[serve] must be a table"),
        ("", {"ONESTEP_WORKERS": "four"}, "$ONESTEP_WORKERS: expected an integer, got 'four'"),
        ("", {"ONESTEP_WORKERS": "0"}, "workers must be >= 1"),
        ("max_chars = 0\n", {}, "max_chars must be 1-1000000"),
    ],
)
def test_bad_settings_are_clear_errors(
    body: str,
    env: dict[str, str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert main(["serve", "--config", str(write(tmp_path, body)), "--print-config"]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and not captured.out


def test_missing_config_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wyoming", "--config", "/nonexistent/onestep.toml"]) == 2
    assert "config file '/nonexistent/onestep.toml' not found" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["serve", "wyoming"])
def test_missing_server_extra_names_it(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("onestep.server.SERVER_MODULES", ("fastapi", "onestep_no_such_module"))
    assert main([command, "--voices-dir", str(FIXTURES)]) == 2
    err = capsys.readouterr().err
    assert "missing: onestep_no_such_module" in err and 'pip install "onestep-tts[server]"' in err


def test_core_imports_leave_the_server_stack_out() -> None:
    """The library, the CLI's parser and `say` import none of the [server] extra's libraries."""
    code = (
        "import sys; import onestep; from onestep import TTS; import onestep.commands.say; "
        "from onestep.cli import build_parser; build_parser(); from onestep.server import SERVER_MODULES; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in SERVER_MODULES + ('starlette', 'uvloop', 'httptools')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_serve_runs_from_a_config_file_and_env(tmp_path: Path) -> None:
    """A real `onestep serve` takes its port, voices and limits from the file and its API key from the env."""
    port = free_port()
    cfg = write(
        tmp_path,
        f'voices_dir = ["{FIXTURES}"]\nworkers = 1\nthreads = 1\nwarmup = false\nlog_level = "warning"\n'
        f"[serve]\nport = {port}\nmax_chars = 40\n",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("ONESTEP_") or k == "ONESTEP_PRELOAD"}
    env.update(ONESTEP_CONFIG=str(cfg), ONESTEP_API_KEY="key-1")
    proc = subprocess.Popen([sys.executable, "-m", "onestep", "serve"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
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
        url = f"http://127.0.0.1:{port}/synthesize"
        assert httpx.post(url, json={"text": "你好。"}, timeout=60).status_code == 401
        auth = {"Authorization": "Bearer key-1"}
        r = httpx.post(url, json={"text": "你好，世界。"}, headers=auth, timeout=60)
        assert r.status_code == 200 and r.content[:4] == b"RIFF"
        too_long = httpx.post(url, json={"text": "你" * 41}, headers=auth, timeout=60)
        assert too_long.status_code == 400 and "the limit is 40" in too_long.text  # max_chars from the file
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


def test_a_flag_given_at_its_default_value_still_beats_env(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ONESTEP_QUEUE_SIZE", "7")
    monkeypatch.setenv("ONESTEP_ENGINE", "torch-cuda-graphs")
    table, text = printed(["serve", "--queue-size", "32", "--device", "cpu"], capsys)
    assert table["queue_size"] == 32 and "queue_size = 32  # command line" in text
    assert table["engine"] == "cpu"  # the --device alias (as given) counts as giving --engine
