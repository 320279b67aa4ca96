#!/usr/bin/env bash
# One device call for the whole-dims transpose kernel (H100): builds for sm_90, runs the GPU
# tests that run every candidate launch against a reference (test_gpu_candidates,
# test_gpu_transpose) and compute-sanitizer memcheck on the first, then times every
# candidate of the tuning suites (tools/model/collect_candidates.sh, CUPERM_MODEL_EXPLORE=1,
# every 4th permutation) into $OUT/candidates.tgz. Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/gpu-whole-dims-out}; mkdir -p "$out"
export PATH="$PATH:/usr/local/cuda/bin"
source scripts/lib/deps.sh
cuperm_find_cmocka
build=build-gpu
start=$(date +%s)
cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_FORTRAN=OFF >"$out/build.log" 2>&1 &&
  cmake --build $build -j"$(nproc)" --target test_gpu_candidates test_gpu_transpose cuperm-bench cuperm-candidate-times >>"$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
echo "build: $(($(date +%s) - start)) s"
for t in test_gpu_candidates test_gpu_transpose; do
  exe=$(find $build -name "$t" -type f -perm -u+x | head -1)
  timeout 150 "$exe" >"$out/$t.log" 2>&1
  echo "$t: rc=$? $(grep -E 'PASSED|FAILED' "$out/$t.log" | tail -2 | tr '\n' ' ')"
done
exe=$(find $build -name test_gpu_candidates -type f -perm -u+x | head -1)
CUPERM_TEST_QUICK=1 timeout 150 compute-sanitizer --tool memcheck "$exe" >"$out/memcheck.log" 2>&1
echo "memcheck test_gpu_candidates (quick): rc=$? $(grep 'ERROR SUMMARY' "$out/memcheck.log")"
CUPERM_MODEL_EXPLORE=1 SKIP_BUILD=1 EVERY=4 OUT=$out \
  JOBS=${JOBS:-"permn17:8 permn15:8 primes:8 mixed:8 l2:4 ttc57:8 ttc57:4 ttc57:1 perm720:8 permn20:4 random:8 highrank:8 small:8 small:4"} \
  timeout "${COLLECT_S:-300}" tools/model/collect_candidates.sh $build
(cd /tmp/candidates-work && tar czf "$out/candidates.tgz" cases-*.txt times-*.csv gpu.txt)
