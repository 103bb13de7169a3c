#!/bin/bash
# Voices 0.3.10 = 0.3.5 with the mel postfilter off (strength 0) for hi-alpha, hi-beta and pt-alex: both strengths of
# the three voices beside their own Kokoro teachers in one session, this 2-core CPU, 2026-12-07 (session 20): the
# gate's 20 held-out lines (per-voice job of 0.3.3), then 40 (--limit 44) for hi-beta and pt-alex as confirmation.
# Results: voices_0.3.10_postfilter_off_3voices_2026-12-07_cpu-2core.md and the JSON (gzip) beside it.
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
PACK=${PACK:-$CHECKOUT/src/onestep/voices/multispeaker}  # 0.3.10's graphs = 0.3.5's; strengths set below
ON=${ON:-/tmp/pack_i8}; OFF=${OFF:-/tmp/pack_h0}; OUTDIR=${OUTDIR:-/tmp/evalhi}
export ONESTEP_KOKORO_VOICES=${ONESTEP_KOKORO_VOICES:-$CHECKOUT/../shared/voices/kokoro}
for d in "$ON" "$OFF"; do rm -rf "$d" && mkdir -p "$d" && cp -r "$PACK" "$d/multispeaker"; done
python -m onestep_dev.train.postfilter "$ON/multispeaker" --strength 0.75 --language zh=0  # 0.3.5's strengths
python -m onestep_dev.train.postfilter "$OFF/multispeaker" --strength 0.75 --language zh=0 \
  --voice hi-alpha=0 --voice hi-beta=0 --voice pt-alex=0  # 0.3.10's
job="$CHECKOUT/docs/measurements/voices_0.3.3-candidate_run_2026-12-07_cpu-2core.sh"
CAND="$ON/multispeaker" SUFFIX=i8 OUTDIR="$OUTDIR" VOICES="hi-alpha hi-beta" bash "$job" &
CAND="$OFF/multispeaker" SUFFIX=h0 OUTDIR="$OUTDIR" VOICES="hi-beta hi-alpha pt-alex" bash "$job"
wait
for x in "h0:$OFF/multispeaker" "i8:$ON/multispeaker"; do
  for v in "hi-beta --teacher-voice hf_beta,hm_psi" "pt-alex"; do
    # shellcheck disable=SC2086
    python -m onestep.cli eval --limit 44 --out "$OUTDIR/44/${v%% *}_${x%%:*}" --voices-dir "${x#*:}" --voice $v &
  done
  wait
done
python -m onestep_dev.eval.gate "$OUTDIR"/*_h0/results.json "$OUTDIR"/*_i8/results.json "$OUTDIR"/44/*/results.json
