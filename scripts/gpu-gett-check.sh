#!/usr/bin/env bash
# The GETT kernels on a GPU (issue "Contractions, part 2"): build for sm_90, report the GETT
# kernels' registers / spills (cuobjdump -res-usage), run the CPU GETT tests and test_gett_gpu
# (fixed shapes, the vector / fallback load and store paths at base offsets 0, 1, 2, 4
# elements, random contractions), the differential fuzz test with CUPERM_GETT=1 (every
# eligible fuzz case then runs GETT), compute-sanitizer memcheck on a short test_gett_gpu,
# and the TCCG48 f16 and bf16 benchmarks with and without CUPERM_GETT=1 (against the
# same-shape cuBLAS GEMM; f16 also with CUPERM_GETT_ORDER=strides, the mode orders before the
# traffic model). About 9 minutes on an H100.
# From the repository root on the device machine:
#   scripts/gpu-gett-check.sh
# Logs go to $OUT (or ./gpu-gett-logs), also packed into all-logs.tgz; the summary is printed
# last. Environment: DTYPES (the benchmark's element types, default "f16 bf16"), VARIANTS
# (default "ttgt gett", plus gett-strides for f16 when unset), SKIP_PTXAS=1 (no register
# report), GETT_TMA=1 (also build the Hopper TMA kernels, CUPERM_GETT_TMA=ON, from the CUTLASS
# headers of scripts/lib/deps.sh: carry .deps/ with the nvidia-cutlass wheel in it; then
# test_gett_tma_gpu, the fuzz test and memcheck run with CUPERM_GETT=tma too, racecheck checks
# the staged epilogue, and the benchmark runs the variants gett-tma (the plan's tiles) and, in
# f16, gett-tma-<tile> for every tile forced with CUPERM_GETT_TMA_TILE).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs="${OUT:-$PWD/gpu-gett-logs}"
mkdir -p "$logs"
build=build-gett
summary=()
add() { summary+=("$(printf '%-34s %s' "$1" "$2")"); }
# The summary, and every log and CSV in one archive (all-logs.tgz) for hosts that fetch few files.
finish() {
  echo; echo "==== summary (logs in $logs) ===="; printf '%s\n' "${summary[@]}"
  local tgz
  tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$logs/gpu.txt"
source scripts/lib/deps.sh
cuperm_find_cmocka
tma=()
if [ "${GETT_TMA:-0}" = 1 ]; then
  cuperm_find_cutlass || { add cutlass "not found"; finish; exit 1; }
  tma=(-DCUPERM_GETT_TMA=ON -DCUPERM_CUTLASS_INCLUDE="$CUPERM_CUTLASS_INCLUDE")
fi

start=$(date +%s)
if cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${tma[@]}" >"$logs/build.log" 2>&1 &&
   cmake --build "$build" -j"$(nproc)" --target test_gett_gpu test_gett_tables test_gett_index cuperm-fuzz cuperm-bench \
     >>"$logs/build.log" 2>&1; then
  add build "ok ($(( $(date +%s) - start )) s)"
else
  tail -40 "$logs/build.log"; add build FAILED; finish; exit 1
fi

# 0. Registers and spills of the GETT kernels for sm_90 (ptxas -v of the kernel's source; the
#    16 instantiations: fp16/bf16 x A, B tile layouts x 32/64-bit offsets).
[ "${SKIP_PTXAS:-0}" = 1 ] || nvcc -std=c++17 -O3 -DNDEBUG -gencode arch=compute_90,code=sm_90 -Isrc -Iinclude -Xptxas -v \
  -c src/backend/cuda/gett/gett_mma.cu -o "$build/gett_mma_ptxas.o" >"$logs/gett-ptxas.txt" 2>&1
grep -E 'spill|Used' "$logs/gett-ptxas.txt" | sed -E 's/.*(Used [0-9]+ registers).*/\1/; s/^ +//' | sort | uniq -c \
  | tee "$logs/gett-regs-summary.txt"
add "GETT kernels sm_90 (ptxas -v)" "$(tr -s ' \n' ' ' <"$logs/gett-regs-summary.txt")"

# 1. The CPU GETT tests, then the GPU test (it sets CUPERM_GETT=1 itself).
for t in test_gett_tables test_gett_index; do
  "$build/tests/contraction/$t" >"$logs/$t.log" 2>&1
  add $t "rc=$? $(grep -E 'PASSED|FAILED' "$logs/$t.log" | tail -1)"
done
start=$(date +%s)
timeout 240 "$build/tests/contraction/test_gett_gpu" >"$logs/test_gett_gpu.log" 2>&1
rc=$?
grep -E '^(FAILED|    )|\[  (FAILED|PASSED) |GETT plan' "$logs/test_gett_gpu.log" | head -40
add test_gett_gpu "rc=$rc $(grep -E '\[  (PASSED|FAILED)' "$logs/test_gett_gpu.log" | tr '\n' ' ') ($(( $(date +%s) - start )) s)"

if [ ${#tma[@]} -gt 0 ]; then
  start=$(date +%s)
  CUPERM_GETT_TEST_ENGINE=tma timeout 240 "$build/tests/contraction/test_gett_gpu" >"$logs/test_gett_tma_gpu.log" 2>&1
  rc=$?
  grep -E '^(FAILED|SKIPPED|    )|\[  (FAILED|PASSED) |GETT plan' "$logs/test_gett_tma_gpu.log" | head -40
  add test_gett_tma_gpu "rc=$rc $(grep -E '\[  (PASSED|FAILED)' "$logs/test_gett_tma_gpu.log" | tr '\n' ' ') ($(( $(date +%s) - start )) s)"
fi

# 2. The fuzz test with GETT forced on eligible cases (and on the Hopper kernels with GETT_TMA=1).
for engine in 1 ${tma[0]:+tma}; do
  start=$(date +%s)
  CUPERM_GETT=$engine timeout 120 "$build/tests/fuzz/cuperm-fuzz" --contractions 3000 --seed 5 --quiet \
    >"$logs/fuzz-gett-$engine.log" 2>&1
  rc=$?
  grep -E '^(REPRO|  FAILED)' "$logs/fuzz-gett-$engine.log" | head -20
  tail -6 "$logs/fuzz-gett-$engine.log"
  add "fuzz CUPERM_GETT=$engine (3000 ctr)" "$(grep -E '^fuzz:' "$logs/fuzz-gett-$engine.log" | tail -1) rc=$rc ($(( $(date +%s) - start )) s)"
  add "fuzz GETT plans ($engine)" "$(grep -oE 'GETT plans [0-9]+( \(on the Hopper TMA kernels [0-9]+\))?' "$logs/fuzz-gett-$engine.log" | tail -1)"
done

# 3. memcheck on a short GPU test.
cs=compute-sanitizer
command -v $cs >/dev/null || cs=/usr/local/cuda/bin/compute-sanitizer
start=$(date +%s)
CUPERM_GETT_TEST_CASES=12 timeout 300 $cs --tool memcheck --error-exitcode 99 "$build/tests/contraction/test_gett_gpu" \
  >"$logs/memcheck-test_gett_gpu.log" 2>&1
rc=$?
add "memcheck test_gett_gpu (12 random)" "$(grep -E 'ERROR SUMMARY' "$logs/memcheck-test_gett_gpu.log" | tail -1) rc=$rc ($(( $(date +%s) - start )) s)"
if [ ${#tma[@]} -gt 0 ]; then
  CUPERM_GETT_TEST_ENGINE=tma CUPERM_GETT_TEST_CASES=12 timeout 300 $cs --tool memcheck --error-exitcode 99 \
    "$build/tests/contraction/test_gett_gpu" >"$logs/memcheck-test_gett_tma_gpu.log" 2>&1
  rc=$?
  add "memcheck test_gett_gpu tma" "$(grep -E 'ERROR SUMMARY' "$logs/memcheck-test_gett_tma_gpu.log" | tail -1) rc=$rc"
  # The staged epilogue's shared-memory stage (named barriers between the consumer warpgroups).
  start=$(date +%s)
  CUPERM_GETT_TEST_ENGINE=tma CUPERM_GETT_TEST_CASES=2 timeout 300 $cs --tool racecheck --error-exitcode 99 \
    "$build/tests/contraction/test_gett_gpu" >"$logs/racecheck-test_gett_tma_gpu.log" 2>&1
  rc=$?
  add "racecheck test_gett_gpu tma" "$(grep -E 'RACECHECK SUMMARY' "$logs/racecheck-test_gett_tma_gpu.log" | tail -1) rc=$rc ($(( $(date +%s) - start )) s)"
fi

# 4. TCCG48 f16 and bf16, model plans: TTGT (default) and GETT (CUPERM_GETT=1); for f16 also
#    GETT with the mode orders of the strides rule (CUPERM_GETT_ORDER=strides: the orders before
#    the traffic model), to compare per case. Each line: geomean roofline efficiency, the plain
#    same-shape cuBLAS GEMM's, and their ratio.
for dt in ${DTYPES:-f16 bf16}; do
  variants="${VARIANTS:-ttgt gett}"
  [ $dt = f16 ] && [ -z "${VARIANTS:-}" ] && variants="ttgt gett gett-strides"
  # The Hopper kernels with the plan's tile, then with each tile forced (which tiles pay).
  [ -z "${VARIANTS:-}" ] && [ ${#tma[@]} -gt 0 ] && [ $dt = f16 ] &&
    variants="$variants gett-tma $(sed -nE 's/^ *X\([0-9]+, ([a-z0-9]+),.*/gett-tma-\1/p' src/core/gett_tma_params.h | tr '\n' ' ')"
  [ -z "${VARIANTS:-}" ] && [ ${#tma[@]} -gt 0 ] && [ $dt != f16 ] && variants="$variants gett-tma"
  for variant in $variants; do
    mkdir -p "$logs/bench-$dt-$variant"
    start=$(date +%s)
    case $variant in
      gett) env=(env -u CUPERM_GETT_ORDER CUPERM_GETT=1) ;;
      gett-strides) env=(env CUPERM_GETT=1 CUPERM_GETT_ORDER=strides) ;;
      gett-tma) env=(env -u CUPERM_GETT_ORDER -u CUPERM_GETT_TMA_TILE CUPERM_GETT=tma) ;;
      gett-tma-*) env=(env -u CUPERM_GETT_ORDER CUPERM_GETT=tma CUPERM_GETT_TMA_TILE="${variant#gett-tma-}") ;;
      *) env=(env -u CUPERM_GETT -u CUPERM_GETT_ORDER) ;;
    esac
    "${env[@]}" timeout 120 "$build/tools/bench/cuperm-bench" tccg48 --dtype $dt --mode model \
      --out "$logs/bench-$dt-$variant" >"$logs/bench-$dt-$variant.log" 2>&1
    rc=$?
    add "bench tccg48 $dt model $variant" "rc=$rc ($(( $(date +%s) - start )) s) $(grep -E 'geomean roofline efficiency' "$logs/bench-$dt-$variant.log" | tail -1)"
  done
done
finish
