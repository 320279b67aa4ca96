#!/usr/bin/env bash
# tools/probe/dwrite.cu on one GPU (issue 15: can the short-K D-tile contractions write D at copy speed with
# warps that read their mma fragments from L2 and never wait for each other?), from build-dw/cuperm-dwrite-probe
# (built for sm_90: make cuperm-dwrite-probe, or nvcc as in the file's header). RUNS: the probe's argument
# lists, ";"-separated (options, then M N K triples); default: TCCG 31's and 32's GEMM shapes. SANITIZE=1 adds
# compute-sanitizer memcheck and racecheck on a small case. BASELINE=1 adds the library's TCCG48 f16 model
# plans from build-dt/ (scripts/lib/make-carry.sh: cuperm_make_dtile_carry; TCCG 31-48 take the D-tile packed
# kernel or TTGT) in the same call. Output in $OUT/probe.txt (and $OUT/tccg48/).
#   run (carry build-dw [build-dt]): OUT=... [RUNS="--wn 32 --cpu 8 9216 4096 24"] [BASELINE=1] scripts/gpu-dwrite-probe.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/dwrite-probe}; mkdir -p "$out"
bin=build-dw/cuperm-dwrite-probe
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
IFS=';' read -ra runs <<<"${RUNS:---wn 32 --cpu 8 9216 4096 24 6144 6144 24;--wn 64 --cpu 8 9216 4096 24}"
for r in "${runs[@]}"; do
  echo "== $r" | tee -a "$out/probe.txt"
  # shellcheck disable=SC2086
  timeout 200 $bin $r 2>&1 | tee -a "$out/probe.txt"
done
if [ "${SANITIZE:-0}" = 1 ]; then
  for tool in memcheck racecheck; do
    timeout 120 compute-sanitizer --tool $tool $bin --check --wn 32 --cpu 4 512 1024 24 >"$out/$tool.log" 2>&1
    echo "$tool rc=$?: $(grep -E 'SUMMARY' "$out/$tool.log" | tail -1)" | tee -a "$out/probe.txt"
  done
fi
if [ "${BASELINE:-0}" = 1 ]; then
  d=/tmp/dwrite-lib; mkdir -p $d
  xz -dc build-dt/libcuperm.so.0.xz >$d/libcuperm.so.0 && ln -sf libcuperm.so.0 $d/libcuperm.so && cp build-dt/libcmocka.so.0 $d/
  mkdir -p "$out/tccg48"
  LD_LIBRARY_PATH=$d timeout 200 build-dt/cuperm-bench tccg48 --dtype f16 --mode model --out "$out/tccg48" >"$out/tccg48.log" 2>&1
  echo "tccg48 rc=$?: $(tail -1 "$out/tccg48.log")" | tee -a "$out/probe.txt"
fi
