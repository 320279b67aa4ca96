#!/usr/bin/env bash
# Checks the Python package and the cuTT/LibreTT layer on a GPU machine, in one go:
#   pip install from the repository, the five-line quickstart, the pytest suite, the
#   cuTT-style C programs, and the comparison benchmark. Run from anywhere:
#   bench/python/device-check.sh [--bench-args "--limit 6 --reps 10"] [--no-bench]
# Logs go to /tmp/device-check; the main ones and the benchmark results are copied to $OUT if set.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
bench=1 bench_args=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-bench) bench=0 ;;
    --bench-args) bench_args="$2"; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
logs=/tmp/device-check
rm -rf "$logs"; mkdir -p "$logs"
summary=()
step() { summary+=("$(printf '%-22s %s' "$1" "$2")"); }
t() { date +%s; }

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"

# 1. pip install: scikit-build-core builds libcuperm and bundles it into the wheel.
s=$(t)
CMAKE_ARGS="-DCMAKE_CUDA_ARCHITECTURES=90" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
  python3 -m pip install --no-build-isolation --no-index --no-deps --force-reinstall ./python >"$logs/pip.log" 2>&1
rc=$?; step "pip install" "rc=$rc ($(( $(t) - s )) s)"
[ -n "${OUT:-}" ] && tail -60 "$logs/pip.log" >"$OUT/pip-tail.log"   # at most 8 files come back
[ $rc = 0 ] || tail -30 "$logs/pip.log"

# 2. The quickstart, run away from the source tree: the installed package must find its library.
(cd /tmp && python3 "$repo/python/examples/quickstart.py") >"$logs/quickstart.log" 2>&1
step "quickstart" "rc=$? $(tail -1 "$logs/quickstart.log")"

# 3. pytest (GPU tests included), also from outside the source tree. Numba's file runs in a
#    process of its own: numba-cuda can crash the interpreter when it fails to bind to the driver.
s=$(t)
(cd /tmp && python3 -m pytest -q -rs -p no:cacheprovider --ignore="$repo/python/tests/test_gpu_numba.py" \
   "$repo/python/tests") >"$logs/pytest.log" 2>&1
rc=$?; step "pytest" "rc=$rc $(tail -1 "$logs/pytest.log") ($(( $(t) - s )) s)"
(cd /tmp && python3 -m pytest -q -rs -p no:cacheprovider "$repo/python/tests/test_gpu_numba.py") \
  >>"$logs/pytest.log" 2>&1
rc=$?; step "pytest (numba)" "rc=$rc $(tail -1 "$logs/pytest.log")"
grep -E "FAILED|ERROR|SKIPPED|Fatal" "$logs/pytest.log" | head -40
[ -n "${OUT:-}" ] && cp "$logs/pytest.log" "$OUT/"

# 4. cuTT/LibreTT layer: its CPU test and the cuTT-style programs (cmocka from .deps/ if missing).
source scripts/lib/deps.sh
cuperm_find_cmocka
s=$(t)
build=build-dev-py
if cmake -S . -B "$build" -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TOOLS=OFF >"$logs/compat-build.log" 2>&1 &&
   cmake --build "$build" -j"$(nproc)" --target test_cutt_args test_cutt_program test_librett_program \
     >>"$logs/compat-build.log" 2>&1; then
  ctest --test-dir "$build" -R "cutt|librett" --output-on-failure >"$logs/compat-ctest.log" 2>&1
  rc=$?; step "cuTT layer (ctest)" "rc=$rc $(grep -E 'tests passed' "$logs/compat-ctest.log") ($(( $(t) - s )) s)"
  grep -E "^(ok|FAIL)|passed|failed" "$logs/compat-ctest.log" | head -30
  [ -n "${OUT:-}" ] && cp "$logs/compat-ctest.log" "$OUT/"
else
  tail -30 "$logs/compat-build.log"; step "cuTT layer" "BUILD FAILED"
fi

# 5. The comparison with PyTorch and CuPy.
if [ "$bench" = 1 ]; then
  s=$(t)
  # Written straight into $OUT: what ran comes back even if the command is cut short.
  bench_out="${OUT:-$logs/bench}"
  mkdir -p "$bench_out"
  # shellcheck disable=SC2086
  PYTHONUNBUFFERED=1 python3 bench/python/compare.py --out "$bench_out" $bench_args >"$bench_out/bench.log" 2>&1
  rc=$?; step "bench" "rc=$rc $(tail -1 "$bench_out/bench.log") ($(( $(t) - s )) s)"
  tail -45 "$bench_out/bench.log"
fi


echo
echo "==== device-check summary ($(head -1 "$logs/gpu.txt")) ===="
printf '%s\n' "${summary[@]}"
