#!/usr/bin/env bash
# One device call for the 4-byte vector tile patch (scripts/wip/vec4-tiles.patch): builds this tree
# (main) and a copy with the patch applied, both for sm_90; runs the patched build's transpose GPU
# tests (every candidate launch against a reference), the fuzz test's transposes and memcheck on
# test_gpu_candidates; then the f16 suites the patch changes, on both builds, one after the other
# per suite (cuperm-bench, heuristic plans, every element verified). From the repository root on the
# device machine, carrying the two .deps/libcmocka*.deb:
#   scripts/wip/vec4-check.sh
# Logs and CSVs go to $OUT (or ./vec4-check-logs), also packed into all-logs.tgz.
set -uo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/cuda/bin"
logs="${OUT:-$PWD/vec4-check-logs}"
mkdir -p "$logs"
finish() {
  local tgz
  tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
}
trap finish EXIT
source scripts/lib/deps.sh
cuperm_find_cmocka
patched=/tmp/cuperm-vec4
rm -rf "$patched" && mkdir -p "$patched"
tar cf - --exclude='./build*' --exclude=./.deps-cutensor . | tar xf - -C "$patched"
(cd "$patched" && patch -p1 -s < scripts/wip/vec4-tiles.patch) || { echo "the patch does not apply"; exit 1; }
build() { # tree, build dir
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >>"$logs/build.log" 2>&1 &&
    cmake --build "$2" -j"$(nproc)" >>"$logs/build.log" 2>&1
}
build . build-vec4-main & build "$patched" "$patched/build" & wait
[ -x build-vec4-main/tools/bench/cuperm-bench ] && [ -x "$patched/build/tools/bench/cuperm-bench" ] ||
  { tail -30 "$logs/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
pb="$patched/build"
for t in test_gpu_transpose test_gpu_candidates test_plan_mapping test_tuning; do
  exe=$(find "$pb/tests" -name "$t" -type f | head -1)
  timeout 200 "$exe" >"$logs/$t.log" 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$logs/$t.log" | tail -1)"
done
timeout 120 "$pb/tests/fuzz/cuperm-fuzz" --contractions 0 --transposes 20000 --seed 3 --quiet >"$logs/fuzz.log" 2>&1
echo "fuzz rc=$? $(grep -E '^fuzz:' "$logs/fuzz.log")"
exe=$(find "$pb/tests" -name test_gpu_candidates -type f | head -1)
timeout 200 compute-sanitizer --tool memcheck "$exe" >"$logs/memcheck.log" 2>&1
echo "memcheck rc=$? $(grep 'ERROR SUMMARY' "$logs/memcheck.log" | tail -1)"
for suite in random highrank mixed small; do
  for side in main vec4; do
    b=build-vec4-main; [ $side = vec4 ] && b=$pb
    timeout 150 "$b/tools/bench/cuperm-bench" $suite --dtype f16 --mode heuristic --out "$logs" \
      --tag "$suite-$side" >"$logs/$suite-$side.log" 2>&1
    echo "$suite f16 $side rc=$? $(grep -E '^  all |verification failures' "$logs/$suite-$side.log" | tr -s ' ' | tr '\n' ';')"
  done
done
