#!/usr/bin/env bash
# Local: build .carry/server/site.tar.xz: the pruned Python 3.12 site-packages that `onestep serve` + its frontend +
# the load test need on the GPU image (which has PyTorch, numpy and onnx but no FastAPI, uvicorn, spaCy,
# misaki, jieba, pypinyin, ...; and no internet). docs/SERVER.md, "Load test on the H200".
#
#   1. trace: run the real server (CPU, tiny fixture voice; warm-up loads every lazily loaded frontend
#      part) and the real load test (2 processes, both endpoints) with a tracer that records every file
#      each process opens or imports and every shared library it maps;
#   2. build: download the cp312 manylinux / pure wheels of the traced distributions (same versions as
#      here, `pip download --only-binary=:all: --python-version 3.12`) and unzip only the traced files,
#      the distributions' metadata and bundled libraries (lab/gpu/server_site.py).
#
# The folder is packed as .carry/server/site.tar.xz (~8 MB; server_load.sh unpacks it), so the carry is small.
# Usage: lab/gpu/server_wheels.sh          (~1 min; prints the carried distributions and the size)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
work=$(mktemp -d /tmp/server-wheels.XXXXXX)
trap 'kill "${server_pid:-}" 2>/dev/null || true; [ -n "${KEEP_TRACE:-}" ] || rm -rf "$work"' EXIT
python3 -c "import uvloop, httptools" || { echo "install uvloop and httptools first (pip install uvloop httptools)" >&2; exit 1; }
python3 lab/gpu/server_site.py trace "$work/tracer"
mkdir -p "$work/trace"
mkdir -p "$work/cache" "$work/tmp"  # empty caches: the frontend then reads its source tables, as on a new machine
export PYTHONPATH="$work/tracer${PYTHONPATH:+:$PYTHONPATH}" ONESTEP_TRACE_OUT="$work/trace" \
  ONESTEP_CACHE="$work/cache" XDG_CACHE_HOME="$work/cache" TMPDIR="$work/tmp"
port=$(python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
python3 -m onestep serve --device cpu --voices-dir tests/fixtures --port "$port" --workers 1 --threads 1 \
  --log-level warning &
server_pid=$!
python3 - "$port" <<'PY'
import sys, time, urllib.request
for _ in range(600):
    try:
        if urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health", timeout=1).status == 200:
            break
    except OSError:
        pass
    time.sleep(0.2)
else:
    raise SystemExit("server did not become ready")
PY
for endpoint in speech synthesize; do
  python3 -m onestep bench --mode server --url "http://127.0.0.1:$port" --concurrency 2 --duration 2 \
    --processes 2 --endpoint "$endpoint" --out-dir "$work/bench" --name "$endpoint" > /dev/null
done
python3 -m onestep bench --mode server --url "http://127.0.0.1:$port" --concurrency 2 --duration 3 \
  --pace realtime --processes 1 --out-dir "$work/bench" > /dev/null
# what the CUDA side of the server imports besides torch (the engine module itself, the voice loader)
python3 -c "import onestep.runtime.cuda_engine, onestep.model.export, onestep.commands.serve, onestep.commands.bench"
kill -INT "$server_pid"; wait "$server_pid" || true; server_pid=  # SIGINT: uvicorn re-raises it, atexit runs
unset PYTHONPATH ONESTEP_TRACE_OUT ONESTEP_CACHE XDG_CACHE_HOME TMPDIR
rm -rf .carry/server
python3 lab/gpu/server_site.py build .carry/server/site "$work/trace"
rm -rf .carry/server/wheels
tar -C .carry/server -cf - site | xz -T2 -6 > .carry/server/site.tar.xz  # what travels (~1/4 of the folder)
rm -rf .carry/server/site
ls -l .carry/server
