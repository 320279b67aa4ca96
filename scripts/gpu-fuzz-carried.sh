#!/usr/bin/env bash
# The differential fuzz test (tests/fuzz/cuperm-fuzz: regression cases, random contractions and
# transposes against the double-precision reference) on a build made elsewhere for sm_90, carried
# xz-compressed (it links the library statically): build-fz/cuperm-fuzz.xz. Log in $OUT (or
# ./gpu-fuzz-logs). FUZZ_CONTRACTIONS (3000), FUZZ_TRANSPOSES (30000), FUZZ_SEED (1).
#   run (carry build-fz): scripts/gpu-fuzz-carried.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-fuzz-logs}; mkdir -p "$logs"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
exe=/tmp/cuperm-fuzz
xz -dc build-fz/cuperm-fuzz.xz >"$exe" && chmod +x "$exe" || { echo "no build-fz/cuperm-fuzz.xz"; exit 1; }
start=$(date +%s)
timeout 540 "$exe" --contractions "${FUZZ_CONTRACTIONS:-3000}" --transposes "${FUZZ_TRANSPOSES:-30000}" \
  --seed "${FUZZ_SEED:-1}" --quiet >"$logs/fuzz.log" 2>&1
echo "cuperm-fuzz rc=$? ($(($(date +%s) - start)) s)"
grep -E '^(REPRO|  FAILED)' "$logs/fuzz.log" | head -20
tail -3 "$logs/fuzz.log"
