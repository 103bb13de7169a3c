#!/usr/bin/env bash
# Remote, call 1 (carry .carry/b): stage the teacher bundle in /root/os (outlives the call while the machine is
# warm), unpack + verify the teacher, launch the pipeline in its own session. Call 2 (stage.sh) brings the seeds.
# PIPELINE: pipeline.sh (one model per voice, default) or pipeline_multi.sh (one multi-speaker model).
set -euo pipefail
repo=$(pwd)
mkdir -p /root/os/b && cp -r .carry/b/. /root/os/b/
cd /root/os
[ -f kokoro.onnx ] || xz -d -T8 -c b/teacher.onnx.xz > kokoro.onnx
echo "6e742170d309016e5891a994e1ce1559c702a2ccd0075e67ef7157974f6406cb  kokoro.onnx" | sha256sum -c -
for f in b/phonemes_*.jsonl.gz; do [ -e "$f" ] && gunzip -c "$f" > "${f%.gz}"; done
python3 -m pip install -q --no-index --no-deps --no-compile --target /root/os/site b/kokoro-0.9.4-*.whl
rm -rf /root/os/repo && cp -r "$repo" /root/os/repo && rm -rf /root/os/repo/.carry
setsid nohup bash /root/os/repo/lab/gpu/${PIPELINE:-pipeline.sh} > /root/os/pipeline.log 2>&1 < /dev/null &
echo "pipeline started"
