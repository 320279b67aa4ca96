#!/usr/bin/env bash
# test_gpu_candidates (every candidate launch of random problems against a reference) on a build made
# elsewhere for sm_90, carried xz-compressed (it links the library statically: 32 MB) with its cmocka:
#   build-gc/test_gpu_candidates.xz, build-gc/libcmocka.so.0
# then the same under compute-sanitizer memcheck. Logs to $OUT (or ./gpu-candidates-logs).
#   run (carry build-gc): [MEMCHECK_QUICK=1] [RACECHECK_FILTER=TEST] scripts/gpu-candidates-carried.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD/build-gc${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
logs=${OUT:-$PWD/gpu-candidates-logs}; mkdir -p "$logs"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
exe=/tmp/test_gpu_candidates
xz -dc build-gc/test_gpu_candidates.xz >"$exe" && chmod +x "$exe" || { echo "no build-gc/test_gpu_candidates.xz"; exit 1; }
timeout 280 "$exe" >"$logs/test_gpu_candidates.log" 2>&1
echo "test_gpu_candidates rc=$? $(grep -E 'PASSED|FAILED' "$logs/test_gpu_candidates.log" | tail -1)"
env ${MEMCHECK_QUICK:+CUPERM_TEST_QUICK=1} timeout 280 compute-sanitizer --tool memcheck "$exe" >"$logs/memcheck-candidates.log" 2>&1
echo "memcheck test_gpu_candidates rc=$? $(grep 'ERROR SUMMARY' "$logs/memcheck-candidates.log" | tail -1)"
# racecheck (shared-memory hazards) on the tests named by RACECHECK_FILTER (cmocka's filter), quick sizes
if [ -n "${RACECHECK_FILTER:-}" ]; then
  CUPERM_TEST_FILTER="$RACECHECK_FILTER" CUPERM_TEST_QUICK=1 timeout 280 compute-sanitizer --tool racecheck \
    "$exe" >"$logs/racecheck-candidates.log" 2>&1
  echo "racecheck ($RACECHECK_FILTER) rc=$? $(grep 'RACECHECK SUMMARY\|ERROR SUMMARY' "$logs/racecheck-candidates.log" | tail -1)"
fi
