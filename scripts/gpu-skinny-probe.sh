#!/usr/bin/env bash
# tools/probe/skinny_tma.cu on one GPU (issue 15: can a contraction with a small N stream A at copy speed?),
# from build-tp/cuperm-skinny-probe.xz (built for sm_90: make cuperm-skinny-probe). RUNS: the probe's
# argument lists, ";"-separated, options and cases (TCCG ids or "D-A-B:extents"); default: TCCG 1-8 with
# RA 16, then RA 8. SANITIZE=1 adds compute-sanitizer memcheck and racecheck on TCCG 6 and 2 (checks only,
# no timing; SANITIZE_ARGS: their arguments, default "6 2"). NCU_RUNS: argument lists (";"-separated) whose first launch of the probe's kernel Nsight Compute
# profiles (clocks not locked; ncu-N.txt). Output in $OUT/probe.txt.
#   run (carry build-tp): OUT=... [RUNS="--ra 16 1 3;--ra-k 8 2 5"] scripts/gpu-skinny-probe.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/skinny-probe}; mkdir -p "$out"
bin=/tmp/cuperm-skinny-probe
xz -dc build-tp/cuperm-skinny-probe.xz >$bin && chmod +x $bin || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
runs=()
[ -n "${RUNS-x}" ] && IFS=';' read -ra runs <<<"${RUNS---ra 16 1 2 3 4 5 6 7 8;--ra 8 1 3 4 6 7 8}" # RUNS="": none
for r in "${runs[@]}"; do
  echo "== $r" | tee -a "$out/probe.txt"
  # shellcheck disable=SC2086
  $bin $r 2>&1 | tee -a "$out/probe.txt"
done
if [ "${SANITIZE:-0}" = 1 ]; then
  for tool in memcheck racecheck; do
    # shellcheck disable=SC2086
    timeout 240 compute-sanitizer --tool $tool $bin --reps 0 ${SANITIZE_ARGS:-6 2} >"$out/$tool.log" 2>&1
    echo "$tool rc=$?: $(tail -1 "$out/$tool.log")" | tee -a "$out/probe.txt"
  done
fi
if [ -n "${NCU_RUNS:-}" ]; then
  IFS=';' read -ra nruns <<<"$NCU_RUNS"
  for i in "${!nruns[@]}"; do
    # shellcheck disable=SC2086
    timeout 200 ncu --clock-control none --kernel-name regex:${NCU_KERNEL:-skinny_tma} --launch-count 1 --section SpeedOfLight \
      --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables --section WarpStateStats \
      --section SchedulerStats --section Occupancy $bin --reps 0 ${nruns[$i]} >"$out/ncu-$i.txt" 2>&1
    echo "ncu ${nruns[$i]} rc=$?" | tee -a "$out/probe.txt"
  done
fi
