"""Point the teacher's voice lookup at the checkout's ../shared (the product has no default location; tests
whose packs are missing there skip)."""

import os
from pathlib import Path

_SHARED_VOICES = Path(__file__).resolve().parents[2].parent / "shared" / "voices" / "kokoro"
os.environ.setdefault("ONESTEP_KOKORO_VOICES", str(_SHARED_VOICES))
