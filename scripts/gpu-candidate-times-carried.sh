#!/usr/bin/env bash
# Every candidate launch of the cases in FILE... timed on one GPU (cuperm-candidate-times, built here
# for sm_90 and carried xz-compressed: build-ct/cuperm-candidate-times.xz, which links the library
# statically). FILE lines are "ELEM_BYTES EXTENTS PERM" (cuperm-plan-features' input). Output:
# $OUT/NAME.csv per FILE (case,candidate,seconds,copy_seconds,same,pipelined), and its stderr.
#   run (carry build-ct): OUT=... [TARGET_MS=15] scripts/gpu-candidate-times-carried.sh FILE...
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/candidate-times}; mkdir -p "$out"
exe=/tmp/cuperm-candidate-times
xz -dc build-ct/cuperm-candidate-times.xz >$exe && chmod +x $exe || { echo "no build-ct/cuperm-candidate-times.xz"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
for f in "$@"; do
  n=$(basename "$f" .txt) s=$(date +%s)
  $exe ${TARGET_MS:-15} <"$f" >"$out/$n.csv" 2>"$out/$n.err"
  echo "$n rc=$? $(( $(date +%s) - s )) s, $(($(wc -l <"$out/$n.csv") - 1)) candidates, same=0: $(awk -F, '$5 == 0' "$out/$n.csv" | wc -l)"
done
