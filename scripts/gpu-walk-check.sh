#!/usr/bin/env bash
# A transpose planning change on one GPU, from binaries built here for sm_90 and carried in
# build-wk/ (scripts/lib/make-carry.sh: cuperm_make_walk_carry): every candidate of CANDIDATES
# ("ELEM EXTENTS PERM" lines) timed; cuperm-bench in heuristic and measure mode on each BENCH entry
# ("DTYPE:FILE", FILE of "EXTENTS PERM" lines) and, with DIAG=1, on the held-out suites
# (primes-heldout and mixed-heldout f64 --count 5, every 24th permn-heldout permutation f64,
# l2-heldout f32); every element verified; then test_gpu_transpose. Everything lands in
# $OUT/walk-check.tgz (the device tool returns 8 files a call), the summaries in $OUT/summary.txt.
#   run (carry build-wk): OUT=... CANDIDATES=FILE BENCH="f64:a.txt f32:b.txt" DIAG=1 scripts/gpu-walk-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/walk-check} w=/tmp/walk-check
rm -rf $w; mkdir -p $w/lib $w/res "$out"
xz -dc build-wk/libcuperm.so.0.xz >$w/lib/libcuperm.so.0 && xz -dc build-wk/cuperm-candidate-times.xz >$w/ct &&
  chmod +x $w/ct && cp build-wk/libcmocka.so.0 $w/lib/ || { echo "no build-wk"; exit 1; }
export LD_LIBRARY_PATH="$w/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
r=$w/res bench=$PWD/build-wk/cuperm-bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $r/gpu.txt
if [ -n "${CANDIDATES:-}" ]; then
  s=$(date +%s)
  $w/ct ${TARGET_MS:-15} <"$CANDIDATES" >$r/candidates.csv 2>$r/candidates.err
  echo "candidate times rc=$? $(( $(date +%s) - s )) s, cases $(cut -d, -f1 $r/candidates.csv | sort -u | wc -l), same=0: $(awk -F, '$5 == 0' $r/candidates.csv | wc -l)"
fi
run() { local tag=$1 s; shift; s=$(date +%s)
  "$bench" "$@" --mode both --out $r --tag $tag >$r/$tag.log 2>&1; echo "$tag rc=$? $(( $(date +%s) - s )) s"
  grep -E "^  all|heuristic/measured|failures" $r/$tag-summary.txt 2>/dev/null; }
for b in ${BENCH:-}; do run "bench-${b%%:*}" --cases "${b#*:}" --dtype "${b%%:*}"; done
if [ "${DIAG:-0}" = 1 ]; then
  "$bench" permn-heldout --list | grep -v '^#' | awk '(NR - 1) % 24 == 0' >$r/permn-heldout-cases.txt
  run primes-heldout primes-heldout --count 5
  run mixed-heldout mixed-heldout --count 5
  run permn-heldout --cases $r/permn-heldout-cases.txt --dtype f64
  run l2-heldout l2-heldout
fi
timeout 200 build-wk/test_gpu_transpose >$r/test_gpu_transpose.log 2>&1
echo "test_gpu_transpose rc=$? $(grep -E 'PASSED|FAILED' $r/test_gpu_transpose.log | tail -1)"
cat $r/*-summary.txt >"$out/summary.txt" 2>/dev/null
tar czf "$out/walk-check.tgz" -C $r .
