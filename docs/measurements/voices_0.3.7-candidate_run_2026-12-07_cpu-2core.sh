#!/bin/bash
# Candidate 0.3.7: step 35,662 (session 18: 0.3.6's state 34,121 + 7 min with --vocoder-finetune 0.3 on DRAW=9
# data, lab/gpu/mixes/session18.env: the Mandarin voices read 100 code-switched lines again, 15 since 0.3.0;
# lab/train_state/multi at commit 3617fa6), exported as 0.3.6 was, INT8 decoder and vocoder, with 0.3.5's
# postfilter strengths (0.75 for the 33 non-Mandarin voices, 0 for the 8 Mandarin ones). The code-switch check
# runs first (STAGE=cs), since it is the check 0.3.6 failed; then (STAGE=voices) each voice beside its own Kokoro
# teacher on the 20 held-out lines of its language, this 2-core CPU, 2026-12-07, two processes side by side.
# Another candidate runs this same job: CHECKPOINT (a checkpoint folder), VERSION, SUFFIX (run names VOICE_SUFFIX),
# CAND and OUTDIR (e.g. voices_0.3.8-soup-candidate_run_2026-12-07_cpu-2core.sh).
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
CHECKPOINT=${CHECKPOINT:-$CHECKOUT/lab/train_state/multi}; VERSION=${VERSION:-0.3.7}; SUFFIX=${SUFFIX:-c37}
CAND=${CAND:-/tmp/cand037}; OUTDIR=${OUTDIR:-/tmp/eval037}
if [ "${STAGE:-cs}" = cs ]; then
  onestep export --checkpoint "$CHECKPOINT" --name multispeaker --language en --version "$VERSION" \
    --default en-heart,zh-xiaoxiao --out "$CAND"
  python -m onestep.model.quantize "$CAND" --decoder --one-precision
  # shellcheck disable=SC2086  (POSTFILTER: the shipped pack's strengths, 0.3.10's since session 20)
  python -m onestep_dev.train.postfilter "$CAND" ${POSTFILTER:---strength 0.75 --language zh=0}
  # Code-switch (zh-xiaoxiao, 100 held-out code-switched sentences; 0.3.5: 94 of 143 words, 65.7 %)
  mkdir -p "$OUTDIR/pack" && ln -sfn "$CAND" "$OUTDIR/pack/multispeaker"
  ONESTEP_VOICES="$OUTDIR/pack" python -m onestep_dev.eval.code_switch --voice zh-xiaoxiao --sentences 100 \
    --out "$OUTDIR/cs"
  # The shipped pack in the same run (since session 19: stored figures of other days moved with the frontend)
  [ "${SHIPPED_CS:-1}" = 0 ] || python -m onestep_dev.eval.code_switch --voice zh-xiaoxiao --sentences 100 \
    --out "$OUTDIR/cs_shipped"
else
  job="$CHECKOUT/docs/measurements/voices_0.3.3-candidate_run_2026-12-07_cpu-2core.sh"   # the per-voice eval job
  A="en-heart ja-kumo hi-omega en-puck zh-xiaobei zh-yunxia pt-dora en-bella en-sarah en-emma zh-xiaoni zh-yunxi en-nova en-echo en-fable es-alex fr-siwis hi-beta it-sara ja-nezumi pt-santa"
  B="zh-xiaoxiao it-nicola en-michael zh-xiaoyi zh-yunyang pt-alex ja-gongitsune en-nicole en-fenrir en-george zh-yunjian en-alloy en-sky en-onyx es-dora es-santa hi-alpha hi-psi ja-alpha ja-tebukuro"
  CAND=$CAND SUFFIX=$SUFFIX OUTDIR=$OUTDIR VOICES="$A" bash "$job" &
  CAND=$CAND SUFFIX=$SUFFIX OUTDIR=$OUTDIR VOICES="$B" bash "$job"
  wait
  python -m onestep_dev.eval.gate "$OUTDIR"/*_"$SUFFIX"/results.json
fi
