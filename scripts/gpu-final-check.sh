#!/usr/bin/env bash
# A session's final GPU check of binaries built here for sm_90 and carried in one xz tarball
# (build-xz/final.tar.xz: build-carry/ from scripts/lib/make-carry.sh and
# build-fz-raw/cuperm-fuzz): every carried GPU test program, the differential fuzz test, memcheck
# on two of the programs and racecheck on the transpose test. Logs in $OUT (or ./gpu-final-logs).
#   FUZZ_SEED (2031), FUZZ_TRANSPOSES (30000), FUZZ_CONTRACTIONS (3000)
set -uo pipefail
cd "$(dirname "$0")/.."
tar -xJf build-xz/final.tar.xz || exit 1
source scripts/lib/carried.sh
cuperm_carried_begin "$PWD/gpu-final-logs"
cuperm_carried_tests
start=$(date +%s)
timeout 300 build-fz-raw/cuperm-fuzz --contractions "${FUZZ_CONTRACTIONS:-3000}" \
  --transposes "${FUZZ_TRANSPOSES:-30000}" --seed "${FUZZ_SEED:-2031}" --quiet >"$logs/fuzz.log" 2>&1
echo "cuperm-fuzz rc=$? ($(($(date +%s) - start)) s)"
grep -E '^(REPRO|  FAILED)' "$logs/fuzz.log" | head -20
tail -2 "$logs/fuzz.log"
cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -n "$cs" ]; then
  for t in test_gpu_errors test_ctr_gpu; do
    timeout 150 "$cs" --tool memcheck --error-exitcode 9 build-carry/bin/$t >"$logs/memcheck-$t.log" 2>&1
    echo "memcheck $t rc=$? $(grep -E 'ERROR SUMMARY' "$logs/memcheck-$t.log" | tail -1)"
  done
  timeout 120 "$cs" --tool racecheck --error-exitcode 9 build-carry/bin/test_gpu_transpose >"$logs/racecheck.log" 2>&1
  echo "racecheck test_gpu_transpose rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$logs/racecheck.log" | tail -1)"
else
  echo "compute-sanitizer: SKIPPED (not found)"
fi
cuperm_pack_logs
