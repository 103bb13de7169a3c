"""Fixtures of the runtime tests: the checked-in tiny random voice and a loaded engine for it."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

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
