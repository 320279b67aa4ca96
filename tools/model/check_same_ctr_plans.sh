#!/bin/bash
# Byte-compares two trees' contraction model planners on the CPU: the layout the search picks and
# the 8 best it ranks for measure mode, with their exact predicted prices (cuperm-ctr-plan-time
# --describe [--rank 8]), for TCCG48 and three seeds of 1,500 random contractions, in every element
# type, without and with operators on the operands (--ops): 54,576 chosen and 436,608 ranked
# layouts. For changes to the search that must not move a plan. Both tools need --rank (build the
# "before" tool from this tree's tools/model/ctr_plan_time.c against the older library if needed).
#
#   tools/model/check_same_ctr_plans.sh BEFORE/cuperm-ctr-plan-time AFTER/cuperm-ctr-plan-time [WORKDIR]
#
# Exit status 0 when every output is byte-identical. Run from anywhere: cases come from this tree.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n "2,11p" "$0" >&2
  exit 2
fi
before=$1 after=$2 work=${3:-$(mktemp -d)}
tccg="$(cd "$(dirname "$0")/../.." && pwd)/bench/cases/tccg48.txt"
mkdir -p "$work/before" "$work/after"
for dt in f16 bf16 f32 f64 c32 c64; do
  for ops in "" --ops; do
    for set in "$tccg" random:1:1500 random:2:1500 random:3:1500; do
      for rank in 1 8; do
        name=$(basename "${set//:/-}" .txt)-$dt$ops-rank$rank
        "$before" "$set" --describe --rank $rank --dtype $dt $ops >"$work/before/$name.txt"
        "$after" "$set" --describe --rank $rank --dtype $dt $ops >"$work/after/$name.txt"
      done
    done
  done
done
echo "$(ls "$work/after" | wc -l) outputs, $(cat "$work"/after/*rank1.txt | wc -l) chosen and $(cat "$work"/after/*rank8.txt | wc -l) ranked layouts (files in $work)"
diff -rq "$work/before" "$work/after" && echo "0 outputs differ"
