# The GPU start's two jobs under one GIL, on the CPU: the frontend preload (English + Mandarin, as TTS() runs it)
# and a stand-in for the batch-1 CUDA-graph capture: CAPTURE_S seconds alone, of which the share GIL_FREE waits
# without the GIL (time.sleep, as a thread waiting for the GPU or the driver with the GIL released), the rest
# pure-Python work holding it (torch's dispatch). "interleaved" starts both at once (what TTS(device="cuda")
# does); "serial" runs the preload first, then the capture (tried 2026-12-07: ready came later, not taken). Each
# mode in a fresh process; times from the start of the two: frontend done, capture done, ready (both).
# `python THIS [RUNS] [CAPTURE_S] [GIL_FREE]`
import json, statistics, subprocess, sys

CHILD = r"""
import json, sys, threading, time
mode, capture_s, gil_free = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
from onestep.frontend.pipeline import Frontend
from onestep.frontend.warm_up import warm_frontend

def spin(n):
    x = 0
    for i in range(n):
        x += i
    return x

t = time.perf_counter(); spin(2_000_000); per = (time.perf_counter() - t) / 2_000_000
steps = 200  # the capture: 200 steps, each Python work then a GIL-free wait
work = int(capture_s * (1 - gil_free) / steps / per)
wait = capture_s * gil_free / steps
fe = Frontend()
done = {}

def capture(t0):
    for _ in range(steps):
        spin(work)
        if wait:
            time.sleep(wait)
    done["capture"] = time.perf_counter() - t0

def preload(t0):
    warm_frontend(fe)
    done["frontend"] = time.perf_counter() - t0

t0 = time.perf_counter()
if mode == "interleaved":
    threads = [threading.Thread(target=capture, args=(t0,)), threading.Thread(target=preload, args=(t0,))]
    [th.start() for th in threads]; [th.join() for th in threads]
else:
    preload(t0); capture(t0)
done["ready"] = time.perf_counter() - t0
print(json.dumps(done))
"""


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    capture_s = sys.argv[2] if len(sys.argv) > 2 else "2.0"
    gil_free = sys.argv[3] if len(sys.argv) > 3 else "0.0"
    for mode in ("serial", "interleaved"):
        rows = []
        for _ in range(runs):
            out = subprocess.run([sys.executable, "-c", CHILD, mode, capture_s, gil_free], capture_output=True, text=True, check=True)
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
        print(f"capture {capture_s} s, {gil_free} GIL-free:", mode, json.dumps({k: f"{min(r[k] for r in rows):.2f}/{statistics.median(r[k] for r in rows):.2f}" for k in rows[0]}))


if __name__ == "__main__":
    main()
