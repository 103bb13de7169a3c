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
# The site is PRUNED (only the traced files), so it must go AFTER the image's site-packages, never on PYTHONPATH
# ahead of them: a pruned pygments/rich there shadowed the image's full ones (pytest on the GPU machine:
# "No module named 'pygments.formatters'", issue 22). Every script that unpacks it (server_load.sh,
# ray_load.sh, engine_bench.sh, measure_host.sh) sets ONESTEP_SITE_AFTER=<unpacked site> and puts
# lab/gpu/site_after (a sitecustomize that appends the site after site-packages) on PYTHONPATH instead; only
# typing_extensions (ONESTEP_SITE_FIRST) is taken from the carried site first.
#
# --ray (issue 15, lab/gpu/ray_load.sh): also trace what Ray runs (Ray installed here: pip install '.[ray]'):
# `onestep serve --ray` with 2 replicas + the same short load test, and `onestep batch --ray` with a frontend
# actor ahead of an engine actor, every process of the local Ray cluster included (driver, workers, replicas,
# Serve's controller and proxy, the dashboard and runtime-env agents: all Python, all traced through the same
# sitecustomize on PYTHONPATH; raylet and gcs_server are C++ programs, kept whole). The distributions only Ray
# needs go to .carry/ray/site-ray.tar.xz (ray, grpcio, opentelemetry, ...), the rest (with Ray's extra files of
# them, e.g. more of pydantic and starlette) to .carry/server/site.tar.xz: two sites that share no package, both
# unpacked onto PYTHONPATH by ray_load.sh. Not carried: what the image has (server_site.py's IMAGE_HAS: torch,
# numpy, protobuf, ...) and RAY_IMAGE_HAS (default pyarrow,pandas: 27 MB of xz, which would not fit; the image
# has both, Ray Data needs pyarrow>=17, pandas>=2.2.3); site-ray/IMAGE.json lists their versions here. protobuf
# also goes whole into site-ray-fallback, which ray_load.sh puts first if the image's is too old for the
# generated code carried (grpcio-reflection's needs protobuf 7). Prints the sizes and the sum with the tracked
# tree (limit 64 MiB).
# --python-version X.Y: wheels for another Python (default 3.12, the image's; 3.11 to try the sites here).
# CARRY (default .carry): where the sites go.
# KEEP_OPTIONAL=1: carry the optional pieces too (server_site.py's OPTIONAL: PyAV), which no GPU measurement needs.
#
# Usage: lab/gpu/server_wheels.sh          (~1 min; prints the carried distributions and the size)
#        nice -n 19 lab/gpu/server_wheels.sh --ray          (~4 min)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
ray=0; pyver=3.12
while [ $# -gt 0 ]; do
  case $1 in
    --ray) ray=1 ;;
    --python-version) pyver=$2; shift ;;
    *) echo "usage: $0 [--ray] [--python-version X.Y]" >&2; exit 2 ;;
  esac
  shift
done
CARRY=${CARRY:-.carry}
work=$(mktemp -d /tmp/server-wheels.XXXXXX)
trap 'kill "${server_pid:-}" 2>/dev/null || true; [ -n "${KEEP_TRACE:-}" ] || rm -rf "$work"' EXIT
python3 -c "import uvloop, httptools" || { echo "install uvloop and httptools first (pip install uvloop httptools)" >&2; exit 1; }
[ "$ray" = 0 ] || python3 -c "import ray, pyarrow" || { echo "--ray: install Ray first (pip install '.[ray]')" >&2; exit 1; }
python3 lab/gpu/server_site.py trace "$work/tracer"
mkdir -p "$work/trace"
mkdir -p "$work/cache" "$work/tmp"  # empty caches: the frontend then reads its source tables, as on a new machine
export PYTHONPATH="$work/tracer${PYTHONPATH:+:$PYTHONPATH}" ONESTEP_TRACE_OUT="$work/trace" \
  ONESTEP_CACHE="$work/cache" XDG_CACHE_HOME="$work/cache" TMPDIR="$work/tmp"
free_port() { python3 -c "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"; }
wait_ready() {  # PORT SECONDS
  python3 - "$1" "$2" <<'PY'
import sys, time, urllib.request
deadline = time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    try:
        if urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/health", timeout=1).status == 200:
            break
    except OSError:
        pass
    time.sleep(0.2)
else:
    raise SystemExit("server did not become ready")
PY
}
load() {  # PORT: both endpoints, 2 client processes
  for endpoint in speech synthesize; do
    python3 -m onestep bench --mode server --url "http://127.0.0.1:$1" --concurrency 2 --duration 2 \
      --processes 2 --endpoint "$endpoint" --out-dir "$work/bench" --name "$endpoint" > /dev/null
  done
}
port=$(free_port)
# --frontend-processes 1: the host worker processes (frontend + finishing: resampling through soxr, timestamps,
# encoding) run in the trace too, as they do in measure.sh's variants (a site traced without them lacked soxr)
python3 -m onestep serve --device cpu --voices-dir tests/fixtures --port "$port" --workers 1 --threads 1 \
  --frontend-processes 1 --log-level warning &
