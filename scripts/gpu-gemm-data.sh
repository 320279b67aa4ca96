#!/usr/bin/env bash
# Data for the contraction GEMM model from carried binaries (build-dt/: scripts/lib/make-carry.sh:
# cuperm_make_dtile_carry, plus cuperm-ctr-gemm-sweep and cuperm-device-rates copied beside it), one device call:
# cuperm-ctr-gemm-sweep's FAMILIES (default "wide deep all", f16) and, with SETS, every contraction
# candidate timed (scripts/gpu-ctr-candidates.sh; default sets there). CSVs gzip-compressed in $OUT.
#   run (carry build-dt): OUT=... [FAMILIES="wide deep"] [SETS=...] [LIMIT_S=...] scripts/gpu-gemm-data.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-gemm-data}; mkdir -p "$logs"
d=/tmp/dtile; mkdir -p "$d/lib"
xz -dc build-dt/libcuperm.so.0.xz >"$d/lib/libcuperm.so.0" && ln -sf libcuperm.so.0 "$d/lib/libcuperm.so" &&
  cp build-dt/libcmocka.so.0 "$d/lib/" || { echo "no build-dt/"; exit 1; }
export LD_LIBRARY_PATH="$d/lib"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
[ -x build-dt/cuperm-device-rates ] && build-dt/cuperm-device-rates | tee -a "$logs/gpu.txt" # the base of the fit
for fam in ${FAMILIES:-wide deep all}; do
  s=$(date +%s)
  timeout "${SWEEP_S:-240}" build-dt/cuperm-ctr-gemm-sweep "$logs/gemm-sweep-$fam.csv" f16 "$fam" >>"$logs/sweep.log" 2>&1
  echo "sweep $fam rc=$? ($(( $(date +%s) - s )) s): $(grep -vc '^#\|^dtype' "$logs/gemm-sweep-$fam.csv") GEMMs"
  gzip -f "$logs/gemm-sweep-$fam.csv"
done
if [ -n "${SETS+x}" ]; then
  OUT=$logs scripts/gpu-ctr-candidates.sh
  gzip -f "$logs"/candidates/*.csv
  tar czf "$logs/candidates.tgz" -C "$logs" candidates && rm -rf "$logs/candidates"
fi
