#!/bin/bash
# Candidate 0.3.8-soup: the uniform average of the three sibling states of one lineage, 0.3.5's (step 32,051,
# commit 972343b), 0.3.6's (34,121, 3f88b45) and 0.3.7's (35,662, 3617fa6) — each lease restarted the schedule
# from its parent, so each ends at the shared optimum plus its own drift, which the average shrinks
# (onestep_dev.train.average_checkpoints). Exported as 0.3.7 was (INT8 decoder and vocoder, 0.3.5's postfilter
# strengths); the code-switch check first, then every voice beside its own Kokoro teacher on the 20 held-out
# lines of its language, this 2-core CPU, 2026-12-07, two processes side by side.
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
CAND=${CAND:-/tmp/cand038s}; OUTDIR=${OUTDIR:-/tmp/eval038s}; STATES=${STATES:-/tmp/states038s}
if [ "${STAGE:-cs}" = cs ]; then
  for c in 972343b:s32051 3f88b45:s34121 3617fa6:s35662; do
    mkdir -p "$STATES/${c#*:}"
    for f in acoustic.pt vocoder.pt meta.json; do
      git -C "$CHECKOUT" show "${c%%:*}:lab/train_state/multi/$f" > "$STATES/${c#*:}/$f"
    done
  done
  python -m onestep_dev.train.average_checkpoints "$STATES/soup" "$STATES"/s32051 "$STATES"/s34121 "$STATES"/s35662
  onestep export --checkpoint "$STATES/soup" --name multispeaker --language en --version 0.3.8 \
    --default en-heart,zh-xiaoxiao --out "$CAND"
  python -m onestep.model.quantize "$CAND" --decoder --one-precision
  python -m onestep_dev.train.postfilter "$CAND" --strength 0.75 --language zh=0
  # Code-switch (zh-xiaoxiao, 100 held-out code-switched sentences; 0.3.5: 94 of 143 words, 65.7 %)
  mkdir -p "$OUTDIR/pack" && ln -sfn "$CAND" "$OUTDIR/pack/multispeaker"
  ONESTEP_VOICES="$OUTDIR/pack" python -m onestep_dev.eval.code_switch --voice zh-xiaoxiao --sentences 100 \
    --out "$OUTDIR/cs"
else
  job="$CHECKOUT/docs/measurements/voices_0.3.3-candidate_run_2026-12-07_cpu-2core.sh"   # the per-voice eval job
  A="en-heart ja-kumo hi-omega en-puck zh-xiaobei zh-yunxia pt-dora en-bella en-sarah en-emma zh-xiaoni zh-yunxi en-nova en-echo en-fable es-alex fr-siwis hi-beta it-sara ja-nezumi pt-santa"
  B="zh-xiaoxiao it-nicola en-michael zh-xiaoyi zh-yunyang pt-alex ja-gongitsune en-nicole en-fenrir en-george zh-yunjian en-alloy en-sky en-onyx es-dora es-santa hi-alpha hi-psi ja-alpha ja-tebukuro"
  CAND=$CAND SUFFIX=c38s OUTDIR=$OUTDIR VOICES="$A" bash "$job" &
  CAND=$CAND SUFFIX=c38s OUTDIR=$OUTDIR VOICES="$B" bash "$job"
  wait
  python -m onestep_dev.eval.gate "$OUTDIR"/*_c38s/results.json
fi
