#!/usr/bin/env bash
# Build for sm_90, run every test on the GPU, the sanitizers on a representative
# subset, and a short benchmark; print a summary table last. Run it on the
# device machine from the repository root:
#   scripts/gpu-check.sh [--quick] [--no-sanitizer] [--no-bench] [--bench-args "..."]
# Logs go to $OUT (or ./gpu-check-logs when OUT is unset). The fuzz step runs
# cuperm-fuzz with FUZZ_CONTRACTIONS (10000), FUZZ_TRANSPOSES (50000), FUZZ_SEED (1);
# its memcheck run FUZZ_SAN_CONTRACTIONS (1000), FUZZ_SAN_TRANSPOSES (2000), FUZZ_SAN_SEED (777).
set -uo pipefail
cd "$(dirname "$0")/.."

quick=0 sanitizer=1 bench=1 bench_args="ttc57 --dtype f64 --mode heuristic"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --no-sanitizer) sanitizer=0 ;;
    --no-bench) bench=0 ;;
    --bench-args) bench_args="$2"; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
logs="${OUT:-$PWD/gpu-check-logs}"
mkdir -p "$logs"
build=build-gpu
summary=()
add() { summary+=("$(printf '%-28s %s' "$1" "$2")"); }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$logs/gpu.txt"

# The device machine has no network: cmocka travels as Debian packages in .deps/.
source scripts/lib/deps.sh
cuperm_find_cmocka

start=$(date +%s)
if cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$logs/build.log" 2>&1 &&
   cmake --build "$build" -j"$(nproc)" >>"$logs/build.log" 2>&1; then
  add build "ok ($(( $(date +%s) - start )) s)"
else
  tail -30 "$logs/build.log"; add build FAILED
  printf '%s\n' "${summary[@]}"; exit 1
fi

ctest --test-dir "$build" --output-on-failure -j1 >"$logs/ctest.log" 2>&1
ctest_rc=$?
grep -E "tests passed|tests failed|Test +#|Skipped" "$logs/ctest.log" | tail -40
add "ctest (all tests)" "$(grep -E 'tests passed' "$logs/ctest.log" | tail -1) rc=$ctest_rc"

# Differential fuzz test (tests/fuzz/cuperm-fuzz): regression cases, random contractions and
# transposes against the double-precision reference. Counts and seeds from the environment.
fuzz="$build/tests/fuzz/cuperm-fuzz"
fuzz_ctr=${FUZZ_CONTRACTIONS:-10000} fuzz_tr=${FUZZ_TRANSPOSES:-50000} fuzz_seed=${FUZZ_SEED:-1}
[ "$quick" = 1 ] && fuzz_ctr=${FUZZ_CONTRACTIONS:-1000} fuzz_tr=${FUZZ_TRANSPOSES:-5000}
if [ -x "$fuzz" ]; then
  start=$(date +%s)
  "$fuzz" --contractions "$fuzz_ctr" --transposes "$fuzz_tr" --seed "$fuzz_seed" --quiet >"$logs/fuzz.log" 2>&1
  rc=$?
  grep -E '^(REPRO|  FAILED)' "$logs/fuzz.log" | head -20
  tail -5 "$logs/fuzz.log"
  add "fuzz ($fuzz_ctr ctr, $fuzz_tr tr)" "$(grep -E '^fuzz:' "$logs/fuzz.log" | tail -1) rc=$rc ($(( $(date +%s) - start )) s)"
else
  add fuzz "not built"
fi

if [ "$sanitizer" = 1 ]; then
  cs=compute-sanitizer
  command -v $cs >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
  for tool in memcheck racecheck; do
    # every test of test_gpu_transpose, with fewer and smaller random cases; every
    # candidate launch of the vector tile shapes
    filter="*"
    [ "$quick" = 1 ] && filter="edge_shapes"
    export CUPERM_TEST_QUICK=1
    for t in test_gpu_transpose test_gpu_errors test_gpu_candidates; do
      f="$filter"; [ $t = test_gpu_errors ] && f="*"
      [ $t = test_gpu_candidates ] && f="vector_tile_shapes"
      log="$logs/sanitizer-$tool-$t.tmp"
      CUPERM_TEST_FILTER="$f" $cs --tool $tool --error-exitcode 99 "$build/tests/$t" >"$log" 2>&1
      rc=$?
      add "sanitizer $tool $t" "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1) rc=$rc"
      { echo "### $tool $t (filter $f) rc=$rc"; cat "$log"; } >>"$logs/sanitizer.log"
      rm -f "$log"
    done
  done
  unset CUPERM_TEST_QUICK
  # The fuzz test under memcheck, on a subset with another seed.
  if [ -x "$fuzz" ]; then
    san_ctr=${FUZZ_SAN_CONTRACTIONS:-1000} san_tr=${FUZZ_SAN_TRANSPOSES:-2000}
    [ "$quick" = 1 ] && san_ctr=${FUZZ_SAN_CONTRACTIONS:-200} san_tr=${FUZZ_SAN_TRANSPOSES:-500}
    log="$logs/sanitizer-memcheck-fuzz.log"
    $cs --tool memcheck --error-exitcode 99 "$fuzz" --contractions "$san_ctr" --transposes "$san_tr" \
      --seed "${FUZZ_SAN_SEED:-777}" --quiet >"$log" 2>&1
    rc=$?
    add "sanitizer memcheck fuzz" "$(grep -E 'ERROR SUMMARY' "$log" | tail -1); $(grep -E '^fuzz:' "$log" | tail -1) rc=$rc"
  fi
fi

if [ "$bench" = 1 ] && [ -x "$build/tools/bench/cuperm-bench" ]; then
  "$build/tools/bench/cuperm-bench" $bench_args --out "$logs" >"$logs/bench.log" 2>&1
  add "bench ($bench_args)" "rc=$? $(grep -iE 'median' "$logs/bench.log" | tail -1)"
  tail -25 "$logs/bench.log"
fi

echo
echo "==== gpu-check summary ($(head -1 "$logs/gpu.txt")) ===="
printf '%s\n' "${summary[@]}"
