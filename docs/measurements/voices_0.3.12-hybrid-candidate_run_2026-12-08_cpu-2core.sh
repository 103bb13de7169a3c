#!/bin/bash
# Candidate 0.3.12-hybrid: session 21's acoustic model and decoder (step 32,833, commit 86e274a: 0.3.5's state + 5 min
# at a quarter of the learning rates on a 19,248-line draw) with 0.3.5's vocoder (step 32,051, commit 972343b). Why:
# all of 32,833 (candidate 0.3.11) lost DNSMOS on en-heart, ja-kumo, it-nicola and hi-omega, as every lease from
# 0.3.5's state has; with the vocoder kept as shipped, this says whether the loss comes from the vocoder's resume
# (DNSMOS back at 0.3.5's) or from the acoustic model's mels (DNSMOS still down), without a GPU. Measured by 0.3.7's
# job with 0.3.10's postfilter (STAGE=cs, SHIPPED_CS=0: the shipped pack was measured the same session), then
# en-heart and ja-kumo beside their teachers (the 0.3.3 per-voice job, two processes side by side).
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
STATE=${STATE:-/tmp/state0312h}; CAND=${CAND:-/tmp/cand0312h}; OUTDIR=${OUTDIR:-/tmp/eval0312h}
if [ "${STAGE:-cs}" = cs ]; then
  mkdir -p "$STATE"
  git -C "$CHECKOUT" show 86e274a:lab/train_state/multi/acoustic.pt > "$STATE/acoustic.pt"
  git -C "$CHECKOUT" show 86e274a:lab/train_state/multi/meta.json > "$STATE/meta.json"
  git -C "$CHECKOUT" show 972343b:lab/train_state/multi/vocoder.pt > "$STATE/vocoder.pt"
  POSTFILTER="--strength 0.75 --language zh=0 --voice hi-alpha=0 --voice hi-beta=0 --voice pt-alex=0" SHIPPED_CS=0 \
    CHECKPOINT="$STATE" VERSION=0.3.12 SUFFIX=c312h CAND="$CAND" OUTDIR="$OUTDIR" \
    bash "$CHECKOUT/docs/measurements/voices_0.3.7-candidate_run_2026-12-07_cpu-2core.sh"
else
  job="$CHECKOUT/docs/measurements/voices_0.3.3-candidate_run_2026-12-07_cpu-2core.sh"
  CAND=$CAND SUFFIX=c312h OUTDIR=$OUTDIR VOICES="en-heart" bash "$job" &
  CAND=$CAND SUFFIX=c312h OUTDIR=$OUTDIR VOICES="ja-kumo" bash "$job"
  wait
  python -m onestep_dev.eval.gate "$OUTDIR"/*_c312h/results.json
fi
