#!/usr/bin/env bash
# GPU machine, ONE call (<= 8 minutes; H100 or H200): issue 22's figures, all from this call and card.
#
#   bash lab/gpu/measure_host.sh        # carry [".carry/server", ".carry/voice"] (as lab/gpu/measure.sh)
#   DEVICE=cpu LINES=3 CALLS=4 CHUNKS=3 PROCS=0,1 RUNS=1 TESTS=0 bash lab/gpu/measure_host.sh   # dry run on a CPU
#   TESTS=0 THROUGHPUT=0 NOW=0 STACKS_EVERY_S=3 bash lab/gpu/measure_host.sh   # only where the first call's
#       time goes (frontend vs render, every thread's stack every 3 s of it) with and without cuDNN autotuning
#
# Before the call, here: `bash lab/gpu/server_wheels.sh` (the frontend site for the image's Python 3.12,
# .carry/server/site.tar.xz), `bash lab/gpu/measure.sh prepare` (the shipped voice's float graphs in
# .carry/voice), `lab/gpu/voices_offtree.sh off` (the tree under 64 MiB); after it `voices_offtree.sh on`.
# The carried site goes AFTER the image's site-packages (lab/gpu/site_after; torch, numpy come from the image).
#
# Steps (each under its own timeout; a failed step does not stop the next):
#   1. tests/runtime/test_cuda_engine.py + tests/runtime/test_host_pool.py (the CUDA tests)  -> cuda_tests.txt
#   2. a fresh process: TTS(device="cuda") from process start to ready (batch size 1's graphs captured in the
#      background, the frontend preloaded; the other sizes' graphs after, also recorded), every
#      call while capturing, then held-out calls after ready (p50/p99/max, calls over 10 ms)  -> ready_background.json
#   3. engine-only throughput vs synthesize_batch with all host work (serial; PROCS host worker processes, default
#      8 and 15, running the frontend AND the finishing work with the audio in shared memory; the same writing WAV
#      files as onestep batch --frontend-processes; 16 threads; chunks of 64/256 texts), GPU busy %, on LINES
#      held-out lines per language (default 240), and
#      the frame counts of every line on the GPU vs ONNX Runtime on the CPU                -> throughput.json
#   4. if time is left: step 2 with ONESTEP_CUDA_CAPTURE=now (every graph captured in the constructor) -> ready_now.json
#   5. if time is left: step 2 with ONESTEP_CUDNN_BENCHMARK=1 (cuDNN autotuning while capturing; off by default) -> ready_bench.json
#   (before 1: the frontend's table cache is built, as after a first start; COLD=1 first measures step 2 with an
#   empty cache, the first start after an install -> ready_cold.json)
#   summary.txt: the headline figures; logs.tar.gz: every console log.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-$(pwd)/gpu_out}
mkdir -p "$OUT"
DEVICE=${DEVICE:-cuda}
PY=${PY:-python3}
export PYTHONUNBUFFERED=1
start=$(date +%s)
logs=$(mktemp -d /tmp/onestep-host-logs.XXXXXX)
tmp=$(mktemp -d /tmp/onestep-host-site.XXXXXX)
trap 'tar -C "$logs" -czf "$OUT/logs.tar.gz" . 2>/dev/null; rm -rf "$tmp" "$logs"' EXIT
left() { echo $(( ${BUDGET_S:-470} - ($(date +%s) - start) )); }

export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"
if [ -f .carry/server/site.tar.xz ]; then
  "$PY" -c "import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" .carry/server/site.tar.xz "$tmp"
  export ONESTEP_SITE_AFTER="$tmp/site" PYTHONPATH="$PWD/src:$PWD/dev/src:$PWD/lab/gpu/site_after"
