#!/usr/bin/env bash
# GPU checks on a build made elsewhere (for sm_90) and carried in build-carry/: lib/libcuperm.so.0
# and the test programs that link it in bin/ (the statically linked ones, test_gpu_candidates and
# cuperm-fuzz, are too large for the device tool's 64 MiB carry). Runs the GPU tests it finds there,
# memcheck on the error paths and the Python tests against that library. Logs to $OUT (or
# ./gpu-carried-logs), packed into all-logs.tgz.
#   run (carry build-carry and the two .deps/libcmocka*.deb): scripts/gpu-carried-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
source scripts/lib/carried.sh
cuperm_carried_begin "$PWD/gpu-carried-logs"
for exe in build-carry/bin/test_*; do
  t=$(basename "$exe")
  timeout 240 "$exe" >"$logs/$t.log" 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$logs/$t.log" | tail -1)"
done
timeout 120 compute-sanitizer --tool memcheck build-carry/bin/test_gpu_errors >"$logs/memcheck-errors.log" 2>&1
echo "memcheck test_gpu_errors rc=$? $(grep 'ERROR SUMMARY' "$logs/memcheck-errors.log" | tail -1)"
CUPERM_LIBRARY="$PWD/build-carry/lib/libcuperm.so" timeout 200 python3 -m pytest -q -p no:cacheprovider python/tests \
  >"$logs/pytest.log" 2>&1
echo "pytest rc=$? $(tail -1 "$logs/pytest.log")"
if [ -x build-carry/bin/test_gett_gpu ]; then # the GETT kernels (24 random cases beside the fixed shapes)
  for tool in memcheck racecheck; do
    CUPERM_GETT_TEST_CASES=24 timeout 150 compute-sanitizer --tool $tool build-carry/bin/test_gett_gpu \
      >"$logs/$tool-gett.log" 2>&1
    echo "$tool test_gett_gpu rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/$tool-gett.log" | tail -1)"
  done
fi
tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