server_pid=$!
wait_ready "$port" 180  # a loaded 2-core machine warms the host worker up slowly
load "$port"
python3 -m onestep bench --mode server --url "http://127.0.0.1:$port" --concurrency 2 --duration 3 \
  --pace realtime --processes 1 --out-dir "$work/bench" > /dev/null
# what the CUDA side of the server imports besides torch (the engine module itself, the voice loader), and the
# SSML parser (defusedxml: the load test sends plain text; the CUDA tests' SSML cases need it), the Wyoming server
# (serve refuses to start without the wyoming package, which a find_spec check does not open) and soxr
python3 -c "import onestep.runtime.cuda_engine, onestep.model.export, onestep.commands.serve, onestep_dev.commands.bench
import onestep.server.wyoming_server, soxr, numpy; soxr.resample(numpy.zeros(2400, numpy.float32), 24000, 16000)
from onestep.ssml.parse import parse_ssml; parse_ssml('<speak>Hi <break time=\"100ms\"/> there.</speak>')"
kill -INT "$server_pid"; wait "$server_pid" || true; server_pid=  # SIGINT: uvicorn re-raises it, atexit runs
if [ "$ray" = 1 ]; then
  # Ray's processes, traced into their own folder (the distributions only they need go to .carry/ray)
  mkdir -p "$work/trace-ray"
  export ONESTEP_TRACE_OUT="$work/trace-ray" RAY_USAGE_STATS_ENABLED=0
  port=$(free_port)
  python3 -m onestep serve --ray --replicas 2 --cpus-per-replica 1 --workers 1 --device cpu --voices-dir tests/fixtures \
    --port "$port" --log-level warning &
  server_pid=$!
  wait_ready "$port" 300
  load "$port"
  kill -INT "$server_pid"; wait "$server_pid" || true; server_pid=
  # held-out sentences (en, zh), as ray_load.sh's batch input
  python3 -c "
import json, sys
from onestep_dev.eval.heldout import load_heldout
rows = [s.text for lang in ('en', 'zh') for s in load_heldout(lang)[:4]]
print('\n'.join(json.dumps({'id': f'{i:03d}', 'text': t}, ensure_ascii=False) for i, t in enumerate(rows)))
" > "$work/batch.jsonl"
  python3 -m onestep batch "$work/batch.jsonl" --out "$work/batch" --format wav --ray --workers 1 --frontend-workers 1 \
    --voices-dir tests/fixtures --quiet
  python3 -c "import json, sys; s = json.load(open(sys.argv[1])); assert s['rows'] == 8, s; print('batch --ray:', s)" \
    "$work/batch/summary.json"
  sleep 3  # the tracer writes every 2 s: the last words of Ray's processes that exit without running atexit
fi
unset PYTHONPATH ONESTEP_TRACE_OUT ONESTEP_CACHE XDG_CACHE_HOME TMPDIR
rm -rf "$CARRY/server"
if [ "$ray" = 1 ]; then
  rm -rf "$CARRY/ray"
  python3 lab/gpu/server_site.py build "$CARRY/server/site" "$work/trace" ${KEEP_OPTIONAL:+--keep-optional} --python-version "$pyver" \
    --extra "$CARRY/ray/site-ray" "$work/trace-ray" --image-has "${RAY_IMAGE_HAS-pyarrow,pandas}" --fallback protobuf
  rm -rf "$CARRY/ray/wheels"
  tar -C "$CARRY/ray" -cf - site-ray site-ray-fallback | xz -T2 -9 > "$CARRY/ray/site-ray.tar.xz"
  rm -rf "$CARRY/ray/site-ray" "$CARRY/ray/site-ray-fallback"
else
  python3 lab/gpu/server_site.py build "$CARRY/server/site" "$work/trace" ${KEEP_OPTIONAL:+--keep-optional} --python-version "$pyver"
fi
rm -rf "$CARRY/server/wheels"
tar -C "$CARRY/server" -cf - site | xz -T2 -6 > "$CARRY/server/site.tar.xz"  # what travels (~1/4 of the folder)
rm -rf "$CARRY/server/site"
ls -l "$CARRY/server" "$CARRY"/ray 2>/dev/null || true
carried=$(cat "$CARRY/server/site.tar.xz" "$CARRY"/ray/*.tar.xz 2>/dev/null | wc -c)
tree=$(git ls-files -z | xargs -0 du -cb 2>/dev/null | tail -n 1 | cut -f1)
echo "carried sites: $carried bytes; with the tracked tree ($tree bytes): $(( (carried + tree) / 1048576 )) MiB (limit 64;" \
  "lab/gpu/voices_offtree.sh off takes the shipped voices and lab/train_state out of the tree)"