fi
# Bytecode, as `pip install` leaves it: the carried site is unzipped wheels (no .pyc) and the tree has none, so
# without this every fresh process (or the first, where the image lets Python write bytecode) compiles the
# frontend's ~1,300 modules: its English + Mandarin load takes 2.5-3x as long (2-core CPU, 2026-12-07: 0.8 vs
# 0.29 s; 1.2-1.5 vs 0.45 s before the segments and cn2an cuts).
# BYTECODE=0 measures the start from source, as every run before 2026-12-07 did.
# The image's torch has no bytecode and Python may not write it there (session 18's stacks: every process compiled
# torch from source, ~4 s of the first call): with BYTECODE on, all bytecode goes to a writable prefix, where the
# probe's `import torch` below leaves torch's, as an installed torch has it.
if [ "${BYTECODE:-1}" != 0 ]; then
  export PYTHONPYCACHEPREFIX="$tmp/pycache"
  unset PYTHONDONTWRITEBYTECODE
  "$PY" -m compileall -q -j 0 src dev/src ${ONESTEP_SITE_AFTER:+"$ONESTEP_SITE_AFTER"} > /dev/null 2>&1
fi
voices=()
[ -f .carry/voice/voice.json ] && voices=(--voices-dir .carry)  # the float graphs measure.sh prepare copied
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,temperature.gpu --format=csv > "$logs/nvidia_smi.txt" 2>&1
"$PY" -c "import sys, numpy; print('python', sys.version.split()[0], 'numpy', numpy.__version__)
import os, time; t = time.perf_counter(); import torch; t = time.perf_counter() - t
print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'import %.2f s' % t, 'bytecode prefix', sys.pycache_prefix,
      'torch dir writable', os.access(os.path.dirname(torch.__file__), os.W_OK), 'dont_write', sys.flags.dont_write_bytecode)
from onestep.frontend.pipeline import Frontend; print(Frontend().phonemize('Hello there.').phonemes)" \
  > "$logs/probe.txt" 2>&1
echo "== probe: $(tr '\n' ' ' < "$logs/probe.txt" | cut -c1-300)"

# The frontend's tables (jieba's and pypinyin's dictionaries, misaki's lexicons as memory-mapped tries, the English
# tokenizer's rules) are built once per machine into $ONESTEP_CACHE by the first start after an install (4.4 s of
# that start on the 2-core CPU, 2026-12-07; the Dockerfile builds them into the image). A fresh GPU machine has none,
# so every `ready` measured before session 16 was such a first start, while the calls after it were not. Build them
# here first: `ready` then measures a start as every later one is. COLD=1 also measures the first start itself
# (an empty cache) -> ready_cold.json.
if [ "${COLD:-0}" = 1 ]; then
  cold_cache=$(mktemp -d /tmp/onestep-cold-cache.XXXXXX)
  ONESTEP_CACHE="$cold_cache" timeout "${READY_S:-110}" "$PY" lab/gpu/measure_host.py ready --device "$DEVICE" \
    "${voices[@]}" --calls "${CALLS:-100}" --out "$OUT/ready_cold.json" > "$logs/ready_cold.txt" 2>&1
  echo "== ready with an empty table cache (the first start after an install): exit $? ($(( $(date +%s) - start )) s)"
  rm -rf "$cold_cache"
fi
"$PY" -c "from onestep.frontend.pipeline import Frontend; Frontend().preload(background=False)" > "$logs/tables.txt" 2>&1
echo "== frontend tables built: exit $? ($(( $(date +%s) - start )) s)"

tests="not run"
if [ "${TESTS:-1}" != 0 ]; then
  timeout "${TESTS_S:-150}" "$PY" -m pytest -q -p no:cacheprovider tests/runtime/test_cuda_engine.py \
    tests/runtime/test_host_pool.py tests/runtime/test_host_workers.py tests/runtime/test_mel_postfilter.py > "$OUT/cuda_tests.txt" 2>&1
  tests="exit $? ($(tail -n 1 "$OUT/cuda_tests.txt"))"
fi
echo "== CUDA tests: $tests ($(( $(date +%s) - start )) s)"

timeout "${READY_S:-110}" "$PY" lab/gpu/measure_host.py ready --device "$DEVICE" "${voices[@]}" \
  --calls "${CALLS:-100}" --out "$OUT/ready_background.json" > "$logs/ready_background.txt" 2>&1
echo "== ready (background capture): exit $? ($(( $(date +%s) - start )) s)"

