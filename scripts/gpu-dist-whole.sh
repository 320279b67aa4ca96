#!/usr/bin/env bash
# The whole-block direct transpose of bound outputs on 2 GPUs, in one call (session 39):
#   1. cuperm-dist-test's random redistributions with DT_TRACE (each case and each rank's steps on
#      stderr, so a hang names its case); if that fails, the same cases with CUPERM_DIST_WHOLE=0;
#   2. the bound-output benchmark cases at G GB per GPU (default 4) two ways: the whole-block
#      transpose, and CUPERM_DIST_WHOLE=0 (one transpose per receiver), each beside the same run's
#      exchange;
#   3. compute-sanitizer memcheck on a few quick cases (NCCL's kernels excluded).
# Carry build-xz (scripts/dist-carry.sh); logs in $OUT.
#   scripts/gpu-dist-whole.sh [CASES] [GB]
set -uo pipefail
cd "$(dirname "$0")/.."
cases=${1:-60} gb=${2:-4}
logs=${OUT:-$PWD/gpu-dist-logs}; mkdir -p "$logs"
tar -xJf build-xz/carry.tar.xz
nccl=$(/opt/torch/.venv/bin/python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)/lib
export NCCL_NVLS_ENABLE=0 NCCL_DEBUG=${NCCL_DEBUG:-WARN}
export LD_LIBRARY_PATH="$PWD/build-dist-carry/src:$nccl:${LD_LIBRARY_PATH:-}"
T=build-dist-carry/tests/cuperm-dist-test
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
s=$(date +%s)
DT_TRACE=1 timeout 240 $T --cases "$cases" >"$logs/dist-test.log" 2>&1
rc=$?
echo "dist-test (whole on): rc=$rc $(( $(date +%s) - s )) s: $(grep -E '^dist:' "$logs/dist-test.log" | tr '\n' ' ')"
grep -cE '^ok +case.*bound-output-whole' "$logs/dist-test.log" | sed 's/^/  whole-block cases ok: /'
if [ $rc -ne 0 ]; then
  grep -E '^(FAIL|case|  rank)' "$logs/dist-test.log" | tail -12
  CUPERM_DIST_WHOLE=0 DT_TRACE=1 timeout 240 $T --cases "$cases" --no-errors >"$logs/dist-test-pieces.log" 2>&1
  echo "dist-test (whole off): rc=$? $(grep -E '^dist:' "$logs/dist-test-pieces.log" | tr '\n' ' ')"
fi
for v in whole pieces; do
  case $v in whole) env="" ;; pieces) env="CUPERM_DIST_WHOLE=0" ;; esac
  env $env DT_BENCH_ONLY="bound output" DT_SMALL_BYTES=262144 timeout 200 $T --bench --gb "$gb" --iters 20 \
    >"$logs/bench-$v.log" 2>&1
  echo "bench $v ($env): rc=$?"
  grep -E '^6-D' "$logs/bench-$v.log" | awk '{print "  " $2, $NF, "dist", $(NF-6), "a2a", $(NF-5), "ratio", $(NF-3)}'
done
san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -n "$san" ]; then
  DT_WATCHDOG_SCALE=10 timeout 200 "$san" --tool memcheck --kernel-name-exclude kns=nccl --report-api-errors no \
    --error-exitcode 9 $T --quick --no-errors --cases 8 --contractions 0 >"$logs/memcheck.log" 2>&1
  echo "memcheck: rc=$? $(grep -E 'ERROR SUMMARY' "$logs/memcheck.log" | tail -1) $(grep -cE '^ok +case.*whole' "$logs/memcheck.log") whole cases"
fi
