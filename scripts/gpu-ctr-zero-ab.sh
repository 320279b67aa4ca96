#!/usr/bin/env bash
# The ways of zeroing a padded GEMM's K padding (plan/contraction/layout.h: cuperm_ctr_zero_kind_t)
# side by side on a GPU, from binaries built here for sm_90 and carried in build-dt/
# (scripts/lib/make-carry.sh: cuperm_make_dtile_carry):
#   1. test_ctr_gpu (its padded cases run every way), plain and under compute-sanitizer memcheck;
#   2. every candidate of SETS timed with each way forced (CUPERM_CTR_ZERO=memset2d|slice), each
#      step alone too (tools/model/ctr_candidate_times.c), into $OUT/zero-KIND/candidates/.
# SKIP=tests,memcheck skips those parts; KINDS (default "memset2d slice"; "priced": the default choice).
#   run (carry build-dt): OUT=... SETS="random-contractions:f16:3" COUNT=24 scripts/gpu-ctr-zero-ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs=${OUT:-$PWD/gpu-ctr-zero-logs}; mkdir -p "$logs"
d=/tmp/dtile; mkdir -p "$d/lib"
xz -dc build-dt/libcuperm.so.0.xz >"$d/lib/libcuperm.so.0" && ln -sf libcuperm.so.0 "$d/lib/libcuperm.so" &&
  cp build-dt/libcmocka.so.0 "$d/lib/" || { echo "no build-dt/"; exit 1; }
export LD_LIBRARY_PATH="$d/lib"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
skip=",${SKIP:-},"
run() { local name=$1 t=$2; shift 2; local s; s=$(date +%s); timeout "$t" "$@" >"$logs/$name.log" 2>&1
  echo "$name rc=$? ($(( $(date +%s) - s )) s): $(grep -E '\[  (PASSED|FAILED)|ERROR SUMMARY|padded GEMMs:' "$logs/$name.log" | tr '\n' ' ' | cut -c1-300)"; }
[[ $skip == *,tests,* ]] || run test_ctr_gpu 300 build-dt/test_ctr_gpu
[[ $skip == *,memcheck,* ]] || run memcheck-test_ctr_gpu 300 compute-sanitizer --tool memcheck --error-exitcode 99 build-dt/test_ctr_gpu
for kind in ${KINDS:-memset2d slice}; do # priced: each way chosen by its price (the default)
  if [ "$kind" = priced ]; then env -u CUPERM_CTR_ZERO OUT="$logs/zero-$kind" scripts/gpu-ctr-candidates.sh
  else CUPERM_CTR_ZERO=$kind OUT="$logs/zero-$kind" scripts/gpu-ctr-candidates.sh; fi | sed "s/^/$kind: /"
done
