#!/usr/bin/env bash
# The table GETT kernel's warp-specialised wgmma form (backend/cuda/gett/gett_wgmma_ws.cu) on one GPU, from
# build-dt/ (scripts/lib/make-carry.sh: cuperm_make_dtile_carry): test_gett_gpu on it (CUPERM_GETT_WGMMA=ws);
# only if that passes, compute-sanitizer memcheck (and racecheck with RACECHECK=1) on its random cases, then
# TCCG48 (DTYPES, default f16) with GETT forced on it, on the plain wgmma form and the default plans, side by
# side (scripts/gpu-dtile-check.sh's variants ws, wgmma, ttgt; VARIANTS overrides). Logs in $OUT.
#   run (carry build-dt): OUT=... scripts/gpu-wgmma-ws-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-ws-logs}; mkdir -p "$logs"
d=/tmp/dtile; mkdir -p "$d/lib"
xz -dc build-dt/libcuperm.so.0.xz >"$d/lib/libcuperm.so.0" && ln -sf libcuperm.so.0 "$d/lib/libcuperm.so" &&
  cp build-dt/libcmocka.so.0 "$d/lib/" || { echo "no build-dt/"; exit 1; }
export LD_LIBRARY_PATH="$d/lib" PATH="$PATH:/usr/local/cuda/bin"
s=$(date +%s)
CUPERM_GETT_WGMMA=ws timeout "${TEST_TIMEOUT:-150}" build-dt/test_gett_gpu >"$logs/test_gett_wgmma_ws_gpu.log" 2>&1
rc=$?
echo "test_gett_wgmma_ws_gpu rc=$rc ($(( $(date +%s) - s )) s)"
grep -E '^\[  (PASSED|FAILED)|^FAILED|wgmma form|random:|REPRO' "$logs/test_gett_wgmma_ws_gpu.log" | head -20
[ $rc = 0 ] || exit $rc
for tool in memcheck ${RACECHECK:+racecheck}; do
  s=$(date +%s)
  CUPERM_GETT_WGMMA=ws CUPERM_GETT_TEST_FILTER=test_random CUPERM_GETT_TEST_CASES=${SANITIZE_CASES:-24} timeout 200 \
    compute-sanitizer --tool $tool --error-exitcode 99 build-dt/test_gett_gpu >"$logs/$tool-ws.log" 2>&1
  echo "$tool rc=$? ($(( $(date +%s) - s )) s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/$tool-ws.log" | tail -1)"
done
OUT=$logs SKIP=tests,fuzz,memcheck,ctr-memcheck,racecheck VARIANTS="${VARIANTS:-ws wgmma ttgt}" DTYPES="${DTYPES:-f16}" \
  scripts/gpu-dtile-check.sh
