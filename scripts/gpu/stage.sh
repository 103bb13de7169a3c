#!/usr/bin/env bash
# Remote: copy whatever carry folder came with this call to /root/os (outlives the call while the machine is warm).
set -euo pipefail
mkdir -p /root/os
for d in .carry/a .carry/b; do [ -d "$d" ] && cp -r "$d" /root/os/ && echo "staged $d"; done
ls -la /root/os /root/os/* | head -40
