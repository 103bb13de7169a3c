#!/usr/bin/env bash
# GPU machine: the server load test of issue 5 (100 clients, p99 time to first audio <= 15 ms), ~3 minutes.
#
#   1. unpack .carry/server/site.tar.xz (built here by lab/gpu/server_wheels.sh) and put it on PYTHONPATH;
#   2. make a random full-size stand-in voice (same architecture = same compute as the shipped ones, which
#      are too big to carry), under the shipped voices' names so that it shadows them;
#   3. per variant (VARIANTS): start `onestep serve --device $DEVICE` on 127.0.0.1, wait for /health;
#   4. load test: $CLIENTS clients paced in real time for $RT_S s, $RT_RUNS times in a row (issue 22's target: three
#      consecutive 60-s runs), then (first variant only, or every one with CLOSED_ALL=1) $CLIENTS clients closed
#      loop for $CL_S s;
#   5. write JSON (+ server log, /metrics, GPU utilisation) to $OUT/<variant> and print a short table with the
#      server's stage means (frontend, batch wait, engine, hand-over) from its /metrics.
#
# Usage (GPU):   bash lab/gpu/server_load.sh                  (carry: .carry/server)
# Usage (CPU):   DEVICE=cpu CLIENTS=4 RT_S=8 CL_S=5 VOICES=tests/fixtures OUT=/tmp/sl bash lab/gpu/server_load.sh
# Issue 22 (server, one call of < 9 minutes: 2 servers x (3 x 60 s + 15 s) + starts ~ 7.5 min):
#   ENGINE=0 SERVER_S=530 RT_RUNS=3 RT_S=60 CL_S=15 CLOSED_ALL=1 \
#     VARIANTS="threads=;procs6=--frontend-processes 6" bash lab/gpu/measure.sh
# Env: PYTHON (default python3), DEVICE (cuda), CLIENTS (100), RT_S (30), RT_RUNS (1: real-time runs in a row, named
#      realtime, realtime2, ...), CL_S (20; 0: no closed loop), CL_CLIENTS (the closed loop's clients; $CLIENTS), OUT
#      (default $OUT or runs/server_load), VOICES (a voices dir to use instead of the stand-in), SERVE_ARGS (extra
#      serve options for every variant), VARIANTS ("name=serve options;name=..." servers to test one after
#      another; default "default=": the defaults), CLOSED_ALL=1 (the closed loop for every variant, not only the
#      first), USE_CARRY=0 (use the installed packages, not .carry/server), LOAD_PROCS (the load generator's
#      processes, `onestep bench --processes`; default: one per 13 clients, at most half the cores = 8 for 100
#      clients on 16 cores: at ~1,000 req/s each asyncio client process carries ~125 req/s).
# A variant with `--processes N` (N server processes on the port, docs/SERVER.md) is waited for until the
# supervisor logs every process ready; its /metrics sum the N processes.
# Issue 22, the HTTP layer in several processes (one call, ~7.5 min):
#   ENGINE=0 SERVER_S=530 RT_RUNS=3 RT_S=60 CL_S=15 CLOSED_ALL=1 \
#     VARIANTS="procs6=--frontend-processes 6;http4=--processes 4 --frontend-processes 4" bash lab/gpu/measure.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
DEVICE=${DEVICE:-cuda}; CLIENTS=${CLIENTS:-100}; RT_S=${RT_S:-30}; CL_S=${CL_S:-20}; RT_RUNS=${RT_RUNS:-1}
CL_CLIENTS=${CL_CLIENTS:-$CLIENTS}
OUT=${OUT:-runs/server_load}
mkdir -p "$OUT"
tmp=$(mktemp -d /tmp/server-load.XXXXXX)
server_pid=; util_pid=
cleanup() {
  [ -n "$util_pid" ] && kill "$util_pid" 2>/dev/null || true
  [ -n "$server_pid" ] && kill -INT "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
t_start=$(date +%s)
if [ "${USE_CARRY:-1}" = 1 ] && [ -f .carry/server/site.tar.xz ]; then
  "$PY" -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" .carry/server/site.tar.xz "$tmp"
  export ONESTEP_SITE_AFTER="$tmp/site" PYTHONPATH="$PWD/src:$PWD/dev/src:$PWD/lab/gpu/site_after"  # after the image's packages
else
  echo "no .carry/server/site.tar.xz: using the installed packages" >&2
  export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
fi
"$PY" -c "import sys, numpy; print('python', sys.version.split()[0], 'numpy', numpy.__version__)"
if [ -z "${VOICES:-}" ]; then
  VOICES="$tmp/voices"
  "$PY" lab/gpu/standin_voice.py "$VOICES"
fi
# One server per variant ("name=serve options", ';'-separated; default: the defaults alone), each load-tested
# in real time; the first variant also closed loop. Each variant's files go to $OUT/<name>/.
IFS=';' read -r -a variants <<< "${VARIANTS:-default=}"
dump_metrics() {  # the server's /metrics (summed over its processes) on stdout
  "$PY" -c "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1] + '/metrics').read().decode())" "$1"
}
names=()
for variant in "${variants[@]}"; do
  name=${variant%%=*}; args=${variant#*=}; names+=("$name")
  vout="$OUT/$name"; mkdir -p "$vout"
  port=$("$PY" -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
  url="http://127.0.0.1:$port"
  echo "== variant $name: serve ${SERVE_ARGS:-} $args"
  # queue: every client may have a request in flight (the default 32 is for a CPU box)
  "$PY" -m onestep serve --device "$DEVICE" --voices-dir "$VOICES" --port "$port" --queue-size 512 \
    --log-level info ${SERVE_ARGS:-} $args > "$vout/server.log" 2>&1 &
  server_pid=$!
  "$PY" - "$url" "$server_pid" "$vout/server.log" <<'PY'
import os, sys, time, urllib.error, urllib.request
t0 = time.perf_counter()


def all_processes_ready() -> bool:
    """--processes N: the supervisor logs 'ready: N server processes' once every one listens (one answers sooner)."""
    log = open(sys.argv[3], errors="replace").read()
    return "server process 0 started" not in log or "server processes on http" in log


while True:
    try:
        if urllib.request.urlopen(sys.argv[1] + "/health", timeout=2).status == 200 and all_processes_ready():
            break
    except urllib.error.HTTPError as e:  # 503 while warming up; "error" when warm-up failed
        if b'"error"' in e.read():
            raise SystemExit("warm-up failed; see server.log")
    except OSError:
        pass
    try:
        os.kill(int(sys.argv[2]), 0)
    except OSError:
        raise SystemExit("server exited; see server.log")
    if time.perf_counter() - t0 > 240:
        raise SystemExit("server not ready after 240 s")
    time.sleep(0.25)
print(f"server ready ({time.perf_counter() - t0:.1f} s)")
PY
  if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used --format=csv,noheader,nounits -lms 500 \
      > "$vout/gpu_util.csv" 2>/dev/null &
    util_pid=$!
  fi
  for run in $(seq 1 "$RT_RUNS"); do
    rname=realtime; [ "$run" -gt 1 ] && rname=realtime$run
    "$PY" -m onestep bench --mode server --url "$url" --concurrency "$CLIENTS" --duration "$RT_S" --pace realtime \
      --out-dir "$vout" --name "$rname" ${LOAD_PROCS:+--processes "$LOAD_PROCS"}
  done
  dump_metrics "$url" > "$vout/metrics_realtime.txt"  # the real-time runs' stages alone, before the closed loop's
  if [ "$CL_S" != 0 ] && { [ "$name" = "${names[0]}" ] || [ "${CLOSED_ALL:-0}" = 1 ]; }; then
    "$PY" -m onestep bench --mode server --url "$url" --concurrency "$CL_CLIENTS" --duration "$CL_S" --pace closed \
      --out-dir "$vout" --name closed ${LOAD_PROCS:+--processes "$LOAD_PROCS"}
  fi
  dump_metrics "$url" > "$vout/metrics.txt"
  [ -n "$util_pid" ] && kill "$util_pid" 2>/dev/null || true; util_pid=
  kill -INT "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=
done
"$PY" - "$OUT" "$DEVICE" "$(( $(date +%s) - t_start ))" "${names[@]}" <<'PY'
import json, re, sys
from pathlib import Path
out, device, took, names = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
print(f"\n== server load test, device {device}, {took} s in all; JSON in {out}/<variant>")
print(f"{'variant/run':<18} {'clients':>7} {'ok':>6} {'errors':>6} {'503s':>5} {'req/s':>7} | steady TTFA ms: {'p50':>6} "
      f"{'p95':>6} {'p99':>6} {'max':>6} | server p50 / p99")
summary = {}
f = lambda v: "-" if v is None else f"{v:.1f}"


def hist(metrics, name):
    """{label set: (count, sum)} of a Prometheus histogram in ``metrics``."""
    found = {}
    for kind in ("count", "sum"):
        for labels, value in re.findall(rf"^{name}_{kind}(\{{[^}}]*\}})? (\S+)", metrics, re.M):
            found.setdefault(labels, {})[kind] = float(value)
    return {k: (v.get("count", 0.0), v.get("sum", 0.0)) for k, v in found.items()}


def stage_means_ms(metrics):
    """{stage: mean ms} of the ``onestep_stage_seconds`` histogram in ``metrics``."""
    return {re.sub(r'.*stage="([^"]+)".*', r"\1", k): total / max(n, 1) * 1000
            for k, (n, total) in hist(metrics, "onestep_stage_seconds").items()}


def read_metrics(path):
    """The text of a saved /metrics page ("" when the run did not get that far)."""
    return path.read_text() if path.exists() else ""


def listed(means):
    """``frontend 0.45, engine 2.10, ...``: stage means for a summary line."""
    return ", ".join(f"{k} {v:.2f}" for k, v in means.items())


for name in names:
    vout = out / name
    entry = summary[name] = {}
    runs = sorted(p.stem for p in vout.glob("realtime*.json")) + ["closed"]
    for run in runs:
        path = vout / f"{run}.json"
        if not path.exists():
            continue
        r = json.loads(path.read_text())
        s, t = r["steady"], r["steady"]["ttfa_ms"]
        busy = sum(v for k, v in r.get("errors", {}).items() if str(k) == "503")  # whole run, start-up included
        print(f"{name + '/' + run:<18} {r['concurrency']:>7} {s['ok']:>6} {s['error_count']:>6} {busy:>5} "
              f"{s['throughput']['requests_per_s']:>7.1f} |                {f(t['p50']):>6} {f(t['p95']):>6} "
              f"{f(t['p99']):>6} {f(t['max']):>6} | {f(s['server_ttfa_ms']['p50'])} / {f(s['server_ttfa_ms']['p99'])}")
        entry[run] = {k: s[k] for k in ("ok", "errors", "ttfa_ms", "server_ttfa_ms", "latency_ms", "throughput")}
        entry[run]["http_503_whole_run"] = busy
    metrics = read_metrics(vout / "metrics.txt")
    gc = hist(metrics, "onestep_gc_pause_seconds")  # one label set per generation and trigger
    idle = [v for k, v in gc.items() if 'trigger="idle"' in k]  # between requests (onestep.runtime.idle_gc)
    gc_n, gc_s = sum(n for n, _ in gc.values()), sum(s for _, s in gc.values())
    idle_n, idle_s = sum(n for n, _ in idle), sum(s for _, s in idle)
    lag = hist(metrics, "onestep_event_loop_lag_seconds").get("", (0.0, 0.0))
    stages = stage_means_ms(metrics)
    batch = hist(metrics, "onestep_batch_size").get("", (0.0, 0.0))
    where = {f"{a}:{b}": float(v) for a, b, v in re.findall(
        r'^onestep_host_work_total\{process="([^"]+)",stage="([^"]+)"\} (\S+)', metrics, re.M)}
    print(f"  {name}: stage means ms (all runs): {listed(stages) or '-'}; mean batch {batch[1] / max(batch[0], 1):.1f}; "
          f"{gc_n - idle_n:.0f} automatic GC pauses ({(gc_s - idle_s) * 1000:.1f} ms), {idle_n:.0f} idle "
          f"({idle_s * 1000:.1f} ms); loop lag mean {lag[1] / max(lag[0], 1) * 1000:.2f} ms")
    realtime = stage_means_ms(read_metrics(vout / "metrics_realtime.txt"))
    if realtime:
        print(f"  {name}: stage means ms (real-time runs only): {listed(realtime)}")
        entry["realtime_stage_mean_ms"] = {k: round(v, 3) for k, v in realtime.items()}
    print(f"  {name}: requests by where their host work ran (process:stage): "
          + (", ".join(f"{k} {v:.0f}" for k, v in sorted(where.items())) or "-"))
    entry["host_work"] = where
    util = vout / "gpu_util.csv"
    if util.exists() and util.stat().st_size:
        vals = [float(l.split(",")[1]) for l in util.read_text().splitlines() if l.count(",") >= 2]
        if vals:
            entry["gpu_util_mean_pct"] = round(sum(vals) / len(vals), 1)
    entry.update(stage_mean_ms={k: round(v, 3) for k, v in stages.items()},
                 mean_batch=round(batch[1] / max(batch[0], 1), 2), gc_pauses=gc_n, gc_pause_ms=round(gc_s * 1000, 2),
                 gc_idle_pauses=idle_n, gc_idle_pause_ms=round(idle_s * 1000, 2),
                 loop_lag_mean_ms=round(lag[1] / max(lag[0], 1) * 1000, 3))
(out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
PY
