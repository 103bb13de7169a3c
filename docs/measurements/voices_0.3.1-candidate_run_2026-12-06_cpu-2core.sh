#!/bin/bash
# The issue-21 measurement: candidate 0.3.1 (step 29,611) vs own Kokoro teachers, 20 held-out lines per voice.
export OMP_WAIT_POLICY=PASSIVE ONESTEP_KOKORO_VOICES=../shared/voices/kokoro PYTHONPATH=<checkout>/src
CAND=/tmp/cand031
run() {  # name, args...
  local name=$1; shift
  echo "$(date -u +%T) start $name" >> /tmp/evallang/progress.log
  timeout 1200 python -m onestep.cli eval --limit 20 --out /tmp/evallang/$name "$@" > /tmp/evallang/$name.log 2>&1
  echo "$(date -u +%T) end $name rc=$?" >> /tmp/evallang/progress.log
}
run fr-siwis_cand --voices-dir $CAND --voice fr-siwis
run pt-dora_cand --voices-dir $CAND --voice pt-dora
run pt-alex_cand --voices-dir $CAND --voice pt-alex
run it-nicola_cand --voices-dir $CAND --voice it-nicola
run ja-kumo_cand --voices-dir $CAND --voice ja-kumo
run en-heart_cand --voices-dir $CAND --voice en-heart
run zh-xiaoxiao_cand --voices-dir $CAND --voice zh-xiaoxiao
run hi-alpha_cand --voices-dir $CAND --voice hi-alpha --teacher-voice hf_alpha,hm_omega
run hi-omega_cand --voices-dir $CAND --voice hi-omega --teacher-voice hm_omega,hf_alpha
run ja-alpha_cand --voices-dir $CAND --voice ja-alpha
run es-dora_cand --voices-dir $CAND --voice es-dora
run es-alex_cand --voices-dir $CAND --voice es-alex
run it-sara_cand --voices-dir $CAND --voice it-sara
echo "$(date -u +%T) all done" >> /tmp/evallang/progress.log
#!/bin/bash
export OMP_WAIT_POLICY=PASSIVE ONESTEP_KOKORO_VOICES=../shared/voices/kokoro PYTHONPATH=<checkout>/src
run() { local name=$1; shift; echo "$(date -u +%T) start $name" >> /tmp/evallang/progress.log
  timeout 1200 python -m onestep.cli eval --limit 40 --teacher-voice none --out /tmp/evallang/$name "$@" > /tmp/evallang/$name.log 2>&1
  echo "$(date -u +%T) end $name rc=$?" >> /tmp/evallang/progress.log; }
run en-heart40_cand --voices-dir /tmp/cand031 --voice en-heart
run en-heart40_030 --voice en-heart
echo "$(date -u +%T) run2 done" >> /tmp/evallang/progress.log
