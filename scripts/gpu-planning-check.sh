#!/usr/bin/env bash
# Contraction planning on the H100, on a library built elsewhere for sm_90 and carried in
# build-carry/ (lib/libcuperm.so.0, bin/cuperm-bench, the GPU tests it finds in bin/, and
# lib/plan_shim.so from bench/results/contraction-planning-h100/s17/plan_shim.c): the GPU tests,
# then TCCG48 (f32, f16) and random contractions with model plans, their plan_ms per case, and one
# f32 run under the shim (where planning's host time goes: cuperm's own work and cuBLASLt's
# heuristic). Logs and CSVs to $OUT, packed into all-logs.tgz.
#   run (carry build-carry and the two .deps/libcmocka*.deb): scripts/gpu-planning-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/carried.sh
cuperm_carried_begin "$PWD/gpu-planning-logs"
[ "${TESTS:-1}" = 1 ] && cuperm_carried_tests
cuperm_model_run tccg48-f32 tccg48 --dtype f32
cuperm_model_run tccg48-f16 tccg48 --dtype f16
cuperm_model_run random-f32 random-contractions --dtype f32 --count 12
cuperm_plan_shim_run
cuperm_plan_us_summary "$logs/*.csv"
cuperm_pack_logs
