#!/usr/bin/env bash
# Model plans of small contractions after TTGT's price took cuBLAS's host time per call as its
# floor where it competes with GETT (plan/contraction/gett_cost.h, cuperm_ctr_ttgt_issued_seconds):
# random contractions of 4096 and 65536 elements (seeds 2 and 3, f16 and f32), TTGT-only plans
# against default ones in the same call (tools/model/compare_ctr_runs.py on the pairs), every result
# checked; then the host time per cached call (scripts/gpu-host-overhead.sh). Library carried in
# build-carry/ (scripts/lib/make-carry.sh plus bin/cuperm-host-overhead).
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/carried.sh
cuperm_logs_begin "$PWD/small-floor-logs"
for vol in 4096 65536; do
  for seed in 2 3; do
    for dt in f16 f32; do
      for algo in ttgt default; do
        cuperm_model_run_into "v$vol-s$seed-$dt-$algo" random-contractions --volume $vol --count 48 --seed $seed \
          --dtype $dt --algo $algo
      done
      python3 tools/model/compare_ctr_runs.py "$logs/v$vol-s$seed-$dt-ttgt/random-contractions-$dt.csv" \
        "$logs/v$vol-s$seed-$dt-default/random-contractions-$dt.csv" | tail -1
    done
  done
done
mkdir -p "$logs/host-overhead" && OUT="$logs/host-overhead" bash scripts/gpu-host-overhead.sh | grep -E "cupermContract|contraction plan|einsum 8x8x8.*native|ContractionPlan.*native"
tgz=$(mktemp) && tar czf "$tgz" -C "$logs" . && mv "$tgz" "$logs/all-logs.tgz"
