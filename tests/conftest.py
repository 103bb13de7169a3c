"""Fixtures shared across test areas."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

# TTS() preloads every language's frontend (seconds of CPU each time on this machine); tests that need a
# warm frontend warm it themselves (tests/test_api.py checks the preload).
os.environ.setdefault("ONESTEP_PRELOAD", "0")

# ../shared beside the checkout holds the training corpora and teacher voices (on our machines and in CI); a fresh
# clone has none, and every test that reads it skips with the path it looked for. $ONESTEP_SHARED_DIR points the
# tests elsewhere (a missing path shows what a fresh clone runs).
SHARED_ENV = "ONESTEP_SHARED_DIR"
os.environ.setdefault(SHARED_ENV, str(Path(__file__).resolve().parents[1].parent / "shared"))

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
