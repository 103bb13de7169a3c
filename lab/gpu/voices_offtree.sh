#!/usr/bin/env bash
# Large tracked files (shipped voices ~106 MB, train_state ~12 MB) exceed the device tool's 64 MiB working-tree
# limit. Before a lease:
#   lab/gpu/voices_offtree.sh off   # untrack them in the index only (files stay on disk), ignore them locally
# after the lease (before committing anything):
#   lab/gpu/voices_offtree.sh on    # restore the index and the ignore file
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
patterns=('/src/onestep/voices/*/*.onnx' '/lab/train_state/')
case "${1:-}" in
  off) git rm -r -q --cached --ignore-unmatch -- 'src/onestep/voices/*/*.onnx' lab/train_state
       for p in "${patterns[@]}"; do grep -qxF "$p" .git/info/exclude || echo "$p" >> .git/info/exclude; done
       git ls-files -z | xargs -0 du -cb | tail -n 1 ;;
  on)  for p in "${patterns[@]}"; do grep -vxF "$p" .git/info/exclude > .git/info/exclude.new || true
         mv .git/info/exclude.new .git/info/exclude; done
       git reset -q -- src/onestep/voices lab/train_state
       git status --short src/onestep/voices lab/train_state ;;
  *) echo "usage: $0 off|on" >&2; exit 2 ;;
esac
