#!/bin/bash
# Voices 0.3.5: voices 0.3.2's graphs (step 32,051) with the per-voice mel postfilter (voice.json speakers'
# mel_sharpen; onestep.runtime.mel_postfilter): 0.75 for the 33 voices whose native language is not Mandarin,
# 0 for the 8 Mandarin voices (the split of the 41-voice screen on training-corpus lines,
# mel_sharpen_screen_41voices_2026-12-07_cpu-2core.txt). Measured on this 2-core CPU, 2026-12-07, 20 held-out
# lines per voice, each beside its own Kokoro teacher (INT8 decoder and vocoder, as shipped).
set -euo pipefail
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
PACK=${PACK:-/tmp/pf}
cp -r "$CHECKOUT/src/onestep/voices/multispeaker" "$PACK"     # at 0.3.2 (commit d14d8da)
python -m onestep_dev.train.postfilter "$PACK" --strength 0.75 --language zh=0
# The 33 voices with a strength, two processes side by side (~2.2 min a voice each, ~38 min):
A="en-heart ja-kumo hi-omega en-puck es-santa en-bella en-emma en-alloy en-sky en-onyx es-dora hi-alpha hi-psi ja-alpha ja-tebukuro pt-dora pt-santa"
B="it-nicola en-michael pt-alex ja-gongitsune en-nicole en-fenrir en-george en-nova en-echo en-fable es-alex fr-siwis hi-beta it-sara ja-nezumi en-sarah"
job="$CHECKOUT/docs/measurements/voices_0.3.3-candidate_run_2026-12-07_cpu-2core.sh"   # the per-voice eval job
CAND=$PACK SUFFIX=pf OUTDIR=${OUTDIR:-/tmp/evalpf} VOICES="$A" bash "$job" &
CAND=$PACK SUFFIX=pf OUTDIR=${OUTDIR:-/tmp/evalpf} VOICES="$B" bash "$job"
wait
# The 8 Mandarin voices (strength 0) render 0.3.2's audio bit for bit (checked), so their rows are 0.3.2's run
# (voices_0.3.2-candidate_results_2026-12-06_cpu-2core.json.gz, keys zh-*_cand), and so is the code-switch measure.
# Gate table and voice.json figures:
#   python -m onestep_dev.eval.gate --write-pack src/onestep/voices/multispeaker --measured "..." DIR/*/results.json
