#!/bin/bash
# Candidate 0.3.9-hybrid: session 20's acoustic model and decoder (step 33,631, commit a3cf686: 0.3.5's state + 7 min
# at a quarter of the learning rates) with 0.3.5's vocoder (step 32,051, commit 972343b). Why: candidate 0.3.8 (all
# of 33,631) read better (en-heart WER 3.0 -> 2.0 %, ja-kumo CER 14.2 -> 12.5 %, zh-xiaoxiao 19.1 -> 18.8 %) but
# sounded worse (DNSMOS OVRL en-heart 3.29 -> 3.22, ja-kumo 3.28 -> 3.23), as every lease from 0.3.5's state has:
# the words come from the acoustic model, the sound from the vocoder, and the two are separate files. Measured by
# 0.3.7's job (STAGE=cs first, SHIPPED_CS=0 where the shipped pack was measured the same session; STAGE=voices).
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
STATE=${STATE:-/tmp/state039h}
if [ "${STAGE:-cs}" = cs ]; then
  mkdir -p "$STATE"
  git -C "$CHECKOUT" show a3cf686:lab/train_state/multi/acoustic.pt > "$STATE/acoustic.pt"
  git -C "$CHECKOUT" show a3cf686:lab/train_state/multi/meta.json > "$STATE/meta.json"
  git -C "$CHECKOUT" show 972343b:lab/train_state/multi/vocoder.pt > "$STATE/vocoder.pt"
fi
CHECKPOINT="$STATE" VERSION=0.3.9 SUFFIX=c39h CAND=${CAND:-/tmp/cand039h} OUTDIR=${OUTDIR:-/tmp/eval039h} \
  bash "$CHECKOUT/docs/measurements/voices_0.3.7-candidate_run_2026-12-07_cpu-2core.sh"
