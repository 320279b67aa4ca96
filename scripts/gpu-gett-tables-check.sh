#!/usr/bin/env bash
# GETT offset tables from the handle's pool: the GETT and contraction GPU tests (and memcheck on
# the GETT one), then model planning's time on this machine for TCCG48 (f16, f32), each plan on a
# fresh stand-in handle (--full: a handle's first GETT plan makes the pool) and in sequence on
# one handle per pass (--sequence). Binaries built here for sm_90 and carried xz-compressed:
#   tar -cf - build-c15 | xz -9 -T2 > build-xz/c15.tar.xz   (build-c15/{lib,bin}: libcuperm.so.0,
#   test_gett_gpu, test_ctr_gpu, test_ctr_threads, cuperm-ctr-plan-time, cmocka)
#   run (carry build-xz): scripts/gpu-gett-tables-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gett-tables-logs}"
mkdir -p "$logs"
tar -xJf build-xz/c15.tar.xz
export LD_LIBRARY_PATH="$PWD/build-c15/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | tee "$logs/gpu.txt"
lscpu | grep -E "Model name|^CPU\(s\)" | tee -a "$logs/gpu.txt"
for t in test_gett_gpu test_ctr_gpu test_ctr_threads; do
  timeout 200 "build-c15/bin/$t" >"$logs/$t.log" 2>&1
  echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$logs/$t.log" | tail -1)"
done
timeout 240 compute-sanitizer --tool memcheck --leak-check full build-c15/bin/test_gett_gpu >"$logs/memcheck-gett.log" 2>&1
echo "memcheck test_gett_gpu rc=$? $(grep -E 'ERROR SUMMARY' "$logs/memcheck-gett.log" | tail -1)"
for dt in f16 f32; do
  for mode in --full --sequence; do
    build-c15/bin/cuperm-ctr-plan-time bench/cases/tccg48.txt --reps 21 "$mode" --dtype "$dt" \
      >"$logs/plan-time-$dt${mode#-}.csv" 2>"$logs/plan-time-$dt${mode#-}.err"
    echo "plan time $dt $mode: $(tail -3 "$logs/plan-time-$dt${mode#-}.err" | tr '\n' ' ')"
  done
done
