#!/usr/bin/env bash
# Everything beside the C tests that needs the GPU machine, in one call: benchmarks of
# the library (transposes and contractions, to compare with bench/results/), the Python
# package (einsum tests and benchmark against torch/cupy, host overhead, the built
# wheel in a fresh venv) and the Fortran examples. Run from the repository root:
#   scripts/gpu-extras.sh [--bench "ttc57 --dtype f64 --mode heuristic" ...]
# Logs and CSVs go to $OUT (or ./gpu-extras-logs) as one tarball plus a summary.
set -uo pipefail
cd "$(dirname "$0")/.."
out="${OUT:-$PWD/gpu-extras-logs}"; work=/tmp/gpu-extras; mkdir -p "$out" "$work"
benches=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) benches+=("$2"); shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ ${#benches[@]} -gt 0 ] || benches=("ttc57 --dtype f64,f32 --mode heuristic" "tccg48 --dtype f32,f16 --mode model")
summary=()
add() { summary+=("$(printf '%-34s %s' "$1" "$2")"); }
export PATH="$PATH:/usr/local/cuda/bin"
source scripts/lib/deps.sh
cuperm_find_cmocka
build=build-gpu
if cmake -S . -B $build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >"$work/build.log" 2>&1 &&
   cmake --build $build -j"$(nproc)" --target cuperm cuperm-bench >>"$work/build.log" 2>&1; then
  add build ok
else
  tail -20 "$work/build.log"; add build FAILED
fi
mkdir -p "$work/bench"
for b in "${benches[@]}"; do
  tag=$(echo "$b" | awk '{print $1}')-$(echo "$b" | sed -n 's/.*--dtype \([^ ]*\).*/\1/p' | tr , _)
  timeout 300 "$build/tools/bench/cuperm-bench" $b --quiet --out "$work/bench" --tag "$tag" >"$work/bench-$tag.log" 2>&1
  add "bench $tag" "rc=$? $(grep -iE 'median' "$work/bench-$tag.log" | tail -2 | tr '\n' ' ')"
done
if [ -n "$(ls dist/*.whl 2>/dev/null)" ]; then
  timeout 240 bench/python/wheel-check.sh dist/*.whl >"$work/wheel.log" 2>&1
  add "wheel in a fresh venv" "rc=$? $(tail -1 "$work/wheel.log")"
fi
OUT="$work/einsum" CUPERM_LIBRARY=$build/src/libcuperm.so timeout 400 bench/python/einsum-check.sh >"$work/einsum.log" 2>&1
add "python einsum tests + TCCG48" "rc=$? $(grep -E 'pytest rc' "$work/einsum.log" | tail -1)"
if command -v gfortran >/dev/null; then
  OUT="$work/fortran" CUPERM_BUILD_DIR=build-fortran timeout 200 fortran/gpu-check.sh >"$work/fortran.log" 2>&1
  add "fortran examples" "rc=$? $(tail -1 "$work/fortran.log")"
else
  add "fortran examples" "not run: no gfortran on this machine"
fi
(cd "$work" && tar czf "$out/gpu-extras.tgz" .)
{ echo "==== gpu-extras summary ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)) ===="
  printf '%s\n' "${summary[@]}"; } | tee "$out/summary.txt"
