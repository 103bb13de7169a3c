#!/usr/bin/env bash
# Remote: hold the lease for up to $1 seconds, printing progress; return early when the pipeline ends or fails.
# Then bring back logs and the latest small checkpoints (collect.sh).
limit=${1:-540}; t0=$(date +%s)
while [ $(( $(date +%s) - t0 )) -lt "$limit" ]; do
  sleep 30
  echo "--- $(date +%T)"; tail -n 2 /root/os/pipeline.log
  for f in /root/os/gen-*.log /root/os/train-*.log; do [ -f "$f" ] && echo "$(basename $f): $(tail -n 1 $f | cut -c1-200)"; done
  grep -l "Traceback" /root/os/*.log >/dev/null 2>&1 && { echo "!!! traceback"; break; }
  grep -q "=== .* done" /root/os/pipeline.log 2>/dev/null && break
done
bash "$(dirname "$0")/collect.sh"
