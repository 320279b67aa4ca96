#!/usr/bin/env bash
# Nsight Compute on the heuristic launch of chosen transpose cases, with the cuperm-bench and library
# carried in build-carry/ (scripts/lib/make-carry.sh; no build on the device): each case's time
# (every element verified) and one profiled launch (speed of light, occupancy, warp stalls, memory
# traffic). To compare GPUs, run it on each. NCU_ARGS: more ncu options (e.g. --cache-control none to
# keep an L2-sized tensor in L2 between the launches). Reports in $OUT (else ./ncu-carried), packed into ncu.tgz.
#   scripts/gpu-transpose-ncu-carried.sh f64:16,16,16,16,16,16:1,3,4,0,2,5 ...
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/ncu-carried}; mkdir -p "$out/ncu"
export PATH="$PATH:/usr/local/cuda/bin" LD_LIBRARY_PATH="$PWD/build-carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
bench=build-carry/bin/cuperm-bench
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
n=0
for c in "$@"; do
  IFS=: read -r dtype extents perm <<<"$c"
  n=$((n + 1))
  "$bench" --case "$extents $perm" --dtype "$dtype" --mode heuristic --target-ms 50 --plan-reps 1 >"$out/ncu/bench-$n.log" 2>&1
  echo "$c: $(grep -E '^ +[0-9]+ ' "$out/ncu/bench-$n.log" | tail -1 | tr -s ' ')"
  # --clock-control none: the clocks stay as they are
  # shellcheck disable=SC2086
  ncu --clock-control none ${NCU_ARGS:-} --kernel-name regex:'tile_kernel|whole_dims|copy_kernel' --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section LaunchStats --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
    "$bench" --case "$extents $perm" --dtype "$dtype" --mode heuristic --no-verify --target-ms 2 --plan-reps 1 \
    --quiet >"$out/ncu/ncu-$n.txt" 2>&1
  echo "   $(grep -E '^ +(Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Theoretical Occupancy|Registers Per Thread|L2 Hit Rate) ' \
    "$out/ncu/ncu-$n.txt" | tr -s ' ' | tr '\n' ';')"
  grep -E 'stalled_(long_scoreboard|barrier|lg_throttle|mio_throttle|short_scoreboard|wait|drain|membar|not_selected|selected)_per' \
    "$out/ncu/ncu-$n.txt" | awk '{print "   " $1 " " $NF}' | sed 's/smsp__average_warps_issue_stalled_//'
done
(cd "$out" && tar czf ncu.tgz ncu && rm -rf ncu)
