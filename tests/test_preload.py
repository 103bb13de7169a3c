"""When TTS loads the text frontend: now, in a background thread, or only what each text needs."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from onestep.api import PRELOAD_ENV, preload_mode
from onestep.synthesis.resources import Resources

FIXTURES = Path(__file__).resolve().parent / "fixtures"

_CHILD = """
import json, sys
from onestep import TTS
mode = sys.argv[1]
preload = {"now": True, "off": False, "background": "background"}[mode]
tts = TTS(voice="tiny", voices_dir=[sys.argv[2]], threads=1, preload=preload)
out = {"thread": tts.preload_thread is not None}
if tts.preload_thread is not None:
    tts.preload_thread.join(120)
    out["alive"] = tts.preload_thread.is_alive()
before = set(sys.modules)
tts.synthesize("Hello world.")
out["hello_imports"] = sorted(m for m in set(sys.modules) - before if m.split(".")[0] in ("jieba", "pypinyin", "phonemizer", "misaki"))
out["loaded"] = sorted(m for m in ("jieba", "phonemizer", "misaki.espeak") if m in sys.modules)
print(json.dumps(out))
"""


def child(mode: str) -> dict[str, object]:
    env_code = f"import os; os.environ.pop({PRELOAD_ENV!r}, None)\n"
    proc = subprocess.run(
        [sys.executable, "-c", env_code + _CHILD, mode, str(FIXTURES)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_off_loads_only_what_the_text_needs() -> None:
    out = child("off")
    assert out["thread"] is False
    # English words in the lexicon: neither Mandarin's tables nor the espeak fallback were loaded
    assert out["loaded"] == []


@pytest.mark.parametrize("mode", ["now", "background"])
def test_now_and_background_leave_nothing_to_load_later(mode: str) -> None:
    out = child(mode)
    assert out["thread"] is (mode == "background") and not out.get("alive", False)
    assert out["hello_imports"] == []
    assert out["loaded"] == ["jieba", "misaki.espeak", "phonemizer"]


@pytest.mark.parametrize(
    ("arg", "env", "expected"),
    [
        (None, None, "background"),
        (None, "0", "off"),
        (None, "1", "now"),
        (None, "background", "background"),
        (True, "0", "now"),
        (False, "1", "off"),
        ("background", "0", "background"),
    ],
)
def test_preload_mode(arg: object, env: str | None, expected: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if env is None:
        monkeypatch.delenv(PRELOAD_ENV, raising=False)
    else:
        monkeypatch.setenv(PRELOAD_ENV, env)
    assert preload_mode(arg) == expected  # type: ignore[arg-type]


def test_bad_preload_values(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="preload must be"):
        preload_mode("later")  # type: ignore[arg-type]
    monkeypatch.setenv(PRELOAD_ENV, "sometimes")
    with pytest.raises(ValueError, match="must be 1, 0 or background"):
        preload_mode(None)


# --- readiness: a TTS is ready once its preload is over; a GPU warm-up waits for it --------------------------


@pytest.fixture
def gated_warm(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The background preload's frontend load, held until the test lets it go: (started, go)."""
    from onestep.synthesis import preload as preload_module

    started, go = threading.Event(), threading.Event()

    def warm(frontend: object) -> None:
        started.set()
        go.wait(60)

    monkeypatch.setattr(preload_module, "warm_frontend", warm)
    return started, go


class _CapturingEngine:
    """Stands in for a GPU engine warming up in the background: ready, with a ``before_rest`` slot."""

    def __init__(self) -> None:
        self.before_rest = None
        self.ready = threading.Event()
        self.ready.set()
        self.fully_captured = threading.Event()
        self.fully_captured.set()


def _resources(preload: str) -> Resources:
    kind = SimpleNamespace(load=lambda path, threads: _CapturingEngine())
    r = Resources(kind, None, None, None, preload)  # type: ignore[arg-type]
    r.frontend = lambda: object()  # type: ignore[method-assign]  # not a real frontend: the load is stubbed
    return r


def test_tts_is_ready_only_once_the_background_preload_is_over(gated_warm) -> None:
    from onestep import TTS

    started, go = gated_warm
    tts = TTS(voice="tiny", voices_dir=[FIXTURES], threads=1, preload="background")
    assert started.wait(60)
    assert not tts.ready() and not tts.wait_ready(0.05)  # a ready TTS does not load the frontend on its first call
    go.set()
    assert tts.wait_ready(60) and tts.ready()


def test_a_failed_preload_ends_the_wait_too(monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep.synthesis import preload as preload_module

    def broken(frontend: object) -> None:
        raise RuntimeError("no tables")

    monkeypatch.setattr(preload_module, "warm_frontend", broken)
    monkeypatch.setattr(threading, "excepthook", lambda args: None)  # the thread's error is not this test's
    r = _resources("background")
    thread = r.start_preload()
    assert thread is not None
    thread.join(60)
    assert r.frontend_preloaded.is_set() and r.ready() and r.wait_ready(1)


def test_a_gpu_warm_up_waits_for_the_preload_before_capturing_the_rest(gated_warm, monkeypatch) -> None:
    started, go = gated_warm
    r = _resources("background")
    engine = r.engine(SimpleNamespace(path=Path("voice"), mix=None))  # type: ignore[arg-type]
    assert engine.before_rest is not None  # the resources gave the engine their preload to wait for
    monkeypatch.setattr(Resources, "PRELOAD_PATIENCE_S", 0.05)
    t0 = time.monotonic()
    engine.before_rest()  # the preload not started (or never started): bounded
    assert time.monotonic() - t0 < 5 and not r.ready()
    monkeypatch.setattr(Resources, "PRELOAD_PATIENCE_S", 60.0)
    r.start_preload()
    assert started.wait(60)
    waiter = threading.Thread(target=engine.before_rest)
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive(), "the warm-up went on while the frontend was still loading"
    go.set()
    waiter.join(60)
    assert not waiter.is_alive() and r.ready()


@pytest.mark.parametrize("mode", ["off", "now"])
def test_without_a_background_preload_nothing_waits(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from onestep.synthesis import preload as preload_module

    monkeypatch.setattr(preload_module, "warm_frontend", lambda frontend: None)
    r = _resources(mode)
    engine = r.engine(SimpleNamespace(path=Path("voice"), mix=None))  # type: ignore[arg-type]
    assert r.start_preload() is None and r.ready()
    t0 = time.monotonic()
    engine.before_rest()
    assert time.monotonic() - t0 < 1


def test_complete_readiness_waits_for_every_batch_size_captured() -> None:
    """A server waits for the whole capture (``complete=True``): one running beside requests stalls them."""
    r = _resources("off")
    engine = r.engine(SimpleNamespace(path=Path("voice"), mix=None))  # type: ignore[arg-type]
    engine.fully_captured.clear()  # the smallest batch size captured, the larger ones still capturing
    assert r.wait_ready(0.05) and r.ready()
    t0 = time.monotonic()
    assert not r.wait_ready(0.2, complete=True)
    assert time.monotonic() - t0 >= 0.15
    threading.Timer(0.1, engine.fully_captured.set).start()
    assert r.wait_ready(30, complete=True)
