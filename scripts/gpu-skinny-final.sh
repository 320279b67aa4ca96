#!/usr/bin/env bash
# End-of-work check of the skinny GETT kernel, from binaries carried in build-dt/
# (scripts/lib/make-carry.sh: cuperm_make_dtile_carry), in one device call:
#   1. scripts/gpu-dtile-check.sh (its SKIP list overridable): test_gett_gpu (CUPERM_GETT_DTILE=1) and TCCG48 default plans,
#      f16 and bf16 (VARIANTS, default "ttgt table": the default plans and GETT forced);
#   2. compute-sanitizer memcheck and racecheck on test_gett_gpu's skinny cases;
#   3. scripts/gpu-skinny-check.sh: random contractions (shapes nobody tuned on), skinny on / off.
# Every log in $OUT/logs.tgz (the device tool brings back 8 files); summaries on stdout.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
out=${OUT:-$PWD/gpu-skinny-final}; mkdir -p "$out"
work=/tmp/skinny-final; rm -rf "$work"; mkdir -p "$work"
OUT="$work/dtile" SKIP=${SKIP:-gather-tests,table-tests,fuzz,memcheck,racecheck} VARIANTS="${VARIANTS:-ttgt table}" \
  DTYPES="f16 bf16" scripts/gpu-dtile-check.sh 2>&1 | grep -vE '^ +[0-9]+ ' | tail -20
export LD_LIBRARY_PATH=/tmp/dtile/lib
for tool in memcheck racecheck; do
  CUPERM_GETT_TEST_FILTER=test_skinny timeout 300 compute-sanitizer --tool $tool --error-exitcode 99 \
    build-dt/test_gett_gpu >"$work/$tool-skinny.log" 2>&1
  echo "$tool test_skinny rc=$?: $(grep -E 'skinny:|ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$work/$tool-skinny.log" | tr '\n' ' ' | cut -c1-300)"
done
OUT="$work/small" SKIP=tccg scripts/gpu-skinny-check.sh 2>&1 | tail -12
cp "$work"/dtile/cases-*.txt "$out/" 2>/dev/null
tar -czf "$out/logs.tgz" -C "$work" .
