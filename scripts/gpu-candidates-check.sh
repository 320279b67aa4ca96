#!/usr/bin/env bash
# A transpose kernel or candidate change on one GPU: builds for sm_90, runs every candidate
# launch against a reference (test_gpu_candidates, and compute-sanitizer memcheck on its
# quick case list), the heuristic plans (test_gpu_transpose), FUZZ_TRANSPOSES (20000) random
# transposes in heuristic and measure mode, then times every candidate of JOBS
# (tools/model/collect_candidates.sh; EVERY as there). Run from the repository root on the
# device machine; logs and candidates.tgz go to $OUT (or ./candidates-check).
#   JOBS="permn17:8 primes:8" EVERY=4 scripts/gpu-candidates-check.sh [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-cand}
out=${OUT:-$PWD/candidates-check}
mkdir -p "$out"
source scripts/lib/deps.sh
cuperm_find_cmocka
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_FORTRAN=OFF \
  >"$out/build.log" 2>&1 &&
  cmake --build "$build" -j"$(nproc)" --target cuperm-bench cuperm-candidate-times test_gpu_candidates \
    test_gpu_transpose cuperm-fuzz >>"$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
summary=()
run() { # name, command...: runs it, keeps its log, notes its exit status
  local name=$1; shift
  "$@" >"$out/$name.log" 2>&1
  summary+=("$(printf '%-30s rc=%s  %s' "$name" "$?" "$(grep -E 'PASSED|FAILED|ERROR SUMMARY|^fuzz:' "$out/$name.log" | tail -1)")")
}
bin() { find "$build" -name "$1" -type f -perm -u+x | head -1; }
run test_gpu_candidates "$(bin test_gpu_candidates)"
run test_gpu_transpose "$(bin test_gpu_transpose)"
run memcheck_candidates env CUPERM_TEST_QUICK=1 compute-sanitizer --tool memcheck --error-exitcode 1 "$(bin test_gpu_candidates)"
run fuzz_transposes "$(bin cuperm-fuzz)" --contractions 0 --transposes "${FUZZ_TRANSPOSES:-20000}" --quiet
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
[ -n "${JOBS:-}" ] && OUT="$out" SKIP_BUILD=1 tools/model/collect_candidates.sh "$build" 2>&1 | tee "$out/collect.log"
