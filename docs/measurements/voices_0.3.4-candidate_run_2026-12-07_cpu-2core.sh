#!/bin/bash
# The issue-21 measurement of candidate 0.3.4 (not shipped): voices 0.3.2's weights (step 32,051, lab/train_state/multi)
# exported with the mel postfilter folded into the vocoder, each voice beside its own Kokoro teacher, 20 held-out
# lines, this 2-core CPU, 2026-12-07 (two processes side by side, ~2 min a voice each, 41 min for 41). The Hindi
# voices are judged by agreement, so each runs with a second teacher voice (the pairs of the 0.3.2 run).
#   onestep export --checkpoint lab/train_state/multi --name multispeaker --language en --version 0.3.4 \
#     --default en-heart,zh-xiaoxiao --mel-sharpen 0.75:5 --out /tmp/cand034 \
#     && python -m onestep.model.quantize /tmp/cand034 --decoder --one-precision
#   (acoustic.onnx, decoder.int8.onnx and speakers.npy come out byte-identical to 0.3.2's; only the vocoder differs)
#   CAND=/tmp/cand034 SUFFIX=s034 OUTDIR=/tmp/eval034 VOICES="en-heart ja-kumo ..." bash THIS   # twice, halves
#   python -m onestep_dev.eval.gate /tmp/eval034/*/results.json
# Results: voices_0.3.4-candidate_results_2026-12-07_cpu-2core.json; gate table: ..._summary_20lines_... .md.
# Code-switch (zh-xiaoxiao, 100 held-out code-switched sentences, students only; 0.3.2 the same run):
#   ONESTEP_VOICES=<folder with multispeaker -> /tmp/cand034> python -m onestep_dev.eval.code_switch \
#     --voice zh-xiaoxiao --sentences 100 --out DIR
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
OUTDIR=${OUTDIR:-/tmp/evallang}; mkdir -p "$OUTDIR"
export OMP_WAIT_POLICY=PASSIVE ONESTEP_KOKORO_VOICES=${ONESTEP_KOKORO_VOICES:-$CHECKOUT/../shared/voices/kokoro}
export PYTHONPATH="$CHECKOUT/src:$CHECKOUT/dev/src"
run() {  # name, args...
  local name=$1; shift
  echo "$(date -u +%T) start $name" >> "$OUTDIR/progress.log"
  timeout 1500 nice -n 5 python -m onestep.cli eval --limit 20 --out "$OUTDIR/$name" "$@" > "$OUTDIR/$name.log" 2>&1
  echo "$(date -u +%T) end $name rc=$?" >> "$OUTDIR/progress.log"
}
for v in ${VOICES:?give VOICES}; do
  case $v in
    hi-alpha) run "${v}_$SUFFIX" --voices-dir "$CAND" --voice $v --teacher-voice hf_alpha,hm_omega ;;
    hi-omega) run "${v}_$SUFFIX" --voices-dir "$CAND" --voice $v --teacher-voice hm_omega,hf_alpha ;;
    hi-beta) run "${v}_$SUFFIX" --voices-dir "$CAND" --voice $v --teacher-voice hf_beta,hm_psi ;;
    hi-psi) run "${v}_$SUFFIX" --voices-dir "$CAND" --voice $v --teacher-voice hm_psi,hf_beta ;;
    *) run "${v}_$SUFFIX" --voices-dir "$CAND" --voice $v ;;
  esac
done
echo "$(date -u +%T) all done" >> "$OUTDIR/progress.log"
