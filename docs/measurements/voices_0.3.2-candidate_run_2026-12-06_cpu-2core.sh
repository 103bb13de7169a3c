#!/bin/bash
# The issue-21 measurement of candidate 0.3.2 (step 32,051): each voice beside its own Kokoro teacher, 20 held-out
# lines, this 2-core CPU, 2026-12-06. Candidates: CAND = the export (INT8 decoder and vocoder, as shipped);
# bf = the same acoustic model with the vocoder of step 31,770 (before its fine-tune on predicted mels);
# float = CAND with the float vocoder. 031 = the shipped 0.3.1 pack. Runs are named VOICE_SUFFIX.
# Results of every run: voices_0.3.2-candidate_results_2026-12-06_cpu-2core.json.gz (one object per run name).
OUTDIR=${OUTDIR:-/tmp/evallang}; mkdir -p "$OUTDIR"
export OMP_WAIT_POLICY=PASSIVE ONESTEP_KOKORO_VOICES=../shared/voices/kokoro PYTHONPATH=<checkout>/src:<checkout>/dev/src
run() {  # name, args...
  local name=$1; shift
  echo "$(date -u +%T) start $name" >> $OUTDIR/progress.log
  timeout 1500 nice -n 5 python -m onestep.cli eval --limit 20 --out $OUTDIR/$name "$@" > $OUTDIR/$name.log 2>&1
  echo "$(date -u +%T) end $name rc=$?" >> $OUTDIR/progress.log
}
for v in ${VOICES:-it-sara it-nicola pt-dora ja-kumo en-heart zh-xiaoxiao}; do
  case $v in
    hi-alpha) run ${v}_${SUFFIX:-cand} --voices-dir $CAND --voice $v --teacher-voice hf_alpha,hm_omega ;;
    hi-omega) run ${v}_${SUFFIX:-cand} --voices-dir $CAND --voice $v --teacher-voice hm_omega,hf_alpha ;;
    *) run ${v}_${SUFFIX:-cand} --voices-dir $CAND --voice $v ;;
  esac
done
echo "$(date -u +%T) all done" >> $OUTDIR/progress.log
# Invocations (OUTDIR=/tmp/evallang):
#   VOICES="<the 11 new-language voices> en-heart zh-xiaoxiao <the other 15 voices of 0.2>" CAND=/tmp/cand032 SUFFIX=cand
#   VOICES="en-heart ja-kumo it-nicola" CAND=/tmp/bf032 SUFFIX=bf;  the same with CAND=/tmp/cand032f SUFFIX=float
#   VOICES="en-michael en-puck zh-xiaobei zh-yunjian zh-yunxi zh-yunyang" CAND=src/onestep/voices/multispeaker SUFFIX=031
# 40 lines, students only: python -m onestep.cli eval --limit 40 --teacher-voice none --voice en-heart [--voices-dir CAND]
# Code-switch: ONESTEP_VOICES=<dir holding CAND as multispeaker/> python -m onestep_dev.eval.code_switch \
#   --voice zh-xiaoxiao --teacher-voice zf_xiaoxiao --teacher-splice english --sentences 30 --out DIR
