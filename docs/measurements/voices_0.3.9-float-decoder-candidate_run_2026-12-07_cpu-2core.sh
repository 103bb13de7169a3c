#!/bin/bash
# Candidate 0.3.9-fd (session 19, no device time): voices 0.3.5's weights (step 32,051, lab/train_state/multi) with
# the decoder kept in float (fp16-stored weights, 5.0 MB; the vocoder INT8 as shipped), 0.3.5's postfilter strengths.
# Acoustic graph and INT8 vocoder are byte-identical to 0.3.5's, and quantizing this decoder gives 0.3.5's
# decoder.int8.onnx byte for byte: the candidate differs from the shipped pack by the decoder's precision alone.
# Why: the Mandarin voices miss their gate by CER (6 of 8 in 0.3.5), and in 0.1.x an INT8 decoder was not shipped
# for zh-xiaoxiao because of its CER (TRAINING.md §6). STAGE=zh (default): the 8 Mandarin voices beside their
# teachers on the 20 held-out lines; STAGE=all: the other 33. Then the gate over OUTDIR.
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
CAND=${CAND:-/tmp/candfd}; OUTDIR=${OUTDIR:-/tmp/evalfd}; SUFFIX=${SUFFIX:-fd}
if [ ! -f "$CAND/decoder.onnx" ]; then
  onestep export --checkpoint "$CHECKOUT/lab/train_state/multi" --name multispeaker --language en --version 0.3.9 \
    --default en-heart,zh-xiaoxiao --out "$CAND"
  python -m onestep.model.quantize "$CAND" --one-precision          # the vocoder only: no --decoder
  python -m onestep_dev.train.postfilter "$CAND" --strength 0.75 --language zh=0
fi
job="$CHECKOUT/docs/measurements/voices_0.3.3-candidate_run_2026-12-07_cpu-2core.sh"   # the per-voice eval job
if [ "${STAGE:-zh}" = zh ]; then
  A="zh-xiaoxiao zh-xiaobei zh-yunxi zh-yunyang"; B="zh-xiaoyi zh-yunjian zh-yunxia zh-xiaoni"
else
  A="en-heart ja-kumo hi-omega en-puck pt-dora en-bella en-sarah en-emma en-nova en-echo en-fable es-alex fr-siwis hi-beta it-sara ja-nezumi pt-santa"
  B="it-nicola en-michael pt-alex ja-gongitsune en-nicole en-fenrir en-george en-alloy en-sky en-onyx es-dora es-santa hi-alpha hi-psi ja-alpha ja-tebukuro"
fi
CAND=$CAND SUFFIX=$SUFFIX OUTDIR=$OUTDIR VOICES="$A" bash "$job" &
CAND=$CAND SUFFIX=$SUFFIX OUTDIR=$OUTDIR VOICES="$B" bash "$job"
wait
python -m onestep_dev.eval.gate "$OUTDIR"/*_"$SUFFIX"/results.json
