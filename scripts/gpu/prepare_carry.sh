#!/usr/bin/env bash
# Local: build .carry/ for a voice-training lease (one call, < 64 MiB with the working tree; docs/GPU_RUNS.md):
#   teacher.onnx.xz (the assembled int8 Kokoro ONNX, xz: 60.4 MB; the 4 PyPI wheels are 63.1 MB),
#   the kokoro wheel (PyTorch modules), the two voices' style tables, phonemized training text (gzip).
# Usage: scripts/gpu/prepare_carry.sh EN_STYLE ZH_STYLE   (e.g. af_heart zf_xiaoxiao)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
en=${1:-af_heart}; zh=${2:-zf_xiaoxiao}
dl=${ONESTEP_DL:-/work/dl}
mkdir -p .carry/styles
[ -f .carry/teacher.onnx.xz ] || xz -T2 -6 -c "$dl/kokoro.onnx" > .carry/teacher.onnx.xz
cp "$dl"/pk/kokoro-0.9.4-*.whl .carry/
rm -f .carry/styles/*
python3 - "$en" "$zh" <<'PY'
import sys, numpy as np
from onestep.train.teacher_data import load_style_table
for v in sys.argv[1:]:
    np.save(f".carry/styles/{v}.npy", load_style_table(f"../shared/voices/kokoro/{v}.pt"))
PY
for lang in en zh; do gzip -9 -c "data/phonemes_$lang.jsonl" > ".carry/phonemes_$lang.jsonl.gz"; done
echo "$en $zh" > .carry/voices.txt
du -sb .carry; git ls-files -z | xargs -0 du -cb | tail -1
