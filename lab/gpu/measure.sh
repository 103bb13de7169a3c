#!/usr/bin/env bash
# GPU machine, one call (< 9 minutes): the engine bench (issue 4), then the server load test (issue 5).
#
#   bash lab/gpu/measure.sh          # carry [".carry/server", ".carry/voice"]
#
# One machine start for both measurements. .carry/server is lab/gpu/server_wheels.sh's site; .carry/voice,
# when present, is the shipped voice's graphs (lab/gpu/measure.sh prepare, here, copies them: the
# whole voices folder is over the call's size limit), so the engine bench times and checks the real voice
# against ONNX Runtime; the server test always uses server_load.sh's full-size stand-in (same compute).
# The device tool returns at most 8 files, so everything is packed into $OUT/measure.tar.gz (also when a step
# fails or times out); gpu_bench.json and the server summary.json come back beside it.
# Env: ENGINE=0 skips the engine bench; ENGINE_S (engine_bench.sh's limit, 300), SERVER_S (server_load.sh's
#      limit, 270); the scripts' own env (e.g. VARIANTS, RT_RUNS, RT_S, CL_S, CLOSED_ALL for server_load.sh).
# Issue 22, the server with and without its host work in worker processes (closed loop + 3 x 60 s real time each;
# ~7.5 minutes, under the call's 9):
#   ENGINE=0 SERVER_S=530 RT_RUNS=3 RT_S=60 CL_S=15 CLOSED_ALL=1 \
#     VARIANTS="threads=;procs6=--frontend-processes 6" bash lab/gpu/measure.sh
# Issue 22, the HTTP layer in 4 server processes on the one port (`--processes`) against one server (same call):
#   ENGINE=0 SERVER_S=530 RT_RUNS=3 RT_S=60 CL_S=15 CLOSED_ALL=1 \
#     VARIANTS="procs6=--frontend-processes 6;http4=--processes 4 --frontend-processes 4" bash lab/gpu/measure.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ "${1:-}" = prepare ]; then  # here, before the call
  rm -rf .carry/voice && mkdir -p .carry/voice
  voice=src/onestep/voices/multispeaker
  # the files voice.json names (the shipped decoder and vocoder are INT8 only; the GPU engine dequantizes them)
  files=$(python3 -c "import json, sys; print(' '.join(json.load(open(sys.argv[1]))['files'].values()))" "$voice/voice.json")
  for f in voice.json $files; do cp "$voice/$f" .carry/voice/; done
  du -sh .carry/voice .carry/server
  exit 0
fi
final=${OUT:-$(pwd)/gpu_out}
mkdir -p "$final"
work=$(mktemp -d /tmp/onestep-measure.XXXXXX)
mkdir -p "$work/engine" "$work/server"
pack() {
  cp "$work/engine/gpu_bench.json" "$work/server/summary.json" "$final/" 2>/dev/null
  tar -C "$work" -czf "$final/measure.tar.gz" . && rm -rf "$work"
}
trap pack EXIT
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu \
  --format=csv > "$work/nvidia_smi.txt" 2>&1
bench_args=${BENCH_ARGS:-}
[ -f .carry/voice/voice.json ] && bench_args="--voice-dir .carry/voice $bench_args"
if [ "${ENGINE:-1}" != 0 ]; then
  echo "== engine bench ($bench_args)"
  OUT=$work/engine BENCH_ARGS=$bench_args timeout "${ENGINE_S:-300}" bash lab/gpu/engine_bench.sh 2>&1 \
    | tee "$work/engine/console.txt"
fi
echo "== server load test"
OUT=$work/server timeout "${SERVER_S:-270}" bash lab/gpu/server_load.sh 2>&1 | tee "$work/server/console.txt"
