#!/bin/bash
# The issue-21 measurement of candidate 0.3.3 (step 33,619, session 14; not shipped): each voice beside its own
# Kokoro teacher, 20 held-out lines, this 2-core CPU, 2026-12-07 (~72 s a voice, 50 min for 41). The Hindi voices
# are judged by agreement, so each runs with a second teacher voice (the pairs of the 0.3.2 run).
# CAND = the export (INT8 decoder and vocoder, as shipped); runs are named VOICE_SUFFIX under OUTDIR.
# Results: voices_0.3.3-candidate_results_2026-12-07_cpu-2core.json.gz; gate table: ..._summary_20lines_... .md.
#   CAND=/tmp/cand033 SUFFIX=cand OUTDIR=/tmp/eval14 VOICES="en-heart zh-xiaoxiao ..." bash THIS
#   python -m onestep_dev.eval.gate /tmp/eval14/*/results.json
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
