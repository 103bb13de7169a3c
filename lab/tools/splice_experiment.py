"""Issue 11 experiment: does rendering code-switched rows in language runs (onestep_dev.train.splice) make the
teacher's English words heard as English? CPU, ONNX teacher, the code-switch measure's own cut and judge.

    PYTHONPATH=src:dev/src nice -n 10 python3 lab/tools/splice_experiment.py --voice zf_xiaoxiao --sentences 30 --out DIR

Per variant ("plain" = one render of the row, as teacher_data does today; then every splice mode): English
words heard as English, and a Mandarin check: Whisper zh on the audio with the English spans silenced, CER
against the sentence without its English words (Chinese characters only).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--voice", required=True)
    p.add_argument("--sentences", type=int, default=30)
    p.add_argument("--modes", default="plain,runs,english,carrier")
    p.add_argument("--english-speed", type=float, default=1.0)
    p.add_argument("--match-level-db", type=float, default=6.0, help="for the modes ending in '+level'")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)

    from onestep_dev.eval.asr import WhisperASR
    from onestep_dev.eval.code_switch import english_sounds, judge, summarize, teacher_words
    from onestep_dev.eval.metrics import error_counts
    from onestep.frontend.pipeline import Frontend
    from onestep.frontend.symbols import phonemes_to_ids
    from onestep_dev.teacher import KokoroTeacher, load_kokoro_voice, style_for
    from onestep_dev.train.code_switch import code_switch_sentences
    from onestep_dev.train.splice import language_runs, splice_render

    frontend = Frontend()
    teacher = KokoroTeacher(threads=1)
    table = load_kokoro_voice(args.voice)
    asr = WhisperASR("base", threads=1, keep_silent=True)
    sounds = english_sounds()
    sentences = code_switch_sentences(args.sentences, "heldout")
    cache: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}

    def synth(ids: list[int], style: np.ndarray, speed: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        key = (*ids, speed)
        if key not in cache:
            cache[key] = teacher.synthesize(ids, style, speed)
        return cache[key]

    class Renderer:  # teacher_words' teacher: plain or spliced by mode, per utterance (looked up by its ids)
        sample_rate = teacher.sample_rate

        def __init__(self, mode: str, runs_of: dict[tuple[int, ...], list]) -> None:
            self.mode, self.runs_of = mode, runs_of

        def synthesize(self, ids: list[int], style: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            runs = self.runs_of.get(tuple(ids))
            if self.mode == "plain" or runs is None:
                return synth(ids, style)
            mode, _, level = self.mode.partition("+")
            return splice_render(lambda x, speed=1.0: synth(x, style, speed), runs, mode,
                                 english_speed=args.english_speed,
                                 match_level_db=args.match_level_db if level else 0.0)

    results, zh = [], {}
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(sentences):
        utterances = list(frontend.sentences(text))
        runs_of = {}
        for u in utterances:
            ids = phonemes_to_ids(u.phonemes)
            runs_of[tuple(ids)] = language_runs([[s.lang, s.phonemes] for s in u.segments], u.phonemes)
        for mode in args.modes.split(","):
            t0 = time.time()
            # teacher_words picks style_for(style, ids) of the whole row; the renderer uses that one style
            audio, rate, spans = teacher_words(Renderer(mode, runs_of), table, utterances, text)
            results += judge(mode, text, audio, rate, spans, asr, sounds)
            masked = audio.copy()
            for s in spans:
                masked[int(s.start * rate) : int(s.end * rate)] = 0.0
            hyp = asr.transcribe(masked, rate, "zh")
            ref = re.sub(r"[A-Za-z0-9'\-.]+", "", text)
            hyp_zh = re.sub(r"[A-Za-z0-9'\-.]+", "", hyp)
            c = error_counts(ref, hyp_zh, "zh").to_dict()
            zh.setdefault(mode, []).append({"text": text, "asr": hyp, "errors": c, "seconds": audio.size / rate})
            print(f"[{args.voice} {i} {mode}] {time.time() - t0:.1f}s "
                  + " ".join(f"{r.word}->{r.heard!r}:{int(r.ok)}" for r in results if r.system == mode and r.sentence == text), flush=True)
        summary = summarize(results)
        for mode, rows in zh.items():
            errs = sum(r["errors"]["substitutions"] + r["errors"]["deletions"] + r["errors"]["insertions"] for r in rows)
            ref_n = sum(r["errors"]["ref_units"] for r in rows)
            summary[mode]["zh_cer"] = errs / max(ref_n, 1)
            summary[mode]["seconds"] = sum(r["seconds"] for r in rows)
        report = {"voice": args.voice, "sentences": i + 1, "summary": summary, "zh": zh,
                  "words": [r.__dict__ for r in results]}
        (out / f"splice-{args.voice}{'' if args.english_speed == 1 else f'-s{args.english_speed:g}'}"
         f"{'-level' if '+level' in args.modes else ''}.json").write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for mode, s in report["summary"].items():
        print(f"{args.voice} {mode}: {s['heard']}/{s['words']} = {100 * s['rate']:.1f} %  zh CER {100 * s['zh_cer']:.1f} %  {s['seconds']:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
