"""Fixtures shared across test areas."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

# The development distribution (dev/: onestep_dev, the training recipe, teacher, evaluation and benchmarks) is
# installed by `pip install ./dev`; a clean checkout without it reads dev/src, here and in the subprocesses the
# tests start, so the README's test line runs every test either way.
DEV_SRC = Path(__file__).resolve().parents[1] / "dev" / "src"
if importlib.util.find_spec("onestep_dev") is None and DEV_SRC.is_dir():
    sys.path.insert(0, str(DEV_SRC))
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(DEV_SRC), os.environ.get("PYTHONPATH", "")) if p)

# TTS() preloads every language's frontend (seconds of CPU each time on this machine); tests that need a
# warm frontend warm it themselves (tests/test_api.py checks the preload).
os.environ.setdefault("ONESTEP_PRELOAD", "0")

# ../shared beside the checkout holds the training corpora and teacher voices (on our machines and in CI); a fresh
# clone has none, and every test that reads it skips with the path it looked for. $ONESTEP_SHARED_DIR points the
# tests elsewhere (a missing path shows what a fresh clone runs).
SHARED_ENV = "ONESTEP_SHARED_DIR"
os.environ.setdefault(SHARED_ENV, str(Path(__file__).resolve().parents[1].parent / "shared"))

# Optional tools some tests need. The README's test line installs neither: PyPI's Linux torch is the CUDA
# build (~4.5 GB with its nvidia wheels) and Chromium comes from the system. Their tests are left out (torch) or
# skip (Chromium), and the run ends with a loud section saying how to get them (docs/DEVELOPMENT.md).
# $ONESTEP_TEST_REQUIRE (e.g. "torch,chromium", what .ci/run sets) turns a missing one into an error instead.
OPTIONAL_TOOLS: dict[str, tuple[bool, str, str]] = {
    "torch": (
        importlib.util.find_spec("torch") is not None,
        "tests/model and tests/train (and the torch parts of tests/runtime, tests/teacher) were not run",
        "pip install torch (or, where download.pytorch.org is reachable, the CPU build: "
        "pip install torch --index-url https://download.pytorch.org/whl/cpu)",
    ),
    "chromium": (
        shutil.which("chromium") is not None,
        "tests/server/test_page.py (the web page in a real browser) was skipped",
        "apt-get install chromium (Debian's package; Playwright drives it, no `playwright install` needed)",
    ),
}
collect_ignore = [] if OPTIONAL_TOOLS["torch"][0] else ["model", "train"]  # their conftests import torch


def pytest_sessionstart(session: pytest.Session) -> None:
    required = [t.strip() for t in os.environ.get("ONESTEP_TEST_REQUIRE", "").split(",") if t.strip()]
    unknown = [t for t in required if t not in OPTIONAL_TOOLS]
    missing = [t for t in required if t in OPTIONAL_TOOLS and not OPTIONAL_TOOLS[t][0]]
    if unknown or missing:
        hints = "; ".join(f"{t}: {OPTIONAL_TOOLS[t][2]}" for t in missing)
        pytest.exit(f"$ONESTEP_TEST_REQUIRE: unknown {unknown}" if unknown else f"required but missing: {hints}", returncode=4)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    missing = [(name, what, how) for name, (present, what, how) in OPTIONAL_TOOLS.items() if not present]
    if missing:
        terminalreporter.write_sep("=", "optional test tools missing: some tests did not run", yellow=True, bold=True)
        for name, what, how in missing:
            terminalreporter.write_line(f"{name}: {what}; to run them: {how}", yellow=True, bold=True)

import onestep.frontend.en.tools
import onestep.frontend.zh.tools
from onestep.frontend import pipeline
from onestep.frontend.tokens import Token
from onestep.runtime.voices import ENV_VAR


def stand_in_g2p(text: str) -> list[Token]:
    """Stand-in English G2P: one token per word, phonemes = its lower-case letters (',' for a bare symbol)."""
    return [Token(w, "".join(c for c in w.lower() if c.isalpha()) or ",", whitespace=True) for w in text.split()]


@pytest.fixture
def only_fixture_voices(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Hide the shipped voices, $ONESTEP_VOICES and $ONESTEP_LEXICON, and stand in for the English G2P:
    for tests about commands and benchmarks on the tiny fixture voice, not about the frontend."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.delenv("ONESTEP_LEXICON", raising=False)
    monkeypatch.setattr("onestep.runtime.voices.PACKAGE_VOICES", tmp_path / "no-package-voices")
    monkeypatch.setattr(onestep.frontend.en.tools, "load_tools", lambda lexicon=None: pipeline.LanguageTools(str.strip, stand_in_g2p))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared data folder ($ONESTEP_SHARED_DIR, default <checkout>/../shared); it may not exist."""
    return Path(os.environ[SHARED_ENV])


@pytest.fixture(scope="session")
def shared_file(shared_dir: Path) -> Callable[..., Path]:
    """``shared_file("corpus", "en_train.txt")``: that path under the shared folder, or skip the test (saying which
    path was missing) when a fresh clone has no shared data."""

    def get(*parts: str) -> Path:
        path = shared_dir.joinpath(*parts)
        if not path.exists():
            pytest.skip(f"shared data not found at {path} (the ../shared folder beside the checkout, or ${SHARED_ENV})")
        return path

    return get
