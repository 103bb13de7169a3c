"""Fixtures of the batch tests: the tiny fixture voice and a few held-out Mandarin sentences (the Mandarin
frontend loads in ~2 s, the English one in ~10 s)."""

from __future__ import annotations

from pathlib import Path

import pytest

from onestep.batch.synth import SynthSettings
from onestep_dev.eval.heldout import load_heldout

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VOICE = "tiny"


@pytest.fixture(scope="session")
def sentences() -> list[str]:
    return [s.text for s in load_heldout("zh")]


def settings(out_dir: Path, **kw: object) -> SynthSettings:
    base: dict[str, object] = {"out_dir": str(out_dir), "voice": VOICE, "voices_dirs": (str(FIXTURES),), "threads": 1}
    return SynthSettings(**(base | kw))  # type: ignore[arg-type]
