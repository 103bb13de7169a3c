"""Where does a voice lose quality: the vocoder or the acoustic model? (DNSMOS, CPU, a few minutes)

For held-out sentences (our frontend's phonemes, as in training) this scores with DNSMOS:
  - ``teacher onnx``: the int8 Kokoro ONNX (what ``onestep eval`` compares against);
  - ``teacher port``: the PyTorch port of the same teacher (``onestep_dev.train.kokoro_torch``: what the student
    was trained on);
  - ``resynth port`` / ``resynth onnx``: the student's vocoder on the log-mel of each teacher's audio;
  - ``student``: the student end to end (acoustic model, decoder, vocoder; predicted durations).
``resynth port`` ≈ ``student`` means the acoustic model costs little and the vocoder is the bottleneck.

Needs the ``teacher`` and ``eval`` extras plus the teacher port's packages: ``pip install --no-deps
kokoro==0.9.4`` and ``pip install transformers loguru``.

    python lab/tools/vocoder_gap.py --voice src/onestep/voices/en-heart --teacher-voice af_heart --lines 12
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np
import torch


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--voice", type=Path, required=True, help="student voice directory")
    p.add_argument("--teacher-voice", required=True, help="Kokoro voice the student was distilled from")
    p.add_argument("--lines", type=int, default=12, help="held-out sentences (spread over the set)")
    p.add_argument("--out", type=Path, help="write the mean scores as JSON here")
    args = p.parse_args(argv)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    torch.set_num_threads(1)

    from onestep_dev.eval.dnsmos import DNSMOS
    from onestep_dev.eval.heldout import load_heldout, select
    from onestep.frontend.pipeline import Frontend
    from onestep.frontend.symbols import phonemes_to_ids
    from onestep.model.acoustic import length_regulate
    from onestep.model.export import load_voice_models
    from onestep.model.mel import LogMel
    from onestep_dev.teacher import KokoroTeacher, load_kokoro_voice, style_for
    from onestep_dev.teacher.assets import kokoro_model_path
    from onestep_dev.train.kokoro_torch import load_teacher

    voice, models = load_voice_models(args.voice)
    logmel = LogMel(voice.audio)
    frontend, dnsmos = Frontend(), DNSMOS()
    onnx_teacher, port = KokoroTeacher(threads=1), load_teacher(str(kokoro_model_path()), device="cpu")
    table = load_kokoro_voice(args.teacher_voice)
    scores: dict[str, list[tuple[float, float, float]]] = {}

    @torch.no_grad()
    def student(ids: list[int]) -> np.ndarray:
        t = torch.tensor([ids])
        durations, hidden = models.acoustic(t, torch.ones(t.shape))
        frames, frame_mask = length_regulate(hidden, torch.round(durations).long())
        return models.vocoder(models.decoder(frames, frame_mask))[0].numpy()

    @torch.no_grad()
    def resynth(audio: np.ndarray) -> np.ndarray:
        return models.vocoder(logmel(torch.from_numpy(audio)[None]))[0].numpy()

    sentences = select(load_heldout(voice.language), args.lines)
    for n, sentence in enumerate(sentences, 1):
        for piece in frontend.sentences(sentence.text):
            ids = phonemes_to_ids(piece.phonemes) if piece.phonemes.strip() else []
            if len(ids) < 3:
                continue
            style = np.asarray(style_for(table, ids), dtype=np.float32).reshape(1, 256)
            onnx_audio, _ = onnx_teacher.synthesize(ids, style)
            torch.manual_seed(0)
            port_audio = port(torch.tensor([ids]), torch.from_numpy(style))[0].float().numpy()
            clips = {
                "teacher onnx": onnx_audio,
                "teacher port": port_audio,
                "resynth onnx": resynth(onnx_audio),
                "resynth port": resynth(port_audio),
                "student": student(ids),
            }
            for name, audio in clips.items():
                q = dnsmos.score(audio, voice.audio.sample_rate)
                scores.setdefault(name, []).append((q.sig, q.bak, q.ovrl))
        print(f"{n}/{len(sentences)}", file=sys.stderr, flush=True)

    means = {name: dict(zip(("sig", "bak", "ovrl"), np.mean(rows, axis=0).round(3).tolist(), strict=True))
             for name, rows in scores.items()}
    print(f"| clip ({len(sentences)} sentences, {args.voice.name}) | SIG | BAK | OVRL |\n| --- | ---: | ---: | ---: |")
    for name, m in means.items():
        print(f"| {name} | {m['sig']:.2f} | {m['bak']:.2f} | {m['ovrl']:.2f} |")
    if args.out:
        args.out.write_text(json.dumps(means, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
