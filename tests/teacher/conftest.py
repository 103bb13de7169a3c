"""Point the teacher's voice lookup at the checkout's ../shared when the package is installed elsewhere (CI)."""

import os
from pathlib import Path

_SHARED_VOICES = Path(__file__).resolve().parents[2].parent / "shared" / "voices" / "kokoro"
if "ONESTEP_KOKORO_VOICES" not in os.environ and _SHARED_VOICES.is_dir():
    os.environ["ONESTEP_KOKORO_VOICES"] = str(_SHARED_VOICES)