t=$(left); [ "$t" -gt 300 ] && t=300
if [ "$t" -gt 60 ] && [ "${THROUGHPUT:-1}" != 0 ]; then
  timeout "$t" "$PY" lab/gpu/measure_host.py throughput --device "$DEVICE" "${voices[@]}" --lines "${LINES:-240}" \
    --chunks "${CHUNKS:-64,256}" --processes "${PROCS:-8,15}" --runs "${RUNS:-3}" --budget-s $((t - 90)) \
    --out "$OUT/throughput.json" > "$logs/throughput.txt" 2>&1
  echo "== throughput: exit $? ($(( $(date +%s) - start )) s)"
else
  echo "== throughput: skipped ($t s left)"
fi

t=$(left)
if [ "$t" -gt 70 ] && [ "${NOW:-1}" != 0 ]; then
  ONESTEP_CUDA_CAPTURE=now timeout $((t - 10)) "$PY" lab/gpu/measure_host.py ready --device "$DEVICE" "${voices[@]}" \
    --calls "${CALLS:-100}" --out "$OUT/ready_now.json" > "$logs/ready_now.txt" 2>&1
  echo "== ready (capture now): exit $? ($(( $(date +%s) - start )) s)"
fi

t=$(left)
if [ "$t" -gt 60 ] && [ "${BENCH:-1}" != 0 ]; then
  ONESTEP_CUDNN_BENCHMARK=1 timeout $((t - 10)) "$PY" lab/gpu/measure_host.py ready --device "$DEVICE" "${voices[@]}" \
    --calls "${CALLS:-100}" --out "$OUT/ready_bench.json" > "$logs/ready_bench.txt" 2>&1
  echo "== ready (background capture, cuDNN autotuning on): exit $? ($(( $(date +%s) - start )) s)"
fi

"$PY" - "$OUT" "$tests" > "$OUT/summary.txt" 2>&1 <<'PY'
import json, sys
from pathlib import Path
out = Path(sys.argv[1])
print("CUDA tests:", sys.argv[2])
def load(name):
    try:
        return json.loads((out / name).read_text())
    except (OSError, ValueError) as e:
        print(f"{name}: missing ({type(e).__name__})")
        return None
for name in ("ready_background.json", "ready_cold.json", "ready_now.json", "ready_bench.json"):
    r = load(name)
    if r:
        s = r["seconds_from_process_start"]
        print(f"{name}: {r.get('card', r['device'])} (cudnn benchmark {r.get('cudnn_benchmark')}): imports {s['imports_done']} s, TTS() {s['tts_constructed']} s, "
              f"first calls {r['first_calls_ms']} ms, ready {s['ready']} s (every graph {s.get('fully_captured')} s) from process start; "
              f"{r['calls_while_capturing']['n']} calls while capturing (max {r['calls_while_capturing']['max_ms']} ms); "
              f"after ready p50 {r['after_ready']['p50_ms']} / p99 {r['after_ready']['p99_ms']} / max "
              f"{r['after_ready']['max_ms']} ms, {r['after_ready']['over_10ms']} of {r['after_ready']['calls']} over 10 ms "
              f"(while the rest was captured: {r.get('after_ready_while_capturing')})")
t = load("throughput.json")
if t:
    print(f"throughput: {t.get('card', t['device'])}, {t['cores']} cores, {t['texts']['n']} texts "
          f"({t['texts']['utterances']} utterances), frontend again {t['frontend_ms_per_text_again']} ms/text")
    for name, r in t["throughput"].items():
        if "texts_per_s" in r:
            share = f", {r['share_of_engine_only']:.0%} of engine-only" if "share_of_engine_only" in r else ""
            print(f"  {name}: {r['texts_per_s']} texts/s{share}, GPU busy {r['gpu_busy_pct']} %")
        else:
            print(f"  {name}: {r}")
    f = t.get("frames_cpu_vs_gpu")
    if f:
        for lang in ("en", "zh"):
            g = f[lang]
            print(f"  frames {lang}: {g['same_frames_per_id']}/{g['lines']} lines equal per id, "
                  f"{g['same_total_frames']}/{g['lines']} equal totals, max diff {g['max_total_diff']}")
PY
cat "$OUT/summary.txt"
echo "== done in $(( $(date +%s) - start )) s"
