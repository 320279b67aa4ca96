#!/usr/bin/env bash
# A transpose change against its base in ONE device call: builds this tree and a copy with
# BASE_SED applied to BASE_FILE (the base: e.g. a tuning flag turned off), both for sm_90 and
# in parallel; runs this tree's transpose GPU tests (test_gpu_candidates runs every candidate
# launch against a reference; test_gpu_large, ~3 minutes, only with AB_LARGE=1) and the fuzz
# test; then each suite of SUITES ("suite:dtype ...") on the base and on this tree, one after the
# other (cuperm-bench, heuristic plans, every element verified), printing the medians; then
# memcheck and racecheck (RACECHECK_S seconds at most) on test_gpu_candidates' vector shapes, in its
# quick mode (fewer random problems) so that racecheck ends within its time.
# The measurements come before the sanitizers so that a call that runs out of time loses the
# sanitizers, not the suites. SANITIZE_FILTER picks other test_gpu_candidates tests for both
# sanitizers (a cmocka glob).
# From the repository root on the device machine, carrying the two .deps/libcmocka*.deb:
#   BASE_FILE=src/core/tuning.c BASE_SED='s/.tiled_shifted_max_elem = 1,/.tiled_shifted_max_elem = 0,/' \
#     scripts/gpu-transpose-ab.sh
# or, for a change over several files, BASE_PATCH=FILE (a `git diff` of the change, taken back
# with patch -R to make the base). With VARIANT_FILE and VARIANT_SED, a third build (variant):
# this tree with that sed applied to that file, run after the other two on every suite.
# BENCH_ARGS are passed to every cuperm-bench run (e.g. "--alpha 2 --beta 1").
# On a fresh H100 machine the two builds and the tests took 7-8 minutes (session 16), leaving no
# suite within a BUDGET_S of 440; the suites then run in the next call, while the machine is warm:
#   logs=$OUT; source scripts/lib/ab.sh; ab_bench_pair /tmp/cuperm-ab-base/build base build-ab this SUITE DTYPE heuristic
# Logs and CSVs go to $OUT (or ./gpu-transpose-ab-logs), also packed into all-logs.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
if [ -z "${BASE_PATCH:-}" ]; then
  : "${BASE_FILE:?which file the base changes (or BASE_PATCH)}" "${BASE_SED:?the sed expression that makes the base}"
fi
suites=${SUITES:-"random:f16 highrank:f16 mixed:f16 small:f16 primes:f16 random:i8"}
logs="${OUT:-$PWD/gpu-transpose-ab-logs}"
source scripts/lib/ab.sh
base=/tmp/cuperm-ab-base
ab_start "$base"
if [ -n "${BASE_PATCH:-}" ]; then # the base: this tree with the patch taken back
  cp "$BASE_PATCH" "$logs/base.diff"
  patch -s -R -p1 -d "$base" <"$BASE_PATCH" || { echo "BASE_PATCH does not reverse onto this tree"; exit 1; }
else
  cp "$base/$BASE_FILE" "$logs/base-file.orig"
  sed -i "$BASE_SED" "$base/$BASE_FILE"
  if cmp -s "$logs/base-file.orig" "$base/$BASE_FILE"; then echo "BASE_SED changed nothing in $BASE_FILE"; exit 1; fi
  diff "$logs/base-file.orig" "$base/$BASE_FILE" >"$logs/base.diff"
fi
if [ -n "${VARIANT_FILE:-}" ]; then # built beside the pair, cuperm-bench only
  variant=/tmp/cuperm-ab-variant
  ab_copy_tree "$variant"
  sed -i "${VARIANT_SED:?the sed expression that makes the variant}" "$variant/$VARIANT_FILE"
  if cmp -s "$VARIANT_FILE" "$variant/$VARIANT_FILE"; then echo "VARIANT_SED changed nothing in $VARIANT_FILE"; exit 1; fi
  diff "$VARIANT_FILE" "$variant/$VARIANT_FILE" >"$logs/variant.diff"
  ab_build_one "$variant" "$variant/build" 1 &
fi
AB_SECOND_BENCH_ONLY=1 ab_build_pair . build-ab "$base" "$base/build" || exit 1
wait
if [ -n "${VARIANT_FILE:-}" ]; then
  [ -x "$variant/build/tools/bench/cuperm-bench" ] || { tail -30 "$logs/build.log"; exit 1; }
  export AB_THIRD="$variant/build variant"
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
tests="test_gpu_transpose test_gpu_candidates test_plan_mapping test_index_math"
[ "${AB_LARGE:-0}" = 1 ] && tests="$tests test_gpu_large"
for t in $tests; do
  exe=$(find build-ab/tests -name "$t" -type f | head -1)
  timeout 200 "$exe" >"$logs/$t.log" 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$logs/$t.log" | tail -1)"
done
timeout 120 build-ab/tests/fuzz/cuperm-fuzz --contractions 300 --transposes 20000 --seed 7 --quiet >"$logs/fuzz.log" 2>&1
echo "fuzz rc=$? $(grep -E '^fuzz:' "$logs/fuzz.log")"
exe=$(find build-ab/tests -name test_gpu_candidates -type f | head -1)
for sd in $suites; do # suites that would start after BUDGET_S seconds are left out, and said so
  if [ "$SECONDS" -gt "${BUDGET_S:-100000}" ]; then echo "$sd: left out (BUDGET_S)"; continue; fi
  ab_bench_pair "$base/build" base build-ab this "${sd%%:*}" "${sd##*:}" heuristic ${BENCH_ARGS:-}
  tar czf "$logs/suites-so-far.tgz" -C "$logs" --exclude='*.tgz' .
done
CUPERM_TEST_QUICK=1 CUPERM_TEST_FILTER=${SANITIZE_FILTER:-vector_tile_shapes} timeout 150 compute-sanitizer --tool memcheck "$exe" >"$logs/memcheck.log" 2>&1
echo "memcheck rc=$? $(grep 'ERROR SUMMARY' "$logs/memcheck.log" | tail -1)"
CUPERM_TEST_QUICK=1 CUPERM_TEST_FILTER=${SANITIZE_FILTER:-vector_tile_shapes} timeout ${RACECHECK_S:-100} compute-sanitizer --tool racecheck "$exe" >"$logs/racecheck.log" 2>&1
echo "racecheck rc=$? $(grep 'RACECHECK SUMMARY' "$logs/racecheck.log" | tail -1)"
