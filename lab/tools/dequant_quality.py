"""What the GPU engine loses by deriving its float weights from the shipped INT8 graphs (CPU, a few minutes).

A shipped voice keeps one precision per network: ``decoder.int8.onnx`` and ``vocoder.int8.onnx`` (what the CPU
engine runs). The GPU engine rebuilds its float networks from them (INT8 weights dequantized,
``onestep.model.quantize.float_state_dict``). This runs the GPU engine's own steps eagerly on the CPU in
float32 (``CudaSettings(device="cpu", cuda_graphs=False, dtype="fp32")``), once with the float graphs' weights
(``--float-dir``: a voice directory that still has ``decoder.onnx`` / ``vocoder.onnx``, e.g. the pack before
0.3.0's float graphs were dropped: ``git show``) and once with the dequantized INT8 weights (``--int8-dir``),
on held-out lines, and prints the log-mel L1 between the two (natural-log mel of ``onestep.model.mel.LogMel``,
mean over frames and bins). For scale it also gives the CPU engine's own change (ONNX Runtime, float graphs vs
the INT8 graphs, activations quantized per frame too) against the same reference.

    python lab/tools/dequant_quality.py --float-dir /tmp/pack-float --int8-dir src/onestep/voices/multispeaker \\
        --lines 10 --out result.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np
import torch

VOICES = {"en": "en-heart", "zh": "zh-xiaoxiao"}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--float-dir", type=Path, required=True, help="voice directory with the float graphs")
    p.add_argument("--int8-dir", type=Path, required=True, help="the same voice with only the INT8 graphs")
    p.add_argument("--lines", type=int, default=10, help="held-out sentences per language (spread over the set)")
    p.add_argument("--langs", default="en,zh")
    p.add_argument("--out", type=Path, help="write the per-line figures as JSON here")
    args = p.parse_args(argv)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    torch.set_num_threads(2)

    from onestep.config import AudioConfig
    from onestep.frontend.pipeline import Frontend
    from onestep.frontend.symbols import phonemes_to_ids
    from onestep.model.mel import LogMel
    from onestep.runtime.cuda_engine import CudaEngine, CudaSettings
    from onestep.runtime.ort_engine import OrtEngine, OrtSettings
    from onestep_dev.eval.heldout import load_heldout, select

    torch_settings = CudaSettings(device="cpu", cuda_graphs=False, dtype="fp32", batch_sizes=(1,))
    systems = {
        "torch float weights": CudaEngine(args.float_dir, torch_settings, warmup=False),
        "torch dequantized INT8": CudaEngine(args.int8_dir, torch_settings, warmup=False),
        "ORT float graphs": OrtEngine(args.float_dir, OrtSettings(int8=False), warmup=False),
        "ORT INT8 graphs": OrtEngine(args.int8_dir, warmup=False),
    }
    reference = "torch float weights"
    config = systems[reference].config
    logmel = LogMel(config.audio if isinstance(config.audio, AudioConfig) else AudioConfig())
    frontend = Frontend()
    names = [s.name for s in config.speakers]
    rows = []
    for lang in args.langs.split(","):
        speaker = systems["ORT INT8 graphs"].speakers[names.index(VOICES[lang])]
        for sentence in select(load_heldout(lang), args.lines):
            pieces = [phonemes_to_ids(q.phonemes) for q in frontend.sentences(sentence.text, language=lang) if q.phonemes.strip()]
            audio = {
                name: np.concatenate([np.asarray(e.synthesize(ids, speaker=speaker).audio, np.float32) for ids in pieces])
                for name, e in systems.items()
            }
            mels = {name: logmel(torch.from_numpy(a)[None])[0] for name, a in audio.items()}
            ref = mels[reference]
            row = {"lang": lang, "text": sentence.text, "seconds": len(audio[reference]) / config.audio.sample_rate}
            for name, mel in mels.items():
                if name != reference:
                    n = min(mel.shape[-1], ref.shape[-1])
                    row[name] = float((mel[..., :n] - ref[..., :n]).abs().mean())
            rows.append(row)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    summary = {
        name: {lang: float(np.mean([r[name] for r in rows if r["lang"] == lang])) for lang in args.langs.split(",")}
        for name in systems
        if name != reference
    }
    print(f"log-mel L1 against {reference!r} (mean of {len(rows)} lines):")
    for name, by_lang in summary.items():
        print(f"  {name:24s} " + "  ".join(f"{lang} {v:.4f}" for lang, v in by_lang.items()))
    if args.out:
        args.out.write_text(json.dumps({"reference": reference, "summary": summary, "lines": rows}, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
