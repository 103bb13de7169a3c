#!/usr/bin/env bash
# Remote (polling calls): report progress and bring back logs + the latest small checkpoints (<= 8 files).
set -uo pipefail
tail -n 25 /root/os/pipeline.log
nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader
[ -n "${OUT:-}" ] || exit 0
cp /root/os/pipeline.log "$OUT/" 2>/dev/null
for v in en zh; do
  run=/root/os/runs/$v
  [ -d "$run" ] || continue
  tail -n 400 "$run/log.jsonl" > "$OUT/log-$v.jsonl" 2>/dev/null
  for f in $(ls "$run"/export/*.pt 2>/dev/null); do cp "$f" "$OUT/$v-$(basename "$f")"; done
done
ls -la "$OUT"
