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
# Results: voices_0.3.4-candidate_results_2026-12-07_cpu-2core.json.gz; gate table: ..._summary_20lines_... .md.
# Code-switch (zh-xiaoxiao, 100 held-out code-switched sentences, students only; 0.3.2 the same run):
#   ONESTEP_VOICES=<folder with multispeaker -> /tmp/cand034> python -m onestep_dev.eval.code_switch \
#     --voice zh-xiaoxiao --sentences 100 --out DIR
# The per-voice job is the 0.3.3 candidate's (same lines, same Hindi teacher pairs), run here on CAND:
CHECKOUT=${CHECKOUT:-$(git rev-parse --show-toplevel)}
exec bash "$CHECKOUT/docs/measurements/voices_0.3.3-candidate_run_2026-12-07_cpu-2core.sh"
