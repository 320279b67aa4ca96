#!/usr/bin/env bash
# A contraction-model candidate against this tree in ONE device call: builds this tree and a copy
# with the candidate in place (CANDIDATE: a header in
# bench/results/contraction/model-refit-h100/candidates/, copied over src/plan/contraction/gemm_fit.h,
# and BATCH_K="fp16,fp32" seconds per k step of a batched GEMM's thread block, written into
# CUPERM_SM90_GEMM_BATCH_K_SECONDS), both for sm_90 and in parallel; runs the candidate's
# contraction GPU test and 1,000 fuzz contractions; then TCCG48 and random contractions of SEEDS
# with model plans on this tree and on the candidate, one after the other (every D verified, each
# plan's ratio to the same-shape cuBLAS GEMM). From the repository root on the device machine,
# carrying the two .deps/libcmocka*.deb:
#   CANDIDATE=gemm_fit-batch-term-sweep.h BATCH_K=2e-9,10e-9 SEEDS=4 scripts/gpu-contraction-ab.sh
# Use seeds the candidates were not chosen on (1-3 were); one seed fits the 10 minutes. Logs and CSVs go to $OUT (or
# ./gpu-contraction-ab-logs), also packed into all-logs.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
: "${CANDIDATE:?a header in bench/results/contraction/model-refit-h100/candidates/}" "${BATCH_K:?fp16,fp32 seconds}"
header=bench/results/contraction/model-refit-h100/candidates/$CANDIDATE
[ -f "$header" ] || { echo "no $header"; exit 1; }
logs="${OUT:-$PWD/gpu-contraction-ab-logs}"
source scripts/lib/ab.sh
cand=/tmp/cuperm-ab-candidate
ab_start "$cand"
cp "$header" "$cand/src/plan/contraction/gemm_fit.h"
f16=${BATCH_K%%,*} f32=${BATCH_K##*,}
sed -i "s/^#define CUPERM_SM90_GEMM_BATCH_K_SECONDS .*/#define CUPERM_SM90_GEMM_BATCH_K_SECONDS {0.0, $f32, 0.0, $f16}/" \
  "$cand/src/core/tuning.c"
grep -n "define CUPERM_SM90_GEMM_BATCH_K_SECONDS" "$cand/src/core/tuning.c" | tee "$logs/candidate.txt"
ab_build_pair . build-ab "$cand" "$cand/build" || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
exe=$(find "$cand/build/tests" -name test_ctr_gpu -type f | head -1)
timeout 150 "$exe" >"$logs/test_ctr_gpu.log" 2>&1; echo "test_ctr_gpu rc=$? $(grep -E 'PASSED|FAILED' "$logs/test_ctr_gpu.log" | tail -1)"
timeout 120 "$cand/build/tests/fuzz/cuperm-fuzz" --contractions 1000 --transposes 0 --seed 11 --quiet >"$logs/fuzz.log" 2>&1
echo "fuzz rc=$? $(grep -E '^fuzz:' "$logs/fuzz.log")"
for dtype in f32 f16; do
  ab_bench_pair build-ab this "$cand/build" candidate tccg48 "$dtype" model --quiet
  for seed in ${SEEDS:-4}; do
    ab_bench_pair build-ab "this-s$seed" "$cand/build" "candidate-s$seed" random-contractions "$dtype" model \
      --seed "$seed" --quiet
  done
done
