"""When TTS loads the text frontend: now, in a background thread, or only what each text needs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from onestep.api import PRELOAD_ENV, preload_mode

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
