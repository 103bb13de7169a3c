#!/usr/bin/env bash
# Remote: bring back (<= 8 files, <= 16 MiB each, <= 64 MiB in all) a tar of logs/meta/samples and, per voice,
# the latest checkpoint's fp16 generator files (COLLECT=gen, default) or discriminator (COLLECT=disc, with the
# vocoder kept as its fine-tune began when the trainer ran with --keep-before-finetune), or the generator's moving
# average (COLLECT=ema, a trainer run with --ema; then a second call with COLLECT=disc for the training state).
set -uo pipefail
nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader
[ -n "${OUT:-}" ] || exit 0
cd /root/os || exit 0
tar czf "$OUT/logs.tgz" --exclude='*.pt' --exclude='*.npz' pipeline.log gen-*.log train-*.log \
  $(ls -d runs/*/train.jsonl runs/*/samples runs/*/checkpoints/step-*/meta.json 2>/dev/null) 2>/dev/null
for v in $(cut -d' ' -f1 /root/os/b/voices.txt 2>/dev/null); do
  ckpt=$(ls -d runs/$v/checkpoints/step-* 2>/dev/null | sort | tail -n 1)
  [ -n "$ckpt" ] || continue
  echo "$v: $ckpt"
  if [ "${COLLECT:-gen}" = disc ]; then cp "$ckpt/discriminator.pt" "$OUT/$v-discriminator.pt"
    # --keep-before-finetune: the vocoder as its fine-tune on predicted mels began (to measure the fine-tune)
    kept=$(ls -d runs/$v/before-finetune/checkpoints/step-* 2>/dev/null | sort | tail -n 1)
    [ -z "$kept" ] || { echo "$v before the fine-tune: $kept"; cp "$kept/vocoder.pt" "$OUT/$v-vocoder-before-finetune.pt"; }
  elif [ "${COLLECT:-gen}" = ema ]; then  # --ema: the moving average's generator (a checkpoint of its own)
    cp "$ckpt/ema/acoustic.pt" "$OUT/$v-ema-acoustic.pt"; cp "$ckpt/ema/vocoder.pt" "$OUT/$v-ema-vocoder.pt"
  else cp "$ckpt/acoustic.pt" "$OUT/$v-acoustic.pt"; cp "$ckpt/vocoder.pt" "$OUT/$v-vocoder.pt"; fi
  cp "$ckpt/meta.json" "$OUT/$v-meta.json"
done
ls -la "$OUT"
