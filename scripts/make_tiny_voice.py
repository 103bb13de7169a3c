"""Write the checked-in test voice ``tests/fixtures/tiny-voice/`` (random weights, tiny dims, < 2 MB).

Usage: ``python scripts/make_tiny_voice.py [--out DIR]``. Deterministic (fixed seed); it speaks noise.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from onestep.config import VoiceConfig
from onestep.model.config import TINY
from onestep.model.export import export_voice
from onestep.model.voice_models import build_models

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "tiny-voice"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    args = parser.parse_args()
    voice = VoiceConfig(
        name="tiny",
        language="en",
        placeholder=True,
        teacher="none (random initialisation)",
        extra={"purpose": "test fixture"},
    )
    written = export_voice(build_models(TINY, seed=1234), voice, args.out)
    total = sum(p.stat().st_size for p in args.out.iterdir())
    print(f"wrote {args.out} ({total / 1e6:.2f} MB, vocoder_context={written.vocoder_context})")


if __name__ == "__main__":
    main()
