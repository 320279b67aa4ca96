#!/usr/bin/env bash
# Nsight Compute profile of the GETT kernel on chosen TCCG48 cases (f16, CUPERM_GETT=1): speed
# of light, occupancy, warp stall reasons and memory traffic of one launch per case, to see what
# bounds a case. Builds cuperm-bench for sm_90 unless SKIP_BUILD=1. From the repository root on
# the device machine:
#   scripts/gpu-gett-profile.sh 31 32 33 7 13
# Reports go to $OUT (or ./gpu-gett-profile): ncu-<case>.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs="${OUT:-$PWD/gpu-gett-profile}"
mkdir -p "$logs"
build=build-gett
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF >"$logs/build.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target cuperm-bench >>"$logs/build.log" 2>&1 || { tail -30 "$logs/build.log"; exit 1; }
fi
for c in "$@"; do
  CUPERM_GETT=1 ncu --kernel-name regex:'^kernel$' --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section LaunchStats --section SchedulerStats \
    "$build/tools/bench/cuperm-bench" tccg48 --dtype f16 --mode model --skip $((c - 1)) --limit 1 \
    --target-ms 5 --plan-reps 1 --quiet >"$logs/ncu-$c.txt" 2>&1
  echo "== case $c: $(grep -E 'Duration|DRAM Throughput|Achieved Occupancy|Registers Per|Theoretical Occ|Block Limit Reg|Memory Throughput' "$logs/ncu-$c.txt" | tr -s ' ' | tr '\n' ';')"
done
