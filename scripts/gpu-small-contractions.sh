#!/usr/bin/env bash
# Small contractions (random-contractions --volume V: the largest tensor V elements) on the H100, on
# the library carried in build-carry/: TTGT and GETT plans of each case side by side (--algo), model
# plans, every result checked; per-case times in $OUT/*.csv, ratio lines printed.
#   run (carry build-carry): scripts/gpu-small-contractions.sh [VOLUMES] [DTYPES] [COUNT] [SEED]
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-small-logs}"
mkdir -p "$logs"
source scripts/lib/carried.sh
for v in ${1:-4096 65536 1048576}; do
  for dt in ${2:-f16 f32}; do
    for algo in ${ALGOS:-ttgt gett default}; do
      cuperm_model_run "small-$v-$dt-$algo" random-contractions --volume "$v" --dtype "$dt" --count "${3:-32}" \
        --seed "${4:-1}" --algo "$algo" --target-ms 20 --tag "small-$v-$dt-$algo"
    done
  done
done
cuperm_pack_logs
