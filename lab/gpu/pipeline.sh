#!/usr/bin/env bash
# Remote, background (started by start.sh in its own session): teacher data for every voice in voices.txt,
# then one trainer per voice, all at once. Everything lands under /root/os; collect.sh brings small files back.
#   TRAIN_MINUTES (default 18), GEN_WORKERS (GPU teacher processes in all, default 8), TRAIN_ARGS, CHECK_TEACHER=1
set -uo pipefail
cd /root/os/repo
export PYTHONPATH=/root/os/site:/root/os/repo/src:/root/os/repo/dev/src PYTHONUNBUFFERED=1
minutes=${TRAIN_MINUTES:-18}
mapfile -t voices < /root/os/b/voices.txt
workers=$(( ${GEN_WORKERS:-8} / ${#voices[@]} )); [ "$workers" -ge 1 ] || workers=1
if [ "${CHECK_TEACHER:-0}" = 1 ]; then
  read -r _ style _ <<< "${voices[0]}"
  echo "=== $(date +%T) teacher check: PyTorch port vs int8 ONNX"
  python3 lab/gpu/check_teacher.py /root/os/kokoro.onnx /root/os/b/styles/$style.npy || echo "teacher check FAILED"
fi
echo "=== $(date +%T) teacher data ($workers workers per voice): ${voices[*]}"
for line in "${voices[@]}"; do
  read -r lang style _ <<< "$line"
  python3 -m onestep_dev.train.teacher_data --phonemes /root/os/b/phonemes_$lang.jsonl \
    --style /root/os/b/styles/$style.npy --teacher /root/os/kokoro.onnx --out /root/os/data/$lang \
    --device cuda --workers "$workers" > /root/os/gen-$lang.log 2>&1 &
done
wait
tail -n 3 /root/os/gen-*.log
for _ in $(seq 120); do [ -f /root/os/a/ready ] && break; sleep 1; done
[ -f /root/os/a/ready ] || echo "no seeded checkpoints staged: training from scratch"
echo "=== $(date +%T) training $minutes min per voice (all at once)"
for line in "${voices[@]}"; do
  read -r lang _ _ <<< "$line"
  if [ -d /root/os/a/$lang ] && [ ! -d /root/os/runs/$lang ]; then
    mkdir -p /root/os/runs && cp -r /root/os/a/$lang /root/os/runs/$lang && echo "$lang: resuming from the seed"
  fi
  python3 -m onestep_dev.train.trainer --data /root/os/data/$lang --out /root/os/runs/$lang --device cuda \
    --minutes "$minutes" --resume ${TRAIN_ARGS:-} > /root/os/train-$lang.log 2>&1 &
done
wait
echo "=== $(date +%T) done"
