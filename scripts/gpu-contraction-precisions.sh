#!/usr/bin/env bash
# TCCG48 (and random-contractions) in every precision the GETT issue names, on a library built
# elsewhere for sm_90 and carried in build-carry/ (lib/libcuperm.so.0, bin/cuperm-bench): model
# plans against the same-shape cuBLAS GEMM, plan_ms per case. With build-carry/lib/plan_shim.so
# (bench/results/contraction-planning-h100/s17/plan_shim.c) one more f32 run splits the planning
# time. Logs and CSVs to $OUT, packed into all-logs.tgz.
#   run (carry build-carry): scripts/gpu-contraction-precisions.sh [RANDOM_COUNT]
#   SHIM_ONLY=1 scripts/gpu-contraction-precisions.sh: the planning-time split only
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-precisions-logs}"
mkdir -p "$logs"
source scripts/lib/carried.sh
count=${1:-12}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$logs/gpu.txt"
if [ "${SHIM_ONLY:-0}" != 1 ]; then
cuperm_model_run tccg48-f64 tccg48 --dtype f64
cuperm_model_run tccg48-bf16 tccg48 --dtype bf16
cuperm_model_run tccg48-tf32 tccg48 --dtype f32 --compute tf32
cuperm_model_run tccg48-f32 tccg48 --dtype f32
cuperm_model_run tccg48-f16 tccg48 --dtype f16
if [ "$count" != 0 ]; then
  cuperm_model_run random-f64-bf16 random-contractions --dtype f64,bf16 --count "$count"
  cuperm_model_run random-tf32 random-contractions --dtype f32 --compute tf32 --count "$count"
fi
fi
cuperm_plan_shim_run
cuperm_plan_us_summary "$logs/*.csv"
cuperm_pack_logs
