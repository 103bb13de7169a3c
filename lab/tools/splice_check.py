"""Splice check (TRAINING.md §3b): Mandarin samples of the `english` splice vs one render, English run levels,
and Whisper zh CER on the Mandarin runs alone.  PYTHONPATH=src:dev/src nice -n 10 python3 lab/tools/splice_check.py VOICE 30"""
import sys, re, numpy as np
from onestep.frontend.pipeline import Frontend
from onestep.frontend.symbols import phonemes_to_ids
from onestep_dev.teacher import KokoroTeacher, load_kokoro_voice, style_for
from onestep_dev.train.code_switch import code_switch_sentences
from onestep_dev.train.splice import language_runs, splice_render
from onestep_dev.eval.asr import WhisperASR
from onestep_dev.eval.metrics import error_counts
voice = sys.argv[1]; n = int(sys.argv[2])
f = Frontend(); t = KokoroTeacher(threads=1); table = load_kokoro_voice(voice); asr = WhisperASR("base", threads=1)
db = lambda x: 20*np.log10(np.sqrt(np.mean(x**2))+1e-9)
diffs, lv, jumps = [], [], []
tot = {"plain": [0,0], "english": [0,0]}
for text in code_switch_sentences(n, "heldout"):
    for u in f.sentences(text):
        ids = phonemes_to_ids(u.phonemes); st = style_for(table, ids)
        runs = language_runs([[s.lang, s.phonemes] for s in u.segments if s.phonemes], u.phonemes)
        if runs is None: continue
        a0, u0 = t.synthesize(ids, st)
        a1, u1 = splice_render(lambda x, speed=1.0: t.synthesize(x, st, speed), runs, "english")
        e0 = np.cumsum(np.r_[0, u0]) * 600; e1 = np.cumsum(np.r_[0, u1]) * 600
        k = 1; zh0, zh1 = [], []
        for lang, r in runs:
            a, b = k, k + len(r); k = b
            s0, s1 = a0[e0[a]:e0[b]], a1[e1[a]:e1[b]]
            if lang == "zh":
                zh0.append(s0); zh1.append(s1)
                if s0.size == s1.size and s0.size > 480: diffs.append(np.abs(s0[120:-120] - s1[120:-120]).max())
            else:
                lv.append((db(s0), db(s1)))
            jumps.append(abs(float(a1[e1[a]]) - float(a1[e1[a]-1])))
        ref = re.sub(r"[A-Za-z0-9'\-.]+", "", text)
        for name, parts in (("plain", zh0), ("english", zh1)):
            gap = np.zeros(2400, np.float32)
            audio = np.concatenate([x for p in parts for x in (p, gap)])
            hyp = re.sub(r"[A-Za-z0-9'\-.]+", "", asr.transcribe(audio, 24000, "zh"))
            c = error_counts(ref, hyp, "zh"); tot[name][0] += c.errors; tot[name][1] += c.ref_units
print(voice, "mandarin-run max |diff| away from joins:", max(diffs) if diffs else None, "over", len(diffs), "runs")
lv = np.array(lv); print("English runs RMS dB plain %.1f spliced %.1f (mean diff %.1f, sd %.1f)" % (lv[:,0].mean(), lv[:,1].mean(), (lv[:,1]-lv[:,0]).mean(), (lv[:,1]-lv[:,0]).std()))
print("max sample step at run starts:", max(jumps))
for k, (e, r) in tot.items(): print(f"Mandarin runs alone, Whisper zh CER {k}: {e}/{r} = {100*e/r:.1f} %")
