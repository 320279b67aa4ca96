#!/usr/bin/env bash
# The distributed engine's held-out suite on every visible GPU (2 x H200 expected), in one call, from
# binaries built here for sm_90 and carried in build-dt/ (scripts/lib/make-carry.sh:
# cuperm_make_dtile_carry, which adds build-dt/dist/ where the build has the distributed library):
# N random 6-D redistributions of G GB a GPU (model plan, measure mode and bound output each, every
# output element checked; SWEEP=1: also every peer-stores candidate forced, variant x stages), seed S.
#   run (carry build-dt): OUT=... [SWEEP=1|ps|sr,pk] [DT_RANDOM_ROWS=model,measure,bound] [TAG=x] [LIMIT_S=480] scripts/gpu-dist-heldout.sh [N] [S] [G]
# N = fixed: the fixed suite's rows at G GB a GPU instead (reverse, swap01, mixed; those whose name
# holds DT_BENCH_ONLY, e.g. "bound output"; no contractions then), in dist-fixed-<G>GB[-TAG].log.
# then, here: python3 tools/model/dist_heldout.py LOG (per case, and the model against the sweep).
set -uo pipefail
cd "$(dirname "$0")/.."
n=${1:-12} seed=${2:-45} gb=${3:-4}
logs=${OUT:-$PWD/gpu-dist-logs}; mkdir -p "$logs"
p=/tmp/cuperm-carried
source scripts/lib/make-carry.sh
cuperm_unpack_dist_carry build-dt $p || { echo "no build-dt/dist (see make-carry.sh)"; exit 1; }
# NCCL: the machine's torch venv wheel (or NCCL_LIB)
nccl=${NCCL_LIB:-$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)/lib}
export LD_LIBRARY_PATH="$p/src:$nccl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" NCCL_NVLS_ENABLE=0
export DT_SWEEP=${SWEEP:-0}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
log="$logs/dist-random-${gb}GB-s$seed${TAG:+-$TAG}.log"  # TAG: several runs of one case set in one call
args=(--bench --random "$n" --seed "$seed" --gb "$gb" --iters 10)
if [[ $n == fixed ]]; then
    log="$logs/dist-fixed-${gb}GB${TAG:+-$TAG}.log"
    args=(--bench --gb "$gb" --iters 10)
fi
s=$(date +%s)
# Past LIMIT_S (480) the program is stopped; first, what it was doing goes to the log: each GPU's
# use, and every thread's stack (cuda-gdb attached: the machine has no gdb). DT_TRACE=1 (set it in
# the call) adds each rank's phases with times.
$p/tests/cuperm-dist-test "${args[@]}" >"$log" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null && (( $(date +%s) - s < ${LIMIT_S:-480} )); do sleep 1; done
if kill -0 $pid 2>/dev/null; then
    { echo "== stopped after ${LIMIT_S:-480} s; GPU use:"
      nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader
      echo "== every thread's stack:"
      timeout 60 cuda-gdb -batch -p $pid -ex 'thread apply all bt' 2>&1 | grep -E '^(Thread|#)' | head -200
    } >>"$log" 2>&1
    kill -9 $pid
fi
wait $pid
echo "held-out suite rc=$? ($(( $(date +%s) - s )) s): $(grep -c ' ok$' "$log") rows checked ok, $(grep -c 'WRONG\|^FAILED' "$log") bad"
grep -E '^held-out (model|measure|bound)' "$log"
