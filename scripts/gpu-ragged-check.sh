#!/usr/bin/env bash
# Ragged GEMM operands (src/plan/contraction/gemm_bounds.h) and partial GETT tile runs on the H100,
# on the library carried in build-carry/ (scripts/lib/make-carry.sh): the GPU tests, compute-sanitizer
# memcheck on the contraction tests (session 19 found cuBLAS reading past a 34-byte f16 operand
# there), the cp.async probe when carried (build-carry/probe/probe_cpasync, built from
# bench/results/contraction-planning-h100/s20/cp_async_probe.cu), and TCCG48 / random contractions
# in f16 and f32 (model plans, every result checked) to see that nothing slowed. SKIP_BENCH=1: no
# benchmarks.
#   run (carry build-carry and the two .deps/libcmocka*.deb): scripts/gpu-ragged-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
source scripts/lib/carried.sh
cuperm_carried_begin "$PWD/gpu-ragged-logs"
cuperm_carried_tests
grep -h "ragged" "$logs/test_ctr_gpu.log"
if [ -x build-carry/probe/probe_cpasync ]; then # ALLOC SRC_BYTES: a 16-byte cp.async of SRC_BYTES
  for a in "6 6" "6 0" "6 16" "32 16"; do
    compute-sanitizer --tool memcheck build-carry/probe/probe_cpasync $a 2>&1 | grep -E "alloc|Invalid|ERROR SUMMARY"
  done | tee "$logs/cp-async-probe.txt"
fi
export CUPERM_GETT_TEST_CASES=${CUPERM_GETT_TEST_CASES:-24}
for t in test_ctr_gpu test_ctr_threads test_gpu_errors test_gett_gpu; do
  timeout 200 compute-sanitizer --tool memcheck "build-carry/bin/$t" >"$logs/memcheck-$t.log" 2>&1
  echo "memcheck $t rc=$? $(grep 'ERROR SUMMARY' "$logs/memcheck-$t.log" | tail -1)"
done
for dt in $([ -n "${SKIP_BENCH:-}" ] || echo f16 f32); do
  cuperm_model_run "tccg48-$dt" tccg48 --dtype $dt
  cuperm_model_run "random-$dt" random-contractions --dtype $dt
done
cuperm_pack_logs
