#!/bin/bash
# Candidate 0.3.8: step 33,631 (session 20: 0.3.5's state 32,051 + 7 min at a quarter of the default peak learning
# rates, --vocoder-finetune 0.1, DRAW=10 data from lab/gpu/mixes/session19.env; lab/train_state/multi at commit
# a3cf686), exported and post-filtered as 0.3.7 was; the same two stages (STAGE=cs first, then STAGE=voices).
set -euo pipefail
here=$(dirname "$0")
VERSION=0.3.8 SUFFIX=c38 CAND=${CAND:-/tmp/cand038} OUTDIR=${OUTDIR:-/tmp/eval038} \
  bash "$here/voices_0.3.7-candidate_run_2026-12-07_cpu-2core.sh"
