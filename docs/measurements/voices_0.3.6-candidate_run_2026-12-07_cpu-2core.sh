#!/bin/bash
# Candidate 0.3.6 (not shipped): step 34,121 (session 17: 0.3.2's state + 7 min with --vocoder-finetune 0.3 on
# DRAW=8 data; lab/train_state/multi at commit 3f88b45), exported as 0.3.2 was, INT8 decoder and vocoder, with
# 0.3.5's postfilter strengths (0.75 for the 33 non-Mandarin voices, 0 for the 8 Mandarin ones). Each voice beside
# its own Kokoro teacher on the 20 held-out lines of its language, this 2-core CPU, 2026-12-07, two processes side
# by side. Results: ..._results_... .json.gz; gate table: ..._summary_20lines_... .md; code-switch JSON beside it.
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
CAND=${CAND:-/tmp/cand036}; OUTDIR=${OUTDIR:-/tmp/eval036}
onestep export --checkpoint "$CHECKOUT/lab/train_state/multi" --name multispeaker --language en --version 0.3.6 \
  --default en-heart,zh-xiaoxiao --out "$CAND"
python -m onestep.model.quantize "$CAND" --decoder --one-precision
python -m onestep_dev.train.postfilter "$CAND" --strength 0.75 --language zh=0
job="$CHECKOUT/docs/measurements/voices_0.3.3-candidate_run_2026-12-07_cpu-2core.sh"   # the per-voice eval job
A="en-heart ja-kumo hi-omega en-puck zh-xiaobei zh-yunxia pt-dora en-bella en-sarah en-emma zh-xiaoni zh-yunxi en-nova en-echo en-fable es-alex fr-siwis hi-beta it-sara ja-nezumi pt-santa"
B="zh-xiaoxiao it-nicola en-michael zh-xiaoyi zh-yunyang pt-alex ja-gongitsune en-nicole en-fenrir en-george zh-yunjian en-alloy en-sky en-onyx es-dora es-santa hi-alpha hi-psi ja-alpha ja-tebukuro"
CAND=$CAND SUFFIX=c36 OUTDIR=$OUTDIR VOICES="$A" bash "$job" &
CAND=$CAND SUFFIX=c36 OUTDIR=$OUTDIR VOICES="$B" bash "$job"
wait
python -m onestep_dev.eval.gate "$OUTDIR"/*/results.json
# Code-switch (zh-xiaoxiao, 100 held-out code-switched sentences; 0.3.5 = 0.3.2's Mandarin audio, its figure in
# code_switch_0.3.4-candidate_100sentences_2026-12-07_cpu-2core.json, key "032"):
mkdir -p "$OUTDIR/pack" && ln -sfn "$CAND" "$OUTDIR/pack/multispeaker"
ONESTEP_VOICES="$OUTDIR/pack" python -m onestep_dev.eval.code_switch --voice zh-xiaoxiao --sentences 100 --out "$OUTDIR/cs"
