#!/usr/bin/env bash
# Host overhead per cached call on a GPU machine, from binaries built here for sm_90 and carried in
# build-dt/ (scripts/lib/make-carry.sh: cuperm_make_dtile_carry, plus cuperm-host-overhead):
#   1. cuperm-host-overhead: the C library's calls beside the CUDA and cuBLAS calls they are made of;
#   2. the Python package from this checkout with cuperm._native compiled in place
#      (python/native/build_inplace.py), bench/python/host_overhead.py (cuperm vs PyTorch vs CuPy)
#      and bench/python/overhead_parts.py (what a replayed call is made of).
# Logs and overhead.csv in $OUT (or ./host-overhead-logs).
#   run (carry build-dt): scripts/gpu-host-overhead.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/host-overhead-logs}; mkdir -p "$logs"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
d=/tmp/host-overhead; mkdir -p "$d"
xz -dc build-dt/libcuperm.so.0.xz >"$d/libcuperm.so.0" && ln -sf libcuperm.so.0 "$d/libcuperm.so" || exit 1
export LD_LIBRARY_PATH="$d" CUPERM_LIBRARY="$d/libcuperm.so" PYTHONPATH="$PWD/python" PYTHONUNBUFFERED=1
build-dt/cuperm-host-overhead >"$logs/c.md" 2>&1; echo "cuperm-host-overhead rc=$?"; cat "$logs/c.md"
python3 python/native/build_inplace.py >"$logs/native-build.log" 2>&1 || { echo "native build failed"; tail "$logs/native-build.log"; }
python3 bench/python/host_overhead.py --out "$logs" >"$logs/overhead.log" 2>&1; echo "host_overhead.py rc=$?"
tail -30 "$logs/overhead.log"
python3 bench/python/overhead_parts.py --number 20000 --rounds 3 >"$logs/parts.md" 2>&1; echo "overhead_parts.py rc=$?"
tail -40 "$logs/parts.md"
