#!/usr/bin/env bash
# cuperm against cuTENSOR on the same run (issue "Contractions, part 2"): builds cuperm-bench
# for sm_90 and runs `cuperm-bench tccg48 --compare cutensor`, then the same on
# random-contractions (cuTENSOR 2's default plans, loaded with dlopen; every cuTENSOR D checked
# against cuperm's) for the given element types, model plans. cuTENSOR comes from scripts/lib/deps.sh's cuperm_find_cutensor: the pinned
# wheel in .deps-cutensor/, its pieces there (cuperm_split_cutensor; bring them to a machine
# without network one at a time), or pip. From the repository root on the device machine:
#   DTYPES=f32,f16 scripts/gpu-cutensor-compare.sh [--jit] [more cuperm-bench options]
# Logs and CSVs go to $OUT (or ./gpu-cutensor-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs="${OUT:-$PWD/gpu-cutensor-logs}"
mkdir -p "$logs"
compare=cutensor
if [ "${1:-}" = --jit ]; then compare=cutensor-jit; shift; fi
source scripts/lib/deps.sh
cuperm_find_cutensor || exit 1
build=build-bench
if ! { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF \
         >"$logs/build.log" 2>&1 &&
       cmake --build "$build" -j"$(nproc)" --target cuperm-bench >>"$logs/build.log" 2>&1; }; then
  tail -30 "$logs/build.log"
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
"$build/tools/bench/cuperm-bench" tccg48 --dtype "${DTYPES:-f32,f16}" --mode model --compare "$compare" --quiet \
  --out "$logs" --tag "tccg48-$compare" "$@" 2>&1 | tee "$logs/bench.log"
rc=${PIPESTATUS[0]}
# Shapes the planner was not fitted to (RANDOM_CASES=0 skips them).
if [ "${RANDOM_CASES:-1}" != 0 ]; then
  "$build/tools/bench/cuperm-bench" random-contractions --dtype "${DTYPES:-f32,f16}" --mode model --compare "$compare" \
    --quiet --out "$logs" --tag "random-$compare" "$@" 2>&1 | tee -a "$logs/bench.log"
  [ "${PIPESTATUS[0]}" = 0 ] || rc=1
fi
exit "$rc"
