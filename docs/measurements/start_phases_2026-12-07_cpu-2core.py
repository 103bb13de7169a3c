# Start phases of a fresh process on the CPU engine, each run a new interpreter (bytecode compiled, the frontend's
# table cache built, OS file cache warm): `import onestep` + `from onestep import TTS`, `TTS(preload=False)`, then
# `Frontend.preload` of one language (en, zh) or both, then the mixed warm-up text; and `TTS()` (background preload)
# to `tts.wait_ready()`. Times in s from the parent's spawn (process start). Prints min / median over RUNS runs.
# `python THIS [RUNS]`
import json, statistics, subprocess, sys, time

CHILD = r"""
import json, sys, time
t = {"start": float(sys.argv[1])}
mode = sys.argv[2]
t["interp"] = time.time()
import onestep
from onestep import TTS
t["import"] = time.time()
if mode == "ready":
    tts = TTS()
    t["constructed"] = time.time()
    tts.wait_ready()
    t["ready"] = time.time()
else:
    tts = TTS(preload=False)
    t["constructed"] = time.time()
    fe = tts.frontend()
    langs = mode.split("+")
    fe.preload(langs, background=False)
    t["preload"] = time.time()
    from onestep.frontend.warm_up import WARMUP_FRONTEND_TEXT
    list(fe.sentences(WARMUP_FRONTEND_TEXT))
    t["warm_text"] = time.time()
print(json.dumps(t))
"""


def phases(mode: str) -> dict[str, float]:
    start = time.time()
    out = subprocess.run([sys.executable, "-c", CHILD, str(start), mode], capture_output=True, text=True, check=True)
    t = json.loads(out.stdout.strip().splitlines()[-1])
    keys = [k for k in t if k != "start"]
    prev, res = t["start"], {}
    for k in keys:
        res[k] = t[k] - prev
        prev = t[k]
    res["total"] = prev - t["start"]
    return res


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for mode in ("en", "zh", "en+zh", "ready"):
        rows = [phases(mode) for _ in range(runs)]
        summary = {k: f"{min(r[k] for r in rows):.3f}/{statistics.median(r[k] for r in rows):.3f}" for k in rows[0]}
        print(mode, json.dumps(summary))


if __name__ == "__main__":
    main()
