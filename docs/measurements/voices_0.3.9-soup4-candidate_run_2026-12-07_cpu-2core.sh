#!/bin/bash
# Candidate 0.3.9-soup4: the uniform average of the four sibling states of one lineage: 0.3.5's (step 32,051,
# commit 972343b), session 20's low-rate refinement of it (33,631, a3cf686: candidate 0.3.8, code-switch 62.9 %
# against the shipped 65.0 % in the same run), 0.3.6's (34,121, 3f88b45) and 0.3.7's (35,662, 3617fa6) — the
# three-state soup (0.3.8-soup) plus the fourth sibling (onestep_dev.train.average_checkpoints). Measured by
# 0.3.7's job (STAGE=cs first, SHIPPED_CS=0 where the shipped pack was measured in the same session; then
# STAGE=voices), this 2-core CPU, 2026-12-07.
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
STATES=${STATES:-/tmp/states039s}
if [ "${STAGE:-cs}" = cs ]; then
  for c in 972343b:s32051 a3cf686:s33631 3f88b45:s34121 3617fa6:s35662; do
    mkdir -p "$STATES/${c#*:}"
    for f in acoustic.pt vocoder.pt meta.json; do
      git -C "$CHECKOUT" show "${c%%:*}:lab/train_state/multi/$f" > "$STATES/${c#*:}/$f"
    done
  done
  python -m onestep_dev.train.average_checkpoints "$STATES/soup" "$STATES"/s32051 "$STATES"/s33631 \
    "$STATES"/s34121 "$STATES"/s35662
fi
CHECKPOINT="$STATES/soup" VERSION=0.3.9 SUFFIX=c39s CAND=${CAND:-/tmp/cand039s} OUTDIR=${OUTDIR:-/tmp/eval039s} \
  bash "$CHECKOUT/docs/measurements/voices_0.3.7-candidate_run_2026-12-07_cpu-2core.sh"
