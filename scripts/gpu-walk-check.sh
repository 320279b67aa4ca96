#!/usr/bin/env bash
# A transpose planning change on one GPU, from binaries built here for sm_90 and carried in
# build-wk/ (scripts/lib/make-carry.sh: cuperm_make_walk_carry): every candidate of CANDIDATES (where
# set; build-wk may then leave cuperm-candidate-times out)
# ("ELEM EXTENTS PERM" lines) timed; cuperm-bench in heuristic and measure mode on each BENCH entry
# ("DTYPE:FILE", FILE of "EXTENTS PERM" lines) and, with DIAG=1, on the held-out suites
# (primes-heldout and mixed-heldout f64 --count 5, every 24th permn-heldout permutation f64,
# l2-heldout f32); every element verified; then test_gpu_transpose and, where carried, test_gpu_candidates
# (MEMCHECK=1: also under compute-sanitizer memcheck, quick sizes; RACECHECK=1 racecheck, quick sizes, the tests
# RACECHECK_FILTER names, RACECHECK_S seconds at most). Everything lands in
# $OUT/walk-check.tgz (the device tool returns 8 files a call), the summaries in $OUT/summary.txt.
# MODE: cuperm-bench's --mode (both). test_gpu_candidates is carried xz-compressed (it links the library
# statically): xz -c TEST > build-wk/test_gpu_candidates.xz.
#   run (carry build-wk): OUT=... CANDIDATES=FILE BENCH="f64:a.txt f32:b.txt" DIAG=1 scripts/gpu-walk-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/walk-check} w=/tmp/walk-check
rm -rf $w; mkdir -p $w/lib $w/res "$out"
xz -dc build-wk/libcuperm.so.0.xz >$w/lib/libcuperm.so.0 && cp build-wk/libcmocka.so.0 $w/lib/ || { echo "no build-wk"; exit 1; }
[ -z "${CANDIDATES:-}" ] || { xz -dc build-wk/cuperm-candidate-times.xz >$w/ct && chmod +x $w/ct; } || { echo "no candidate times"; exit 1; }
export LD_LIBRARY_PATH="$w/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
r=$w/res bench=$PWD/build-wk/cuperm-bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $r/gpu.txt
if [ -n "${CANDIDATES:-}" ]; then
  s=$(date +%s)
  $w/ct ${TARGET_MS:-15} <"$CANDIDATES" >$r/candidates.csv 2>$r/candidates.err
  echo "candidate times rc=$? $(( $(date +%s) - s )) s, cases $(cut -d, -f1 $r/candidates.csv | sort -u | wc -l), same=0: $(awk -F, '$5 == 0' $r/candidates.csv | wc -l)"
fi
run() { local tag=$1 s; shift; s=$(date +%s)
  "$bench" "$@" --mode "${MODE:-both}" --out $r --tag $tag >$r/$tag.log 2>&1; echo "$tag rc=$? $(( $(date +%s) - s )) s"
  grep -E "^  all|heuristic/measured|failures" $r/$tag-summary.txt 2>/dev/null; }
for b in ${BENCH:-}; do f=${b#*:}; run "bench-${b%%:*}-$(basename "$f" .txt)" --cases "$f" --dtype "${b%%:*}"; done
if [ "${DIAG:-0}" = 1 ]; then
  "$bench" permn-heldout --list | grep -v '^#' | awk '(NR - 1) % 24 == 0' >$r/permn-heldout-cases.txt
  run primes-heldout primes-heldout --count 5
  run mixed-heldout mixed-heldout --count 5
  run permn-heldout --cases $r/permn-heldout-cases.txt --dtype f64
  run l2-heldout l2-heldout
fi
[ -f build-wk/test_gpu_candidates.xz ] && xz -dc build-wk/test_gpu_candidates.xz >$w/test_gpu_candidates &&
  chmod +x $w/test_gpu_candidates
for t in build-wk/test_gpu_transpose $w/test_gpu_candidates; do # the second where carried (xz)
  [ -x "$t" ] || continue
  timeout 200 "$t" >$r/${t##*/}.log 2>&1
  echo "${t##*/} rc=$? $(grep -E 'PASSED|FAILED' $r/${t##*/}.log | tail -1)"
done
if [ -n "${MEMCHECK:-}" ] && [ -x $w/test_gpu_candidates ]; then # quick sizes, as session 35 ran it
  CUPERM_TEST_QUICK=1 timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $w/test_gpu_candidates \
    >$r/memcheck-candidates.log 2>&1
  echo "memcheck test_gpu_candidates rc=$? $(grep -E 'ERROR SUMMARY' $r/memcheck-candidates.log | tail -1)"
fi
if [ -n "${RACECHECK:-}" ] && [ -x $w/test_gpu_candidates ]; then # quick sizes; RACECHECK_FILTER: cmocka's test filter
  CUPERM_TEST_QUICK=1 CUPERM_TEST_FILTER="${RACECHECK_FILTER:-*}" timeout ${RACECHECK_S:-200} compute-sanitizer \
    --tool racecheck --error-exitcode 9 $w/test_gpu_candidates >$r/racecheck-candidates.log 2>&1
  echo "racecheck test_gpu_candidates rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $r/racecheck-candidates.log | tail -1)"
fi
cat $r/*-summary.txt >"$out/summary.txt" 2>/dev/null
tar czf "$out/walk-check.tgz" -C $r .
