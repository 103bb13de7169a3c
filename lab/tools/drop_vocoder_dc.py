"""Re-export a voice's vocoder with the iSTFT head's DC bin dropped (``ModelConfig.istft_drop_dc``).

Same weights, no retraining: only ``vocoder.onnx`` (weights stored as fp16 where exact) and ``voice.json``
(``extra.model.istft_drop_dc``, version) change, so the acoustic and decoder graphs stay byte-identical.
Derive ``vocoder.int8.onnx`` afterwards (``python -m onestep.model.quantize VOICE_DIR``).

    python lab/tools/drop_vocoder_dc.py src/onestep/voices/en-heart --version 0.1.1
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from onestep.model.export import export_graph, load_voice_models, model_config_of
from onestep.model.vocoder import Vocoder


def drop_vocoder_dc(voice_dir: Path, version: str) -> None:
    """Rewrite ``voice_dir``'s vocoder graph and ``voice.json`` in place."""
    voice, models = load_voice_models(voice_dir)
    if model_config_of(voice).istft_drop_dc:
        raise SystemExit(f"{voice_dir}: the vocoder already drops the DC bin")
    cfg = dataclasses.replace(models.config, istft_drop_dc=True)
    vocoder = Vocoder(cfg)
    vocoder.load_state_dict(models.vocoder.state_dict())  # the iSTFT basis is a non-persistent buffer
    export_graph(vocoder.eval(), "vocoder", cfg, voice_dir / voice.files["vocoder"])
    dataclasses.replace(voice, version=version, model=cfg).save(
        voice_dir / "voice.json"
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("voice_dir", type=Path, help="voice directory (voice.json + the three graphs)")
    p.add_argument("--version", required=True, help="the voice's new version string")
    args = p.parse_args(argv)
    drop_vocoder_dc(args.voice_dir, args.version)
    print(f"{args.voice_dir}: vocoder re-exported without the DC bin, version {args.version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
