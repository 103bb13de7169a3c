"""Fixtures shared across test areas."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# TTS() preloads every language's frontend (seconds of CPU each time on this machine); tests that need a
# warm frontend warm it themselves (tests/test_api.py checks the preload).
os.environ.setdefault("ONESTEP_PRELOAD", "0")

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
