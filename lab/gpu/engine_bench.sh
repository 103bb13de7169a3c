#!/usr/bin/env bash
# Remote (GPU machine), one call, < 3 minutes: the CUDA engine tests, then lab/gpu/gpu_bench.py.
#
#   bash lab/gpu/engine_bench.sh            # carry [".carry/server"] to time text -> PCM with our frontend
#
# With .carry/server (the frontend + server site for the image's python3.12 built by lab/gpu/server_wheels.sh:
# site.tar.xz, unpacked here to /tmp, or an unpacked site/ folder) the bench phonemizes there and times
# TTS(device="cuda").synthesize(text); without it, or when that site does not import (frontend_probe.txt says
# why), it uses the ids of lab/gpu/bench_ids.json (ids -> PCM and throughput only).
# Env: TESTS=0 skips the tests; DTYPES (default fp16,bf16); BENCH_ARGS (extra gpu_bench.py arguments).
# Writes $OUT/cuda_tests.txt, $OUT/frontend_probe.txt, $OUT/gpu_bench.json, $OUT/gpu_bench.log; the table last.
set -uo pipefail
OUT=${OUT:-$(pwd)/gpu_out}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
start=$(date +%s)
tmp=""
trap 'rm -rf "$tmp"' EXIT

tests="not run"
if [ "${TESTS:-1}" != 0 ]; then
  PYTHONPATH=src:dev/src timeout 80 python3 -m pytest -q -p no:cacheprovider tests/runtime/test_cuda_engine.py \
    > "$OUT/cuda_tests.txt" 2>&1
  tests="exit $? ($(tail -n 1 "$OUT/cuda_tests.txt"))"
fi

path=src
mode="ids only (no .carry/server)"
site=""
if [ -f .carry/server/site.tar.xz ]; then  # as lab/gpu/server_wheels.sh packs it (server_load.sh unpacks the same)
  tmp=$(mktemp -d /tmp/onestep-site.XXXXXX)
  python3 -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" .carry/server/site.tar.xz "$tmp" \
    && site=$tmp/site
elif [ -d .carry/server/site ]; then
  site=.carry/server/site
elif [ -d .carry/server ]; then
  site=.carry/server
fi
if [ -n "$site" ]; then
  probe='import numpy, torch
from onestep.frontend.pipeline import Frontend
f = Frontend(); print(f.phonemize("Hello there, this is a test.").phonemes, f.phonemize("你好，世界。").phonemes)
print("numpy", numpy.__version__, "torch", torch.__version__, torch.cuda.is_available())'
  export ONESTEP_SITE_AFTER=$site  # the carried site after the image's packages (lab/gpu/site_after)
  if PYTHONPATH=src:dev/src:lab/gpu/site_after timeout 60 python3 -c "$probe" > "$OUT/frontend_probe.txt" 2>&1; then
    path=src:lab/gpu/site_after
    mode="frontend from $site"
  else
    mode="ids only ($site does not import: see frontend_probe.txt)"
  fi
fi

left=$((175 - ($(date +%s) - start)))  # the bench's share of the 3 minutes; it starts no dtype after left - 45 s
if [ $left -lt 90 ]; then left=90; fi
PYTHONPATH=$path timeout "$left" python3 lab/gpu/gpu_bench.py --out "$OUT/gpu_bench.json" \
  --ids lab/gpu/bench_ids.json --dtypes "${DTYPES:-fp16,bf16}" --budget-s $((left - 45)) ${BENCH_ARGS:-} \
  > "$OUT/gpu_bench.log" 2>&1
rc=$?
echo "CUDA tests: $tests"
echo "bench: exit $rc, $mode, $(($(date +%s) - start)) s in all"
if [ $rc != 0 ]; then
  tail -n 30 "$OUT/gpu_bench.log"
  if [ -f "$OUT/gpu_bench.json" ]; then  # cut short: the numbers saved so far
    PYTHONPATH=src:dev/src python3 -c "import json, sys; sys.path.insert(0, 'scripts'); import gpu_bench as g
g.print_table(json.load(open(sys.argv[1])))" "$OUT/gpu_bench.json"
  fi
else
  sed -n '/^wrote /,$p' "$OUT/gpu_bench.log"
fi
