#!/usr/bin/env bash
# Issue 15's measurements in one call (GPU machine; DEVICE=cpu runs the same steps on a CPU box):
#
#   1. server: plain `onestep serve` and Ray Serve (`onestep serve --ray`) with 1..N replicas, one after another,
#      the same load test for each (server_load.sh's VARIANTS: $CLIENTS clients paced in real time for $RT_S s on
#      held-out text, then closed loop for $CL_S s): throughput, p99 time to first audio, and Ray's overhead
#      (plain vs 1 replica);
#   2. bulk: `onestep batch` on $BATCH_ROWS held-out sentences (the 228 of src/onestep/eval, repeated), for each
#      entry of $BATCH_RUNS ("name=batch options;..."): texts/s and audio-hours per hour (summary.json).
#
# Usage (GPU):  bash lab/gpu/ray_load.sh           carry: .carry/server (+ a site with Ray: see below)
# Usage (CPU):  DEVICE=cpu VOICES=src/onestep/voices CLIENTS=20 RT_S=30 CL_S=20 BATCH_ROWS=456 USE_CARRY=0 \
#                 OUT=/tmp/ray_load bash lab/gpu/ray_load.sh
#
# Ray on the GPU machine (NOT prepared yet): the image has no Ray and no internet. Ray 2.60.0 installs to ~240 MB
# (75 MB of core binaries: raylet, gcs_server), over one call's 64 MiB carry even compressed. Do as
# lab/gpu/server_wheels.sh does: trace a CPU run of this script (the serve --ray and batch --ray variants), keep only
# the traced files of `pip download "ray[serve,data]==2.60.0" pyarrow` (cp312 manylinux), xz them into a second
# carry folder (e.g. .carry/ray, check `du -sh` < 64 MiB; drop ray/dashboard's client build), and put it on
# PYTHONPATH next to .carry/server's site. Without Ray, SKIP_BATCH=1 VARIANTS="plain=" still runs the plain server.
#
# Env: DEVICE (cuda), CLIENTS (100), RT_S (60), CL_S (20), VOICES (server_load.sh: default a full-size stand-in),
#      VARIANTS (default below, per device), BATCH_ROWS (GPU 22800, CPU 456), BATCH_RUNS (default below),
#      SKIP_SERVER=1 / SKIP_BATCH=1, OUT (default $OUT or runs/ray_load), PYTHON (python3), USE_CARRY.
set -uo pipefail
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python3}
DEVICE=${DEVICE:-cuda}
OUT=${OUT:-runs/ray_load}
mkdir -p "$OUT"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
if [ "$DEVICE" = cuda ]; then
  # one process vs replicas sharing the H200 (a fraction of the GPU each; the 16 cores split between them)
  default_variants="plain=;ray1=--ray --replicas 1 --gpus-per-replica 1 --cpus-per-replica 8 --max-ongoing 128 --max-queued 512"
  default_variants+=";ray2=--ray --replicas 2 --gpus-per-replica 0.5 --cpus-per-replica 4 --max-ongoing 64 --max-queued 512"
  default_variants+=";ray4=--ray --replicas 4 --gpus-per-replica 0.25 --cpus-per-replica 2 --max-ongoing 32 --max-queued 512"
  rows=${BATCH_ROWS:-22800}
  # the GPU engine actor fed by frontend actors (Ray Data CPU stage ahead of the GPU stage), vs the public API path
  default_runs="gpu1-fe12=--ray --device cuda --workers 1 --gpus-per-worker 1 --frontend-workers 12 --batch-size 64"
  default_runs+=";gpu1-fe0=--ray --device cuda --workers 1 --gpus-per-worker 1 --batch-size 64"
else
  default_variants="plain=;ray1=--ray --replicas 1 --cpus-per-replica 1 --workers 1;ray2=--ray --replicas 2 --cpus-per-replica 1 --workers 1"
  rows=${BATCH_ROWS:-456}
  default_runs="local1=--workers 1;local2=--workers 2;ray1=--ray --workers 1;ray2=--ray --workers 2"
fi
echo "== load: $(cat /proc/loadavg)" | tee "$OUT/loadavg.txt"
if [ "${SKIP_SERVER:-0}" != 1 ]; then
  echo "== server: ${VARIANTS:-$default_variants}"
  OUT=$OUT/server DEVICE=$DEVICE CLIENTS=${CLIENTS:-100} RT_S=${RT_S:-60} CL_S=${CL_S:-20} CLOSED_ALL=1 \
    VARIANTS=${VARIANTS:-$default_variants} bash lab/gpu/server_load.sh 2>&1 | tee "$OUT/server_console.txt"
fi
if [ "${SKIP_BATCH:-0}" != 1 ]; then
  input="$OUT/batch_input.jsonl"
  "$PY" - "$input" "$rows" <<'PY'
"""BATCH_ROWS rows of held-out sentences (en and zh, in turn), ids 000001..."""
import json, sys
from onestep.eval.heldout import load_heldout
texts = [s.text for lang in ("en", "zh") for s in load_heldout(lang)]
with open(sys.argv[1], "w", encoding="utf-8") as f:
    for i in range(int(sys.argv[2])):
        f.write(json.dumps({"id": f"{i + 1:06d}", "text": texts[i % len(texts)]}, ensure_ascii=False) + "\n")
PY
  IFS=';' read -r -a runs <<< "${BATCH_RUNS:-$default_runs}"
  for run in "${runs[@]}"; do
    name=${run%%=*}; args=${run#*=}
    echo "== batch $name: onestep batch $args ($rows rows) | load $(cut -d' ' -f1-3 /proc/loadavg)"
    rm -rf "$OUT/batch_$name"
    "$PY" -m onestep batch "$input" --out "$OUT/batch_$name" --format wav $args 2>&1 | tail -3
    cp "$OUT/batch_$name/summary.json" "$OUT/batch_$name.json" 2>/dev/null
    rm -rf "$OUT/batch_$name/audio"  # the audio itself is not needed for the numbers
  done
  "$PY" - "$OUT" <<'PY'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
print(f"\n{'batch run':<12} {'rows':>6} {'errors':>6} {'wall s':>7} {'texts/s':>8} {'steady texts/s':>15} {'audio h/h':>10}")
for f in sorted(out.glob("batch_*.json")):
    s = json.loads(f.read_text())
    print(f"{f.stem[6:]:<12} {s['rows']:>6} {s['errors']:>6} {s['wall_s']:>7.1f} {s['texts_per_s']:>8.2f} "
          f"{s['steady_texts_per_s'] or 0:>15.2f} {s['steady_audio_hours_per_hour'] or 0:>10.1f}")
PY
fi
