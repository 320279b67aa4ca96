#!/usr/bin/env bash
# The distributed engine's status in one device call (2 x H200 expected), from build-an/ (carried;
# scripts/lib/make-carry.sh: cuperm_make_anatomy_carry): compute-sanitizer memcheck of the random
# redistributions (NCCL's kernels excluded), the fixed benchmark rows and a held-out seed at G GB a
# GPU (every output element checked), and PyTorch DTensor on the same fixed cases at G GB.
#   run (carry build-an): OUT=... [MEMCHECK=8] [HELDOUT="8 50"] [GB=4] scripts/gpu-dist-status.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-dist-logs}; mkdir -p "$logs"
gb=${GB:-4}
[ -e build-dt ] || ln -s build-an build-dt # gpu-dist-heldout.sh reads build-dt (the same layout)
p=/tmp/cuperm-carried
source scripts/lib/make-carry.sh
cuperm_unpack_dist_carry build-an $p || { echo "no build-an"; exit 1; }
nccl=${NCCL_LIB:-$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)/lib}
export LD_LIBRARY_PATH="$p/src:$nccl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" NCCL_NVLS_ENABLE=0
if [ "${MEMCHECK:-8}" -gt 0 ]; then
  san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
  s=$(date +%s)
  # NCCL's initialisation probes with failing CUDA calls: API errors unreported, memory errors reported
  DT_WATCHDOG_SCALE=10 timeout 300 "$san" --tool memcheck --kernel-name-exclude kns=nccl --report-api-errors no \
    --error-exitcode 9 $p/tests/cuperm-dist-test --quick --cases "${MEMCHECK:-8}" --contractions 2 \
    >"$logs/dist-memcheck.log" 2>&1
  echo "memcheck rc=$? ($(( $(date +%s) - s )) s): $(grep -E '^dist:' "$logs/dist-memcheck.log" | tail -1); $(grep -E 'ERROR SUMMARY' "$logs/dist-memcheck.log" | tail -1)"
fi
OUT=$logs DT_RANDOM_ROWS=model,measure,bound LIMIT_S=200 scripts/gpu-dist-heldout.sh fixed 0 "$gb" | tail -3
grep -E 'model|measure|bound|small' "$logs/dist-fixed-${gb}GB.log" | cut -c1-175
read -r n seed <<<"${HELDOUT:-8 50}"
OUT=$logs DT_RANDOM_ROWS=model,measure,bound LIMIT_S=300 scripts/gpu-dist-heldout.sh "$n" "$seed" "$gb"
s=$(date +%s)
timeout 300 python3 bench/dist/dtensor_bench.py --gb "$gb" --iters 10 --out "$logs/dtensor" >"$logs/dtensor.log" 2>&1
echo "dtensor rc=$? ($(( $(date +%s) - s )) s)"
tail -20 "$logs/dtensor.log"
