#!/usr/bin/env bash
# Issue 15 experiment: what a CUTLASS sm90 GETT (TMA loads through multi-mode strides, wgmma,
# per-thread stores into D's strides) reaches on TCCG48 fp16 against the same-shape cuBLAS
# GEMM, for four block tiles (flat 128x128x64 and three that take 8-32 indices from each of
# two modes: tools/experiments/gett_tma_probe/probe.h). Builds the 17 translation units in
# parallel (about 1 min on 16 cores), then runs every case; output to $OUT (default /tmp/probe).
#   OUT=/tmp/p scripts/gpu-gett-tma-probe.sh [CASES_FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
out=${OUT:-/tmp/probe}
cases=${1:-bench/cases/tccg48.txt}
mkdir -p "$out"
source scripts/lib/deps.sh
cuperm_find_cutlass
src=tools/experiments/gett_tma_probe
obj=${PROBE_BUILD:-build-probe}
mkdir -p "$obj"
nv=(nvcc -std=c++17 -O3 -I"$CUPERM_CUTLASS_INCLUDE" -I"$src" -gencode arch=compute_90a,code=sm_90a
    --expt-relaxed-constexpr -w)
jobs=()
for tile in TFlat TMid THier TKh; do
  for ak in 0 1; do for bk in 0 1; do jobs+=("$tile $ak $bk"); done; done
done
start=$(date +%s)
printf '%s\n' "${jobs[@]}" | xargs -P "$(nproc)" -L 1 bash -c \
  'o='"$obj"'/inst_$0_$1$2.o; [ -f "$o" ] || '"${nv[*]}"' -c '"$src"'/inst.cu -o "$o" -DTILE=$0 -DAKV=$1 -DBKV=$2'
"${nv[@]}" -c "$src/main.cu" -o "$obj/main.o"
"${nv[@]}" -o "$obj/probe" "$obj/main.o" "$obj"/inst_*.o -lcublas
echo "probe: built in $(( $(date +%s) - start )) s" | tee "$out/build.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
"$obj/probe" "$cases" | tee "$out/probe.txt"
