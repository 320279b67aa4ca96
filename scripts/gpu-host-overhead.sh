#!/usr/bin/env bash
# Host time per cached call on the H100 machine, on the library carried in build-carry/
# (scripts/lib/make-carry.sh, plus build-carry/bin/cuperm-host-overhead): the C calls
# (tools/bench/host_overhead.c: cupermExecute, cupermContract on an 8x8x8 f32 plan, the CUDA and
# cuBLAS calls they are made of; its plan's description says whether it is GETT or TTGT), then
# Python's (cuperm._native built in place; bench/python/host_overhead.py against PyTorch and CuPy,
# bench/python/overhead_parts.py for the parts). Logs in $OUT (else ./host-overhead-logs).
# PART=split runs only bench/python/gpu_time_per_call.py: host time, queue-bound time and GPU time per
# call apart, with the CUDA runtime calls each call makes (a torch.profiler trace).
#   run: scripts/gpu-host-overhead.sh    or    PART=split scripts/gpu-host-overhead.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/carried.sh
cuperm_logs_begin "$PWD/host-overhead-logs"
export CUPERM_LIBRARY="$PWD/build-carry/lib/libcuperm.so" PYTHONPATH="$PWD/python"
if [ "${PART:-all}" = split ]; then
  python3 python/native/build_inplace.py >"$logs/native-build.log" 2>&1; echo "native build rc=$?"
  python3 bench/python/gpu_time_per_call.py --out "$logs" 2>&1 | tee "$logs/split.log"
  exit 0
fi
build-carry/bin/cuperm-host-overhead >"$logs/c.md" 2>&1; echo "cuperm-host-overhead rc=$?"
cat "$logs/c.md"
python3 python/native/build_inplace.py >"$logs/native-build.log" 2>&1; echo "native build rc=$?"
python3 bench/python/host_overhead.py --out "$logs" >"$logs/python.log" 2>&1; echo "host_overhead.py rc=$?"
tail -25 "$logs/python.log"
python3 bench/python/overhead_parts.py --number 50000 --rounds 3 >"$logs/parts.md" 2>&1
echo "overhead_parts.py rc=$?"
