#!/usr/bin/env bash
# Looks for hangs in the distributed error-agreement and random cases: runs cuperm-dist-test
# --quick N times plainly, then once under compute-sanitizer memcheck; a run still alive after
# its limit gets every thread's backtrace (gdb, when present) before it is killed. Logs in $OUT.
#   scripts/gpu-dist-hang-probe.sh PREBUILT_DIR [RUNS] [CASES]
set -uo pipefail
cd "$(dirname "$0")/.."
dir=$1 runs=${2:-6} cases=${3:-4}
logs="${OUT:-$PWD/gpu-dist-logs}"
mkdir -p "$logs"
export NCCL_NVLS_ENABLE=0 NCCL_DEBUG=${NCCL_DEBUG:-WARN}
nccl=$(/opt/torch/.venv/bin/python3 -c 'import nvidia.nccl as m, os; print(list(m.__path__)[0])' 2>/dev/null)/lib
export LD_LIBRARY_PATH="$(cd "$dir/src" && pwd):$nccl:${LD_LIBRARY_PATH:-}"
prog="$dir/tests/cuperm-dist-test"
# run LIMIT LOG CMD...: CMD in the background; backtraces of cuperm-dist-test if it outlives LIMIT s
run() {
  local limit=$1 log=$2; shift 2
  "$@" >"$log" 2>&1 &
  local pid=$! t=0
  while kill -0 $pid 2>/dev/null && [ $t -lt "$limit" ]; do sleep 1; t=$((t + 1)); done
  if kill -0 $pid 2>/dev/null; then
    local target
    target=$(pgrep -f "tests/cuperm-dist-test" | head -1)
    echo "HUNG after ${limit} s (pid $target)" >>"$log"
    command -v gdb >/dev/null && [ -n "$target" ] &&
      gdb -p "$target" -batch -ex "thread apply all bt 12" >>"$log" 2>&1
    pkill -9 -f "tests/cuperm-dist-test"; kill -9 $pid 2>/dev/null
  fi
  wait $pid 2>/dev/null
  echo "$(basename "$log"): $(grep -E '^dist:|HUNG|watchdog' "$log" | tail -2 | tr '\n' ' ')"
}
for i in $(seq 1 "$runs"); do
  run 60 "$logs/plain-$i.log" "$prog" --quick --cases "$cases" --contractions 1
done
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
DT_WATCHDOG_SCALE=100 run 150 "$logs/memcheck.log" "$san" --tool memcheck --kernel-name-exclude kns=nccl \
  --report-api-errors no "$prog" --quick --cases "$cases" --contractions 1
