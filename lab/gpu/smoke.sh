#!/usr/bin/env bash
# Remote, first call of a lease: the training loop (full model, synthetic data) and the CUDA engine on the GPU.
set -uo pipefail
export PYTHONPATH=$(pwd)/src:$(pwd)/dev/src:$(pwd)/tests/train PYTHONUNBUFFERED=1
python3 -c "import torch; print(torch.__version__, torch.cuda.get_device_name(0))"
python3 -c "from pathlib import Path; from conftest import write_dataset; write_dataset(Path('/tmp/syn'), 64)"
timeout 240 python3 -m onestep_dev.train.trainer --data /tmp/syn --out /tmp/smoke --device cuda --steps ${SMOKE_STEPS:-60} \
  --segment-frames 32 --log-every 10 2>&1 | tail -n 25
