#!/usr/bin/env bash
# Remote, background (started by `PIPELINE=pipeline_multi.sh start.sh`): teacher data of every voice of the
# multi-speaker model (waits for stage.sh's styles, per-voice text and seed checkpoint in /root/os/a), then one
# trainer for the multi-speaker model. Everything lands under /root/os; collect.sh brings small files back.
#   TRAIN_MINUTES (default 13), GEN_PARALLEL (teacher processes at once, default 12), TRAIN_ARGS,
#   SPLICE_CODE_SWITCH (default english: code-switched rows rendered in language runs, onestep_dev.train.splice;
#   "off" for one render per row as before), ENGLISH_SPEED (teacher speed of those English runs, default 1),
#   MATCH_LEVEL_DB (their level pulled towards the row render's by at most this many dB, default 0: off)
set -uo pipefail
cd /root/os/repo
export PYTHONPATH=/root/os/site:/root/os/repo/src:/root/os/repo/dev/src PYTHONUNBUFFERED=1
for _ in $(seq 120); do [ -f /root/os/a/ready ] && break; sleep 1; done
[ -f /root/os/a/ready ] || { echo "nothing staged in /root/os/a: stopping"; exit 1; }
mkdir -p /root/os/data/multi /root/os/runs
cp /root/os/a/voices/speakers.json /root/os/data/multi/
voices=$(python3 -c "import json; print(' '.join(json.load(open('/root/os/a/voices/speakers.json'))))")
splice=${SPLICE_CODE_SWITCH:-english}
export SPLICE_ARGS=""
[ "$splice" = off ] || SPLICE_ARGS="--splice-code-switch $splice --english-speed ${ENGLISH_SPEED:-1} --match-level-db ${MATCH_LEVEL_DB:-0}"
echo "=== $(date +%T) teacher data, ${GEN_PARALLEL:-12} processes at once (${SPLICE_ARGS:-no splice}): $voices"
printf '%s\n' $voices | xargs -P "${GEN_PARALLEL:-12}" -I{} sh -c 'python3 -m onestep_dev.train.teacher_data \
  --phonemes /root/os/a/voices/{}.jsonl --style /root/os/a/styles/{}.npy --teacher /root/os/kokoro.onnx \
  --out /root/os/data/multi/{} --device cuda --workers 1 $SPLICE_ARGS > /root/os/gen-{}.log 2>&1 || echo "gen {} FAILED"'
echo "=== $(date +%T) teacher data finished: $(du -sh /root/os/data/multi | cut -f1)"
[ -d /root/os/runs/multi ] || cp -r /root/os/a/run /root/os/runs/multi
echo "=== $(date +%T) training ${TRAIN_MINUTES:-13} min"
python3 -m onestep_dev.train.trainer --data /root/os/data/multi --out /root/os/runs/multi --device cuda \
  --minutes "${TRAIN_MINUTES:-13}" --resume ${TRAIN_ARGS:-} > /root/os/train-multi.log 2>&1
echo "=== $(date +%T) done"
