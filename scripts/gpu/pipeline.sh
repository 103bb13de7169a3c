#!/usr/bin/env bash
# Remote, background (started by start.sh in its own session): teacher data for both voices, then training.
# Everything lands under /root/os; collect.sh brings the small files back.
set -uo pipefail
cd /root/os/repo
export PYTHONPATH=/root/os/site:/root/os/repo/src PYTHONUNBUFFERED=1
read -r en_voice zh_voice < /root/os/b/voices.txt
minutes=${TRAIN_MINUTES:-18}
workers=${GEN_WORKERS:-4}
echo "=== $(date +%T) teacher check: PyTorch port vs int8 ONNX"
python3 scripts/gpu/check_teacher.py /root/os/kokoro.onnx /root/os/b/styles/$en_voice.npy || echo "teacher check FAILED (continuing)"
echo "=== $(date +%T) teacher data ($workers workers per voice)"
for pair in "en:$en_voice" "zh:$zh_voice"; do
  lang=${pair%%:*}; voice=${pair#*:}
  python3 -m onestep.train.teacher_data --phonemes /root/os/b/phonemes_$lang.jsonl \
    --style /root/os/b/styles/$voice.npy --teacher /root/os/kokoro.onnx --out /root/os/data/$lang \
    --device cuda --workers "$workers" > /root/os/gen-$lang.log 2>&1 &
done
wait
tail -n 3 /root/os/gen-*.log
echo "=== $(date +%T) training $minutes min per voice (both at once)"
for lang in en zh; do
  python3 -m onestep.train.trainer --data /root/os/data/$lang --out /root/os/runs/$lang --device cuda \
    --minutes "$minutes" --resume ${TRAIN_ARGS:-} > /root/os/train-$lang.log 2>&1 &
done
wait
echo "=== $(date +%T) done"
