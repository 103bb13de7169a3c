"""Screen the mel sharpening postfilter (onestep.model.mel_sharpen: mel + s * (mel - its k-bin moving average
across the mel bins), applied here between the decoder and the vocoder of the CPU engine, as the export folds it)
on training-corpus lines (not the held-out ones): DNSMOS OVRL/SIG/BAK and Whisper base errors per strength.

usage (from the checkout): python THIS VOICES_DIR|- VOICE:LANG[,VOICE:LANG...] S1,S2,... [N_LINES] [K]
("-": the shipped voices). Results of 2026-12-07: the .txt beside this file."""
import sys
from pathlib import Path

import numpy as np
from onestep import TTS
from onestep.runtime import ort_engine
from onestep_dev.eval.dnsmos import DNSMOS
from onestep_dev.eval.asr import WhisperASR
from onestep_dev.eval.metrics import error_counts, total
from onestep.model.mel_sharpen import sharpening_matrix

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"

vdir, pairs, strengths = sys.argv[1], sys.argv[2].split(","), [float(s) for s in sys.argv[3].split(",")]
n = int(sys.argv[4]) if len(sys.argv) > 4 else 10
k = int(sys.argv[5]) if len(sys.argv) > 5 else 5
state = {"s": 0.0}
orig = ort_engine.OrtEngine._mel

def _mel(self, frames, fmask, n_max, speaker):
    mel = orig(self, frames, fmask, n_max, speaker)
    s = state["s"]
    if s == 0.0:
        return mel
    t = sharpening_matrix(mel.shape[1], s, k).numpy()
    return np.einsum("ij,bjl->bil", t, mel).astype(np.float32)
ort_engine.OrtEngine._mel = _mel
tts = TTS(voices_dir=vdir if vdir != "-" else None)
d, asr = DNSMOS(), WhisperASR("base", threads=1)
for pair in pairs:
    voice, lang = pair.split(":")
    lines = [l.strip() for l in open(CORPUS / f"{lang}_train.txt", encoding="utf-8")][3000:]
    lines = [l for l in lines if 20 <= len(l) <= 120][: n * 7 : 7]
    for s in strengths:
        state["s"] = s
        q, errs = [], []
        for t in lines:
            a = tts.synthesize(t, voice=voice, language=lang)
            q.append(d.score(a.samples, a.sample_rate))
            if lang != "hi":
                errs.append(error_counts(t, asr.transcribe(a.samples, a.sample_rate, lang), lang))
        e = total(errs) if errs else None
        print(f"{voice} {lang} s={s} k={k} OVRL {np.mean([x.ovrl for x in q]):.3f} SIG {np.mean([x.sig for x in q]):.3f} "
              f"BAK {np.mean([x.bak for x in q]):.3f} err {e.rate*100 if e else float('nan'):.1f}% ({e.errors if e else '-'})", flush=True)
