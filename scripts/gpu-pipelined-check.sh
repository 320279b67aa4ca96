#!/usr/bin/env bash
# The pipelined tile kernel's rule end to end, on a library built elsewhere for sm_90 and carried:
#   build-dt/libcuperm.so.0.xz (stripped, xz), build-dt/cuperm-bench, build-dt/test_gpu_transpose,
#   build-dt/test_gpu_errors, build-dt/libcmocka.so.0
# test_gpu_transpose and test_gpu_errors, memcheck on test_gpu_transpose, then cuperm-bench's
# heuristic plans (every element verified) on the L2-sized suites the rule changes and on TTC-57 f64
# (plans it leaves alone). Results to $OUT (or ./gpu-pipelined-logs).
#   run (carry build-dt): scripts/gpu-pipelined-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/gpu-pipelined-logs}; mkdir -p "$out"
lib=/tmp/pipelined-lib; mkdir -p "$lib"
xz -dc build-dt/libcuperm.so.0.xz >"$lib/libcuperm.so.0" || { echo "no build-dt/libcuperm.so.0.xz"; exit 1; }
cp build-dt/libcmocka.so.0 "$lib/"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
for t in test_gpu_transpose test_gpu_errors; do
  timeout 200 build-dt/$t >"$out/$t.log" 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$out/$t.log" | tail -1)"
done
CUPERM_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck build-dt/test_gpu_transpose >"$out/memcheck-transpose.log" 2>&1
echo "memcheck test_gpu_transpose rc=$? $(grep 'ERROR SUMMARY' "$out/memcheck-transpose.log" | tail -1)"
for job in small:f64 small:c64 l2:f64 l2-heldout:f64 l2-heldout:c64 l2:f32 ttc57:f64; do
  IFS=: read -r suite dtype <<<"$job"
  timeout 150 build-dt/cuperm-bench "$suite" --dtype "$dtype" --mode heuristic --quiet --out "$out" \
    --tag "$suite-$dtype" >/dev/null 2>"$out/err-$suite-$dtype.log"
  echo "$suite $dtype rc=$?: $(grep -E '^  all|plans' "$out/$suite-$dtype-summary.txt" | tr -s ' ' | tr '\n' ' ')"
done
(cd "$out" && tar czf bench.tgz ./*.csv ./*-summary.txt ./err-*.log && rm -f ./*.csv ./*-summary.txt ./err-*.log)
