# One process per language: TTS(preload=False), three held-out lines in that language; prints the calls (ms) and
# which language packages of the frontend were loaded. `for l in en zh ja es fr it pt hi; do python THIS $l; done`
import sys, time, json
lang = sys.argv[1]
from onestep_dev.eval.heldout import load_heldout
lines = [s.text for s in load_heldout(lang)][:3]
t0 = time.perf_counter()
from onestep import TTS
tts = TTS(preload=False)
t1 = time.perf_counter()
times = []
for text in lines:
    a = time.perf_counter(); tts.synthesize(text, language=lang); times.append((time.perf_counter() - a) * 1e3)
mods = sorted({m.split(".")[2] for m in sys.modules if m.startswith("onestep.frontend.") and m.count(".") >= 2 and m.split(".")[2] in ("zh","en","ja","es","fr","it","pt","hi")})
print(json.dumps({"lang": lang, "import_ctor_s": round(t1 - t0, 2), "calls_ms": [round(t, 1) for t in times],
                  "frontend_packages_loaded": mods, "pyopenjtalk": "pyopenjtalk" in sys.modules, "jieba": "jieba" in sys.modules}))
