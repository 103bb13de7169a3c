"""Where a server request's host time goes, on a CPU, with a stand-in engine (issue 22, the server part).

Serves the shipped multispeaker voice's frontend and config with lab/standin_engine.py's engine (it answers at
once: what is timed is the work around it) through the GPU server's path (``--scheduler batch``: micro-batching,
the frontend before admission) on a real uvicorn server in this process; ONE client in a child process sends
held-out text pairs one after another (no concurrency: each request's own cost), then the same steps are timed
alone on the same texts. Per request: the server process's CPU time (all its threads), and its parts.

    PYTHONPATH=$PWD/src:$PWD/dev/src:$PWD/lab python3 lab/server_profile.py [--lines 40] [--processes 0|N]

``--processes N`` serves with ``--frontend-processes N`` (the host work in worker processes): the parent's CPU per
request is then what is left in the server process.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "gpu"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

CLIENT = r"""
import json, sys, time, httpx
url, texts, fmt, n = sys.argv[1], json.loads(sys.stdin.read()), sys.argv[2], int(sys.argv[3])
fmt, _, rate = fmt.partition("@")  # "pcm@16000": resampled
extra = {"sample_rate": int(rate)} if rate else {}
gaps = []  # per request: the client's whole-request ms minus the server's own TTFA header (submitted -> first chunk)
with httpx.Client(timeout=60) as c:
    for i in range(n):
        t0 = time.perf_counter()
        r = c.post(url + "/v1/audio/speech", json={"input": texts[i % len(texts)], "voice": "en-heart", "response_format": fmt, **extra})
        took = (time.perf_counter() - t0) * 1e3
        assert r.status_code == 200, r.text
        gaps.append(took - float(r.headers["x-time-to-first-audio-ms"]))
print(json.dumps(sorted(gaps)))
"""


def best_us(fn, items: list, repeat: int = 3) -> float:
    """Best of ``repeat`` passes of ``fn(item)`` over ``items``: µs per item."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for it in items:
            fn(it)
        best = min(best, time.perf_counter() - t0)
    return round(best / len(items) * 1e6, 1)


def stage_sums(metrics) -> dict[str, tuple[float, float]]:
    """{stage: (count, sum seconds)} of the server's ``onestep_stage_seconds`` histogram now."""
    found: dict[str, list[float]] = {}
    for family in metrics.stage.collect():
        for s in family.samples:
            if s.name.endswith(("_count", "_sum")):
                entry = found.setdefault(s.labels["stage"], [0.0, 0.0])
                entry[0 if s.name.endswith("_count") else 1] = s.value
    return {k: (v[0], v[1]) for k, v in found.items()}


def serve_in_thread(app):  # noqa: ANN001, ANN201 - (uvicorn.Server, threading.Thread, base URL)
    """Serve the onestep ``app`` on a free loopback port from a daemon thread; return once it listens and its
    warm-up is over (ready, or failed: ``app.state.onestep.warmup_error``)."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    state = app.state.onestep
    while not state.ready and not state.warmup_error:
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=40, help="text pairs per language (en, zh)")
    ap.add_argument("--requests", type=int, default=200, help="requests per format through the server")
    ap.add_argument("--processes", type=int, default=0, help="--frontend-processes of the server")
    ap.add_argument("--formats", default="pcm,wav,mp3,pcm@16000", help="response formats (fmt@rate: resampled)")
    args = ap.parse_args()

    from dataclasses import replace

    from host_profile import texts_of
    from onestep import TTS
    from onestep.runtime.encoders import encode_file
    from onestep.runtime.output import OutputOptions
    from onestep.server.app import create_app
    from onestep.server.backend import SynthesisRequest
    try:
        from onestep.server.builder import backend_for
    except ImportError:  # a build before this script (for a before/after comparison): no worker processes there
        from onestep.server.backend import TTSBackend

        def backend_for(tts, config):  # noqa: ANN001, ANN202
            return TTSBackend(tts)
    from onestep.server.config import ServerConfig
    from onestep.synthesis.passes import engine_pass
    from onestep.synthesis.render import finish
    from standin_engine import use_standin

    texts = texts_of(args.lines)
    tts = TTS(preload=False)
    use_standin(tts)
    config = ServerConfig(port=0, scheduler_kind="batch", frontend_processes=args.processes, queue_size=64)
    backend = backend_for(tts, config)
    out: dict = {"texts": len(texts), "frontend_processes": args.processes}

    # --- the parts, alone (in this process, the in-process path's functions) ---
    reqs = [SynthesisRequest(t, "en-heart") for t in texts]
    prepared = [tts.prepare(t, "en-heart") for t in texts]
    parts = engine_pass(prepared)
    audio = [finish(p, q, "", tts._resources).samples for p, q in zip(prepared, parts, strict=True)]
    out["audio_s_per_text"] = round(sum(a.size for a in audio) / len(audio) / 24000, 2)
    res = tts._resources
    out["alone_us"] = {
        "frontend (TTS.prepare, text seen before)": best_us(lambda t: tts.prepare(t, "en-heart"), texts),
        "engine pass (stand-in: grouping + one copy)": best_us(lambda p: engine_pass([p]), prepared),
        "finish without timings (assembly, output)": best_us(lambda i: finish(prepared[i], parts[i], "", res), range(len(texts))),
        "finish with word timings": best_us(lambda i: finish(prepared[i], parts[i], "word", res), range(len(texts))),
        **{f"encode {f}": best_us(lambda a, f=f: encode_file(f, a, 24000), audio) for f in args.formats.split(",") if "@" not in f},
        "output stage 24 -> 16 kHz": best_us(lambda i: finish(replace(prepared[i], output=OutputOptions(16000)), parts[i], "", res), range(len(texts))),
    }

    # --- through the server (one client, closed loop) ---
    app = create_app(config, backend, phrases=None)
    app.state.onestep.phrases = None
    server, thread, url = serve_in_thread(app)
    state = app.state.onestep
    if state.warmup_error:  # e.g. a voice whose language needs an extra not installed here: served anyway
        print("warm-up:", state.warmup_error, file=sys.stderr)
    out["server"] = {}
    for fmt in args.formats.split(","):
        for n, keep in ((20, False), (args.requests, True)):  # a short run first (warms this format's path)
            stages0 = stage_sums(state.metrics)
            cpu0, t0 = time.process_time(), time.perf_counter()
            done = subprocess.run([sys.executable, "-c", CLIENT, url, fmt, str(n)], input=json.dumps(texts), text=True,
                                  check=True, capture_output=True)  # fmt: skip
            cpu, wall = time.process_time() - cpu0, time.perf_counter() - t0
            gaps = json.loads(done.stdout)
        out["server"][fmt] = {
            "server_cpu_us_per_request": round(cpu / n * 1e6, 1),
            "wall_ms_per_request": round(wall / n * 1e3, 2),
            # what a request spends outside the server's TTFA (frontend, HTTP, the client), and its tail
            "outside_server_ttfa_ms_p50_p90": [round(gaps[len(gaps) // 2], 2), round(gaps[int(len(gaps) * 0.9)], 2)],
            "stage_means_ms": {k: round((v[1] - stages0.get(k, (0, 0.0))[1]) / max(v[0] - stages0.get(k, (0, 0.0))[0], 1) * 1e3, 3)
                               for k, v in stage_sums(state.metrics).items()},
        }
    server.should_exit = True
    thread.join(timeout=30)
    close = getattr(backend, "close", None)
    if close is not None:
        close()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
