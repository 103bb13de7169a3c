#!/usr/bin/env bash
# GPU machine, ONE call (~4 min): where the start of TTS(device="cuda") goes, this tree against a base tree, with
# the carried site run from source (wheels unzipped: no bytecode, as lab/gpu/server_wheels.sh packs it) and after
# `compileall` (what `pip install` does). Issue 22's ready <= 8 s.
#
#   git -C BASE archive --format=tar HEAD src dev/src lab/gpu ':(exclude)src/onestep/voices/*/*.onnx' | xz > .carry/base.tar.xz
#   run: bash lab/gpu/measure_start.sh     carry [".carry/server", ".carry/voice", ".carry/base.tar.xz"]
#   (the tree under 64 MiB with the carry: `git rm -r -q --cached` the shipped voices' *.onnx and lab/train_state
#   for the call, already ignored by .git/info/exclude; `git reset` them after)
#
# Out: frontend_alone.txt (English + Mandarin preload in a fresh process, alone: from source, then bytecode),
# <tree>_<source|pyc>[_n].json (lab/gpu/measure_host.py ready, CALLS calls after ready), summary.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$(pwd)/gpu_out}
mkdir -p "$OUT"
PY=${PY:-python3}
tmp=$(mktemp -d /tmp/onestep-start.XXXXXX)
"$PY" -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" .carry/server/site.tar.xz "$tmp"
mkdir -p "$tmp/base"
[ -f .carry/base.tar.xz ] && tar -C "$tmp/base" -xJf .carry/base.tar.xz
export ONESTEP_SITE_AFTER="$tmp/site" PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
{ env | grep -E '^PYTHON' | sort; nproc; grep -m1 'model name' /proc/cpuinfo;
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > "$OUT/machine.txt" 2>&1
here="$PWD/src:$PWD/dev/src:$PWD/lab/gpu/site_after"
base="$tmp/base/src:$tmp/base/dev/src:$PWD/lab/gpu/site_after"
frontend() {  # seconds for import + Frontend().preload(en, zh) in a fresh process
  PYTHONPATH=$here "$PY" -c 'import time; t = time.perf_counter(); from onestep.frontend.pipeline import Frontend
Frontend().preload(["en", "zh"], background=False); print(round(time.perf_counter() - t, 3))' 2>&1 | tail -n 1
}
ready() {  # PYTHONPATH, tree root, name
  PYTHONPATH=$1 timeout "${READY_S:-100}" "$PY" "$2/lab/gpu/measure_host.py" ready --device cuda \
    --voices-dir "$PWD/.carry" --calls "${CALLS:-40}" --out "$OUT/$3.json" > "$OUT/$3.log" 2>&1
  echo "== $3: exit $?"
}
echo "cache build (first frontend ever here): $(frontend)" | tee "$OUT/frontend_alone.txt"
for i in 1 2; do echo "frontend alone, from source: $(frontend)" | tee -a "$OUT/frontend_alone.txt"; done
ready "$here" "$PWD" branch_source
ready "$base" "$tmp/base" base_source
"$PY" -m compileall -q -j 0 "$tmp/site" src dev/src "$tmp/base/src" "$tmp/base/dev/src" > /dev/null 2>&1
for i in 1 2; do echo "frontend alone, bytecode: $(frontend)" | tee -a "$OUT/frontend_alone.txt"; done
for i in 1 2; do ready "$base" "$tmp/base" "base_pyc_$i"; ready "$here" "$PWD" "branch_pyc_$i"; done
"$PY" - "$OUT" > "$OUT/summary.txt" 2>&1 <<'PY'
import json, sys
from pathlib import Path
for f in sorted(Path(sys.argv[1]).glob("*.json")):
    r = json.loads(f.read_text())
    s, a = r["seconds_from_process_start"], r["after_ready"]
    e = next(iter(r["engines"].values()), {})
    print(f"{f.stem}: imports {s['imports_done']} TTS() {s['tts_constructed']} ready {s['ready']} every graph "
          f"{s['fully_captured']} s; first calls {r['first_calls_ms']} ms (frontend, render: "
          f"{[row[:2] for row in r['first_calls_phases']['rows']]}); engine load {e.get('load_s')} batch-1 "
          f"{e.get('ready_s')} s; after ready p50 {a['p50_ms']} p99 "
          f"{a['p99_ms']} max {a['max_ms']} ms, {a['over_10ms']}/{a['calls']} over 10 ms")
PY
cat "$OUT/summary.txt"
