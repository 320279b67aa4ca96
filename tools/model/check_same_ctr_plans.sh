#!/bin/bash
# Byte-compares two trees' contraction model planners on the CPU: every layout the search picks
# and its exact predicted prices (cuperm-ctr-plan-time --describe), for TCCG48 and three seeds of
# 1,500 random contractions, in every element type, without and with operators on the operands
# (--ops): 54,576 plans. For changes to the search that must not move a plan.
#
#   tools/model/check_same_ctr_plans.sh BEFORE/cuperm-ctr-plan-time AFTER/cuperm-ctr-plan-time [WORKDIR]
#
# Exit status 0 when every output is byte-identical. Run from anywhere: cases come from this tree.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,9p' "$0" >&2
  exit 2
fi
before=$1 after=$2 work=${3:-$(mktemp -d)}
tccg="$(cd "$(dirname "$0")/../.." && pwd)/bench/cases/tccg48.txt"
mkdir -p "$work/before" "$work/after"
for dt in f16 bf16 f32 f64 c32 c64; do
  for ops in "" --ops; do
    for set in "$tccg" random:1:1500 random:2:1500 random:3:1500; do
      name=$(basename "${set//:/-}" .txt)-$dt$ops
      "$before" "$set" --describe --dtype $dt $ops >"$work/before/$name.txt"
      "$after" "$set" --describe --dtype $dt $ops >"$work/after/$name.txt"
    done
  done
done
echo "$(ls "$work/after" | wc -l) case sets, $(cat "$work"/after/* | wc -l) plans (files in $work)"
diff -rq "$work/before" "$work/after" && echo "0 outputs differ"
