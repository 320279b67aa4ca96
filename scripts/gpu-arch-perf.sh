#!/usr/bin/env bash
# Issue 13's performance check after the reorganisation, in one GPU call: builds cuperm-bench
# for sm_90 from this tree and runs the suites that were not re-measured (TTC-57 2- and 1-byte,
# perm720, the 32768^2 square), plus TCCG48 with ReLU on A, B and D. With --before BIN, the
# same TCCG48 ReLU runs also with BIN (a cuperm-bench built from an older tree, e.g. the one
# with the gather kernel for operators) in the same call, back to back.
#   scripts/gpu-arch-perf.sh [--before BIN] [--budget S] [--only TAG-PREFIX]
# Results: $OUT (or ./gpu-arch-perf) holds the CSVs, summaries and logs.
set -uo pipefail
cd "$(dirname "$0")/.."
before="" budget=540 only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --before) before=$2; shift ;;
    --budget) budget=$2; shift ;;
    --only) only=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
out="${OUT:-$PWD/gpu-arch-perf}"
mkdir -p "$out"
start=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
export PATH="$PATH:/usr/local/cuda/bin"
cmake -S . -B build-perf -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF \
  -DCUPERM_BUILD_FORTRAN=OFF >"$out/build.log" 2>&1 &&
  cmake --build build-perf -j"$(nproc)" --target cuperm-bench >>"$out/build.log" 2>&1 ||
  { tail -20 "$out/build.log"; exit 1; }
echo "build: $(( $(date +%s) - start )) s"
bench=build-perf/tools/bench/cuperm-bench
left() { echo $(( budget - ($(date +%s) - start) )); }
run() { # TAG BIN ARGS...: one suite, its summary kept, skipped when the budget is gone
  local tag=$1 bin=$2; shift 2
  case "$tag" in $only*) ;; *) return ;; esac
  if [ "$(left)" -lt 30 ]; then echo "SKIPPED $tag: budget spent"; return; fi
  echo "== $tag: $bin $*"
  timeout "$(left)" "$bin" "$@" --quiet --out "$out" --tag "$tag" >"$out/$tag.log" 2>&1
  echo "rc=$?"; cat "$out/$tag"*summary.txt 2>/dev/null | grep -E "all |ratio|geomean|verification|mismatch" | head -12
}
run tccg48-relu-after "$bench" tccg48 --dtype f32,f16 --mode model --ops relu,relu,relu
[ -n "$before" ] && run tccg48-relu-before "$before" tccg48 --dtype f32,f16 --mode model --ops relu,relu,relu
run tccg48-plain-after "$bench" tccg48 --dtype f32,f16 --mode model
run ttc57-f16_i8 "$bench" ttc57 --dtype f16,i8 --mode heuristic
run square-f32 "$bench" square --mode heuristic
run perm720-f64 "$bench" perm720 --mode heuristic --target-ms 40
echo "total: $(( $(date +%s) - start )) s"
# the device tool returns few files: everything in one archive
(cd "$out" && tar czf results.tgz --exclude results.tgz ./* && find . -type f ! -name results.tgz -delete)
