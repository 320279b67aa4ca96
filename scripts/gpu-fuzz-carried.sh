#!/usr/bin/env bash
# The differential fuzz test (tests/fuzz/cuperm-fuzz: regression cases, random contractions and
# transposes against the double-precision reference) on a build made elsewhere for sm_90, carried
# xz-compressed (it links the library statically): build-fz/cuperm-fuzz.xz. Log in $OUT (or
# ./gpu-fuzz-logs). FUZZ_CONTRACTIONS (3000), FUZZ_TRANSPOSES (30000), FUZZ_SEED (1). With
# SANITIZE=1, then compute-sanitizer on shorter runs of the same program (another seed): memcheck
# (SAN_TRANSPOSES 300, SAN_CONTRACTIONS 30) and racecheck (SAN_TRANSPOSES / 3 transposes).
#   run (carry build-fz): [SANITIZE=1] scripts/gpu-fuzz-carried.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-fuzz-logs}; mkdir -p "$logs"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
exe=${FUZZ_EXE:-/tmp/cuperm-fuzz} # FUZZ_EXE: the program already unpacked (scripts/gpu-spans-check.sh)
[ -n "${FUZZ_EXE:-}" ] || { xz -dc build-fz/cuperm-fuzz.xz >"$exe" && chmod +x "$exe"; } || { echo "no build-fz/cuperm-fuzz.xz"; exit 1; }
start=$(date +%s)
timeout 540 "$exe" --contractions "${FUZZ_CONTRACTIONS:-3000}" --transposes "${FUZZ_TRANSPOSES:-30000}" \
  --seed "${FUZZ_SEED:-1}" --quiet >"$logs/fuzz.log" 2>&1
echo "cuperm-fuzz rc=$? ($(($(date +%s) - start)) s)"
grep -E '^(REPRO|  FAILED)' "$logs/fuzz.log" | head -20
tail -3 "$logs/fuzz.log"
if [ "${SANITIZE:-0}" = 1 ]; then
  cs=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
  if [ -z "$cs" ]; then echo "compute-sanitizer: SKIPPED (not found)"; exit 0; fi
  nt=${SAN_TRANSPOSES:-300} nc=${SAN_CONTRACTIONS:-30}
  timeout 240 "$cs" --tool memcheck --error-exitcode 9 "$exe" --transposes $nt --contractions $nc --seed 77 --quiet \
    >"$logs/memcheck.log" 2>&1
  echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' "$logs/memcheck.log" | tail -1) | $(tail -1 "$logs/memcheck.log")"
  timeout 240 "$cs" --tool racecheck --error-exitcode 9 "$exe" --transposes $((nt / 3)) --contractions 0 --seed 78 \
    --quiet >"$logs/racecheck.log" 2>&1
  echo "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$logs/racecheck.log" | tail -1)"
fi
