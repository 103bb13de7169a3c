"""Point the teacher's voice lookup at the checkout's ../shared ($ONESTEP_SHARED_DIR) (the product has no default location; tests
whose packs are missing there skip)."""

import os
from pathlib import Path

# tests/conftest.py sets $ONESTEP_SHARED_DIR (default <checkout>/../shared)
_SHARED_VOICES = Path(os.environ["ONESTEP_SHARED_DIR"]) / "voices" / "kokoro"
os.environ.setdefault("ONESTEP_KOKORO_VOICES", str(_SHARED_VOICES))
