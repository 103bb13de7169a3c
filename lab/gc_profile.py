"""Where the server's garbage collections fall: inside requests (CPython's threshold) or between them (idle
collection, onestep.runtime.idle_gc), and what that does to the time to first audio (issue 22, the p99 tail).

The GPU server's path (``--scheduler batch``: micro-batching, the frontend before admission) with
lab/standin_engine.py's engine (answers at once: what is timed is the host work around it), served by uvicorn in
this process; CLIENTS clients at real-time pace on held-out text pairs (onestep_dev.bench.load_test in its own
processes), once with idle collection and once without (the threshold alone, as before it), same texts and seed.

    PYTHONPATH=$PWD/src:$PWD/dev/src:$PWD/lab:$PWD/lab/gpu python3 lab/gc_profile.py [--clients 100] [--seconds 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "gpu"))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def gc_pauses(metrics: str) -> dict[str, dict[str, float]]:
    """{trigger: {"count", "ms"}} of the server's GC pauses in a /metrics text."""
    out: dict[str, dict[str, float]] = {}
    for kind, labels, value in re.findall(r"^onestep_gc_pause_seconds_(count|sum)\{([^}]*)\} (\S+)", metrics, re.M):
        trigger = re.search(r'trigger="([^"]+)"', labels)
        entry = out.setdefault(trigger.group(1) if trigger else "automatic", {"count": 0.0, "ms": 0.0})
        entry["count" if kind == "count" else "ms"] += float(value) * (1 if kind == "count" else 1000)
    return {k: {"count": v["count"], "ms": round(v["ms"], 1)} for k, v in out.items()}


def serve_and_load(idle: bool, texts: list[str], clients: int, seconds: float) -> dict:
    import httpx

    import onestep.server.app as server_app
    from onestep import TTS
    from onestep.server.builder import backend_for
    from onestep.server.config import ServerConfig
    from onestep_dev.bench.load_test import run_load_test
    from server_profile import serve_in_thread
    from standin_engine import use_standin

    if not idle:  # the threshold alone: what the server did before idle collection
        async def never(state) -> None:  # noqa: ANN001
            await asyncio.Event().wait()

        server_app._collect_garbage_when_idle = never
    tts = TTS(preload=False)
    use_standin(tts)
    config = ServerConfig(port=0, scheduler_kind="batch", queue_size=256, warmup=False)  # the stand-in cannot stream
    app = server_app.create_app(config, backend_for(tts, config), phrases=None)
    app.state.onestep.phrases = None
    server, thread, url = serve_in_thread(app)
    result = run_load_test(url, clients, seconds, pace="realtime", texts=tuple(texts), voice="en-heart", seed=0,
                           processes=max(1, clients // 50))  # fmt: skip
    metrics = httpx.get(url + "/metrics").text
    server.should_exit = True
    thread.join(timeout=30)  # the server's tasks (the idle collector among them) end before the interpreter
    steady = result["steady"]
    return {"idle_collection": idle, "ok": steady["ok"], "errors": steady["error_count"],
            "ttfa_ms": steady["ttfa_ms"], "server_ttfa_ms": steady["server_ttfa_ms"], "gc": gc_pauses(metrics)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clients", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--lines", type=int, default=40, help="held-out text pairs per language (en, zh)")
    ap.add_argument("--idle", choices=["on", "off"], help="one side only (each side runs in its own process)")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    from host_profile import texts_of

    if args.idle:
        print(json.dumps(serve_and_load(args.idle == "on", texts_of(args.lines), args.clients, args.seconds)))
        return
    import subprocess

    rows = []
    for side in ("off", "on"):
        done = subprocess.run([sys.executable, __file__, "--idle", side, "--clients", str(args.clients),
                               "--seconds", str(args.seconds), "--lines", str(args.lines)],
                              capture_output=True, text=True, check=True)  # fmt: skip
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        r = rows[-1]
        auto, idle = r["gc"].get("automatic", {}), r["gc"].get("idle", {})
        print(f"idle collection {side:>3}: {r['ok']} ok, {r['errors']} errors; TTFA p50 {r['ttfa_ms']['p50']} "
              f"p99 {r['ttfa_ms']['p99']} max {r['ttfa_ms']['max']} ms (server p99 {r['server_ttfa_ms']['p99']}); "
              f"GC automatic {auto.get('count', 0):.0f} ({auto.get('ms', 0)} ms), idle {idle.get('count', 0):.0f} "
              f"({idle.get('ms', 0)} ms)", flush=True)  # fmt: skip
    if args.out:
        args.out.write_text(json.dumps({"clients": args.clients, "seconds": args.seconds, "runs": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
