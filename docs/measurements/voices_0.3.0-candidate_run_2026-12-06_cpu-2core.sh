#!/bin/bash
# The issue-21 measurement: candidate 41-voice pack vs own Kokoro teachers, 20 held-out lines per voice.
export OMP_WAIT_POLICY=PASSIVE ONESTEP_KOKORO_VOICES=/work/shared/voices/kokoro PYTHONPATH=/tmp/evallang/src-snapshot
CAND=/tmp/cand
run() {  # name, args...
  local name=$1; shift
  echo "$(date -u +%T) start $name" >> /tmp/evallang/progress.log
  timeout 1200 python -m onestep.cli eval --limit 20 --out /tmp/evallang/$name "$@" > /tmp/evallang/$name.log 2>&1
  echo "$(date -u +%T) end $name rc=$?" >> /tmp/evallang/progress.log
}
run ja-alpha_cand --voices-dir $CAND --voice ja-alpha
run es-dora_cand --voices-dir $CAND --voice es-dora
run fr-siwis_cand --voices-dir $CAND --voice fr-siwis
run it-sara_cand --voices-dir $CAND --voice it-sara
run pt-dora_cand --voices-dir $CAND --voice pt-dora
run hi-alpha_cand --voices-dir $CAND --voice hi-alpha --teacher-voice hf_alpha,hm_omega
run en-heart_cand --voices-dir $CAND --voice en-heart
run zh-xiaoxiao_cand --voices-dir $CAND --voice zh-xiaoxiao
run en-heart_0.2.2 --voice en-heart --teacher-voice none
run zh-xiaoxiao_0.2.2 --voice zh-xiaoxiao --teacher-voice none
run ja-kumo_cand --voices-dir $CAND --voice ja-kumo
run es-alex_cand --voices-dir $CAND --voice es-alex
run it-nicola_cand --voices-dir $CAND --voice it-nicola
run pt-alex_cand --voices-dir $CAND --voice pt-alex
run hi-omega_cand --voices-dir $CAND --voice hi-omega --teacher-voice hm_omega,hf_alpha
echo "$(date -u +%T) all done" >> /tmp/evallang/progress.log
