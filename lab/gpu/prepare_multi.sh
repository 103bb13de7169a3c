#!/usr/bin/env bash
# Local: build the two carry folders of a multi-speaker training lease (lab/GPU_RUNS.md, "Multi-speaker lease").
#   .carry/b  teacher.onnx.xz (the assembled int8 Kokoro ONNX), the kokoro wheel, voices.txt ("multi")
#   .carry/a  styles/<voice>.npy (every teacher voice), voices/<voice>.jsonl + speakers.json (per-voice text,
#             onestep_dev.train.voice_corpus), run/checkpoints/step-N (the seed: the kept multi-speaker checkpoint in
#             lab/train_state/multi/; a new model is seeded from a single-speaker voice: SEED_VOICE=DIR with
#             SEED_STATE=DIR (its discriminator + meta), e.g. en-heart 0.1.1 from git history, commit c2ff1b5)
# Needs data/phonemes_{en,zh,mixed}.jsonl (TRAINING.md §1) and the kokoro wheel in $ONESTEP_DL/pk (or .carry/dl).
# DRAW=N picks another sample of the pools per voice (0: sessions 5-6; a resumed model then hears new text).
# POOLS="en zh mixed ja es ..." (default "en zh mixed"): the pools data/phonemes_<name>.jsonl; TAKE="en=300 ..."
# the lines of each pool per voice; TAKE_FOR="j:ja=280 ..." per-voice-prefix overrides (voice_corpus --take-for).
# Voice order = the kept checkpoint's speakers first, then every other pack sorted; when packs were added, the
# kept checkpoint's speaker table is grown (seed_checkpoint --grow: a new row starts as the closest voice's).
# Usage: lab/gpu/prepare_multi.sh [VOICE_DIR_OF_TEACHER_PACKS]   (default: ../shared/voices/kokoro)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
packs=${1:-../shared/voices/kokoro}
dl=${ONESTEP_DL:-.carry/dl}
teacher=$(python3 -c "from onestep_dev.teacher.assets import kokoro_model_path; print(kokoro_model_path())")
rm -rf .carry/a .carry/b/voices.txt .carry/b/styles .carry/b/phonemes_*.jsonl.gz
mkdir -p .carry/a/styles .carry/b
[ -f .carry/b/teacher.onnx.xz ] || xz -T2 -6 -c "$teacher" > .carry/b/teacher.onnx.xz
cp "$(ls "$dl"/kokoro-0.9.4-*.whl "$dl"/pk/kokoro-0.9.4-*.whl 2>/dev/null | head -n 1)" .carry/b/
echo multi > .carry/b/voices.txt
all=$(ls "$packs"/*.pt | xargs -n1 basename | sed 's/\.pt$//' | sort)
known=""
[ -f lab/train_state/multi/meta.json ] && known=$(python3 -c "import json; print(' '.join(json.load(open('lab/train_state/multi/meta.json'))['speakers']))")
voices=$( (printf '%s\n' $known; printf '%s\n' $all | { grep -vxF -f <(printf '%s\n' $known) || true; }) | grep . | paste -sd, -)
for v in ${voices//,/ }; do
  python3 -c "import sys, numpy as np; from onestep_dev.train.teacher_data import load_style_table as t
np.save(sys.argv[2], t(sys.argv[1]))" "$packs/$v.pt" ".carry/a/styles/$v.npy"
done
grep -q '"segments"' data/phonemes_mixed.jsonl || echo "WARNING: data/phonemes_mixed.jsonl has no segments" \
  "(phonemized before train.splice): re-run phonemize_corpus (TRAINING.md §3b), or code-switched rows are not spliced" >&2
pools=""; for name in ${POOLS:-en zh mixed}; do pools="$pools --pool $name=data/phonemes_$name.jsonl"; done
takes=""; for t in ${TAKE:-en=${TAKE_EN:-300} zh=${TAKE_ZH:-270} mixed=${TAKE_MIXED:-100}}; do takes="$takes --take $t"; done
for t in ${TAKE_FOR:-}; do takes="$takes --take-for $t"; done
python3 -m onestep_dev.train.voice_corpus $pools $takes --voices "$voices" --draw "${DRAW:-0}" --out .carry/a/voices
if [ -f lab/train_state/multi/meta.json ]; then
  step=$(python3 -c "import json; print(json.load(open('lab/train_state/multi/meta.json'))['step'])")
  if [ "$(tr ' ' , <<< "$known")" = "$voices" ]; then
    mkdir -p ".carry/a/run/checkpoints/step-$(printf %08d "$step")"
    cp lab/train_state/multi/{acoustic.pt,vocoder.pt,discriminator.pt,meta.json} ".carry/a/run/checkpoints/step-$(printf %08d "$step")/"
  else
    python3 -m onestep_dev.train.seed_checkpoint --grow --state lab/train_state/multi --run .carry/a/run \
      --speakers "$voices" --styles .carry/a/styles
  fi
else
  [ -n "${SEED_VOICE:-}" ] || { echo "no lab/train_state/multi: give SEED_VOICE and SEED_STATE" >&2; exit 2; }
  python3 -m onestep_dev.train.seed_checkpoint --voice "$SEED_VOICE" --state "$SEED_STATE" \
    --run .carry/a/run --speakers "$voices"
fi
tree=$(git ls-files -z | xargs -0 du -cb | tail -n 1 | cut -f1)
for d in .carry/a .carry/b; do
  size=$(du -sb "$d" | cut -f1)
  echo "$d: $size bytes; with the tracked tree: $(( (size + tree) / 1048576 )) MiB (limit 64)"
done
