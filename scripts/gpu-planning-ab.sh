#!/usr/bin/env bash
# Contraction plan time with cuBLASLt's heuristic at planning (CUPERM_LT_AFTER_RUNS=0, the choice
# before session 19) and without it (the default), alternated in one call on the library carried
# in build-carry/: TCCG48 f32 and f16 and random contractions, model plans, every result checked
# between plans (the caches as cold as a program's own work leaves them). CSVs to $OUT/{lt0,default}-N.
#   run (carry build-carry): scripts/gpu-planning-ab.sh [ROUNDS]
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-planning-ab-logs}"
mkdir -p "$logs"
source scripts/lib/carried.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
for round in $(seq 1 "${1:-2}"); do
  for variant in lt0 default; do
    dir="$logs/$variant-$round"
    mkdir -p "$dir"
    for args in "tccg48 --dtype f32" "tccg48 --dtype f16" "random-contractions --dtype f32 --count 12"; do
      if [ $variant = lt0 ]; then export CUPERM_LT_AFTER_RUNS=0; else unset CUPERM_LT_AFTER_RUNS; fi
      # shellcheck disable=SC2086
      timeout 120 "$bench" $args --mode model --quiet --target-ms 5 --out "$dir" >>"$dir/bench.log" 2>&1 ||
        echo "$variant-$round $args: rc=$?"
    done
  done
done
unset CUPERM_LT_AFTER_RUNS
cuperm_plan_us_summary "$logs/*-*/*.csv"
cuperm_pack_logs
