#!/usr/bin/env bash
# Nsight Compute profile of a GETT kernel on chosen TCCG48 cases (f16): speed of light,
# occupancy, warp stall reasons and memory traffic of one launch per case, to see what bounds
# a case. Builds cuperm-bench for sm_90 unless SKIP_BUILD=1. From the repository root on the
# device machine:
#   scripts/gpu-gett-profile.sh 31 32 33 7 13
# Environment: GETT_TMA=1 profiles the Hopper TMA kernels instead of the mma.sync one (build
# with CUPERM_GETT_TMA=ON from the CUTLASS headers of scripts/lib/deps.sh: carry .deps/;
# CUPERM_GETT=tma), TILE=<name> forces their block tile (CUPERM_GETT_TMA_TILE).
# Reports go to $OUT (or ./gpu-gett-profile): ncu-<case>[-<tile>].txt.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs="${OUT:-$PWD/gpu-gett-profile}"
mkdir -p "$logs"
build=build-gett
engine=1 kernel='regex:^kernel$' tma=() suffix=
if [ "${GETT_TMA:-0}" = 1 ]; then
  source scripts/lib/deps.sh
  cuperm_find_cutlass || { echo "CUTLASS headers not found"; exit 1; }
  engine=tma kernel='regex:device_kernel' tma=(-DCUPERM_GETT_TMA=ON -DCUPERM_CUTLASS_INCLUDE="$CUPERM_CUTLASS_INCLUDE")
  suffix=${TILE:+-$TILE}
fi
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF "${tma[@]}" \
    >"$logs/build.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target cuperm-bench >>"$logs/build.log" 2>&1 || { tail -30 "$logs/build.log"; exit 1; }
fi
for c in "$@"; do
  env ${TILE:+CUPERM_GETT_TMA_TILE=$TILE} CUPERM_GETT=$engine ncu --clock-control none --kernel-name "$kernel" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section LaunchStats --section SchedulerStats \
    "$build/tools/bench/cuperm-bench" tccg48 --dtype f16 --mode model --skip $((c - 1)) --limit 1 \
    --target-ms 5 --plan-reps 1 --quiet >"$logs/ncu-$c$suffix.txt" 2>&1
  echo "== case $c$suffix: $(grep -E 'Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|Block Limit Reg|Memory Throughput|L2 Hit' "$logs/ncu-$c$suffix.txt" | tr -s ' ' | tr '\n' ';')"
done
