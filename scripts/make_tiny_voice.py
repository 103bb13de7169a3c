"""Write the checked-in test voices (random weights, tiny dims, < 2 MB each): ``tests/fixtures/tiny-voice/``
and, with ``--multi``, the multi-speaker ``tests/fixtures/multi/tiny-multi/`` (four voices: tiny-en-f, tiny-en-m,
tiny-zh-f, tiny-zh-m; speaker projections drawn at random so that the voices differ).

Usage: ``python scripts/make_tiny_voice.py [--multi] [--out DIR]``. Deterministic (fixed seed); it speaks noise.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from onestep.config import VoiceConfig
from onestep.model_config import TINY
from onestep.model.export import export_voice
from onestep.model.voice_models import build_models

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
DEFAULT_OUT = FIXTURES / "tiny-voice"
MULTI_SPEAKERS = (("tiny-en-f", "en", "female"), ("tiny-en-m", "en", "male"), ("tiny-zh-f", "zh", "female"),
                  ("tiny-zh-m", "zh", "male"))  # fmt: skip


def write_multi(out: Path) -> VoiceConfig:
    """The tiny multi-speaker fixture (see the module docstring)."""
    import dataclasses

    import torch

    from onestep.config import DEFAULT_FILES, SpeakerInfo
    from onestep.model.export import SPEAKERS_FILE

    models = build_models(dataclasses.replace(TINY, n_speakers=len(MULTI_SPEAKERS), speaker_dim=8), seed=4321)
    generator = torch.Generator().manual_seed(4321)
    with torch.no_grad():
        for bias in (models.acoustic.speaker_encoder, models.acoustic.speaker_duration, models.decoder.speaker_bias):
            bias.proj.weight.copy_(torch.randn(bias.proj.weight.shape, generator=generator) * 0.5)
    speakers = tuple(
        SpeakerInfo(name, language, gender, "test", "none (random initialisation)", default=name.endswith("-f"))
        for name, language, gender in MULTI_SPEAKERS
    )
    voice = VoiceConfig(
        name="tiny-multi", language="en", placeholder=True, teacher="none (random initialisation)",
        extra={"purpose": "test fixture"}, model=models.config, speakers=speakers,
        files={**DEFAULT_FILES, "speakers": SPEAKERS_FILE},
    )  # fmt: skip
    return export_voice(models, voice, out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="output directory (default: the fixture's)")
    parser.add_argument("--multi", action="store_true", help="the multi-speaker fixture")
    args = parser.parse_args()
    if args.multi:
        out = args.out or FIXTURES / "multi" / "tiny-multi"
        written = write_multi(out)
        print(f"wrote {out} ({sum(p.stat().st_size for p in out.iterdir()) / 1e6:.2f} MB, {len(written.speakers)} voices)")
        return
    args.out = args.out or DEFAULT_OUT
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
