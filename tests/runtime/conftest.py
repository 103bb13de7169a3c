"""Fixtures of the runtime tests: the checked-in tiny random voice and a loaded engine for it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from onestep import TTS
from onestep.runtime.ort_engine import OrtEngine

TINY_VOICE = Path(__file__).resolve().parents[1] / "fixtures" / "tiny-voice"


@pytest.fixture(scope="session")
def tiny_voice() -> Path:
    return TINY_VOICE


@pytest.fixture(scope="session")
def engine() -> OrtEngine:
    return OrtEngine(TINY_VOICE)


@pytest.fixture
def voice_copy(tmp_path: Path) -> Callable[..., Path]:
    """Copy the tiny voice to ``tmp_path/<dirname>`` with some ``voice.json`` fields changed."""

    def make(dirname: str, root: Path | None = None, **changes: Any) -> Path:
        target = (root or tmp_path) / dirname
        shutil.copytree(TINY_VOICE, target)
        config = json.loads((target / "voice.json").read_text())
        config.update(changes)
        (target / "voice.json").write_text(json.dumps(config))
        return target

    return make


@pytest.fixture(scope="module")
def tts() -> TTS:
    """A TTS of the tiny voice (no frontend preload), one per test module."""
    return TTS(TINY_VOICE, preload=False)


@pytest.fixture(scope="session")
def same_audio() -> Callable[[Any, Any], None]:
    """Assert two :class:`onestep.Audio` are equal: samples, rate, words, phoneme timings, phonemes, skipped, voice."""

    def check(a: Any, b: Any) -> None:
        assert np.array_equal(a.samples, b.samples) and a.sample_rate == b.sample_rate
        assert a.words == b.words and a.phoneme_timestamps == b.phoneme_timestamps
        assert a.phonemes == b.phonemes and a.skipped == b.skipped and a.voice == b.voice

    return check
