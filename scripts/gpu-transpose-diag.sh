#!/usr/bin/env bash
# Heuristic against measure mode on the held-out transpose suites, one GPU, from the carried
# cuperm-bench (build-dt/, scripts/lib/make-carry.sh: cuperm_make_dtile_carry): primes-heldout and
# mixed-heldout f64 (--count COUNT, 5), every EVERY-th (24) permn-heldout permutation f64, and
# l2-heldout f32; every element verified. CSVs and summaries: $OUT/diag.tgz; the summaries printed.
#   OUT=... [COUNT=5] [EVERY=24] scripts/gpu-transpose-diag.sh
set -uo pipefail
cd "$(dirname "$0")/.."
w=/tmp/diag out=${OUT:-$PWD/diag}
rm -rf $w; mkdir -p $w/lib "$out"
xz -dc build-dt/libcuperm.so.0.xz >$w/lib/libcuperm.so.0 || exit 1
export LD_LIBRARY_PATH="$w/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench=$PWD/build-dt/cuperm-bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $w/gpu.txt
"$bench" permn-heldout --list | grep -v '^#' | awk -v k="${EVERY:-24}" '(NR - 1) % k == 0' >$w/permn-heldout-cases.txt
run() { local tag=$1; shift; local s=$(date +%s)
  "$bench" "$@" --mode both --out $w --tag $tag >$w/$tag.log 2>&1; echo "$tag rc=$? $(( $(date +%s) - s )) s"; }
run primes-heldout primes-heldout --count ${COUNT:-5}
run mixed-heldout mixed-heldout --count ${COUNT:-5}
run permn-heldout --cases $w/permn-heldout-cases.txt --dtype f64
run l2-heldout l2-heldout
cat $w/*-summary.txt
rm -rf $w/lib; tar czf "$out/diag.tgz" -C $w .
