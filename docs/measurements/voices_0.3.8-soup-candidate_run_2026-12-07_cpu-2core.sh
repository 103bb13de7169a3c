#!/bin/bash
# Candidate 0.3.8-soup: the uniform average of the three sibling states of one lineage, 0.3.5's (step 32,051,
# commit 972343b), 0.3.6's (34,121, 3f88b45) and 0.3.7's (35,662, 3617fa6) — each lease restarted the schedule
# from its parent, so each ends at the shared optimum plus its own drift, which the average shrinks
# (onestep_dev.train.average_checkpoints). Exported and measured by 0.3.7's job (INT8 decoder and vocoder, 0.3.5's
# postfilter strengths; STAGE=cs: the code-switch check first; STAGE=voices: every voice beside its own Kokoro
# teacher on the 20 held-out lines of its language), this 2-core CPU, 2026-12-07, two processes side by side.
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
STATES=${STATES:-/tmp/states038s}
if [ "${STAGE:-cs}" = cs ]; then
  for c in 972343b:s32051 3f88b45:s34121 3617fa6:s35662; do
    mkdir -p "$STATES/${c#*:}"
    for f in acoustic.pt vocoder.pt meta.json; do
      git -C "$CHECKOUT" show "${c%%:*}:lab/train_state/multi/$f" > "$STATES/${c#*:}/$f"
    done
  done
  python -m onestep_dev.train.average_checkpoints "$STATES/soup" "$STATES"/s32051 "$STATES"/s34121 "$STATES"/s35662
fi
CHECKPOINT="$STATES/soup" VERSION=0.3.8 SUFFIX=c38s CAND=${CAND:-/tmp/cand038s} OUTDIR=${OUTDIR:-/tmp/eval038s} \
  bash "$CHECKOUT/docs/measurements/voices_0.3.7-candidate_run_2026-12-07_cpu-2core.sh"
