#!/usr/bin/env bash
# Large tracked files (shipped voices ~19 MB, train_state ~32 MB) exceed the device tool's 64 MiB working-tree
# limit. Before a lease:
#   lab/gpu/voices_offtree.sh off   # untrack them in the index only (files stay on disk), ignore them locally
#   lab/gpu/voices_offtree.sh off --frontend   # also the Mandarin polyphone data (~2.5 MB): a training lease
#                                   # carries the 60 MB teacher beside the tree and needs no frontend there
# after the lease (before committing anything):
#   lab/gpu/voices_offtree.sh on    # restore the index and the ignore file
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
patterns=('/src/onestep/voices/*/*.onnx' '/lab/train_state/')
paths=('src/onestep/voices/*/*.onnx' lab/train_state)
if [ "${2:-}" = --frontend ] || [ "${1:-}" = on ]; then  # `on` restores whatever `off` took
  patterns+=('/src/onestep/frontend/zh/data/polyphone.onnx' '/src/onestep/frontend/zh/data/polyphone_context.marisa')
  paths+=(src/onestep/frontend/zh/data/polyphone.onnx src/onestep/frontend/zh/data/polyphone_context.marisa)
fi
case "${1:-}" in
  off) git rm -r -q --cached --ignore-unmatch -- "${paths[@]}"
       for p in "${patterns[@]}"; do grep -qxF "$p" .git/info/exclude || echo "$p" >> .git/info/exclude; done
       git ls-files -z | xargs -0 du -cb | tail -n 1 ;;
  on)  for p in "${patterns[@]}"; do grep -vxF "$p" .git/info/exclude > .git/info/exclude.new || true
         mv .git/info/exclude.new .git/info/exclude; done
       git reset -q -- src/onestep/voices lab/train_state src/onestep/frontend/zh/data
       git status --short src/onestep/voices lab/train_state src/onestep/frontend/zh/data ;;
  *) echo "usage: $0 off [--frontend] | on" >&2; exit 2 ;;
esac
