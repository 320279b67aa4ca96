#!/usr/bin/env bash
# Builds cuperm with the Fortran bindings for sm_90 and runs the Fortran tests
# and both examples on the GPU; fails if an example was skipped or wrong. Run
# it on the GPU machine (from anywhere in the repository):
#   fortran/gpu-check.sh
# Logs go to $OUT (or ./gpu-check-logs); the build to $CUPERM_BUILD_DIR (default build-gpu).
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-check-logs}"
mkdir -p "$logs"
build=${CUPERM_BUILD_DIR:-build-gpu}
export PATH="$PATH:/usr/local/cuda/bin"

fc=${FC:-$(command -v gfortran || true)}
if [ -z "$fc" ]; then
  echo "fortran/gpu-check.sh: no Fortran compiler (install gfortran, or set FC)" >&2
  exit 2
fi
echo "Fortran compiler: $fc ($("$fc" --version | head -1))"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | tee "$logs/fortran-gpu.txt"

# The tests' CMake needs cmocka (from the system or .deps/, see scripts/lib/deps.sh).
source scripts/lib/deps.sh
cuperm_find_cmocka

if ! { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
         -DCUPERM_BUILD_FORTRAN=ON -DCMAKE_Fortran_COMPILER="$fc" &&
       cmake --build "$build" -j"$(nproc)" --target test_fortran_api \
         cuperm-fortran-transpose_example cuperm-fortran-contraction_example; } >"$logs/fortran-build.log" 2>&1; then
  tail -30 "$logs/fortran-build.log"
  echo "FORTRAN GPU CHECK: build FAILED (log: $logs/fortran-build.log)"
  exit 1
fi
if [ ! -x "$build/fortran/test_fortran_api" ]; then
  grep -i fortran "$logs/fortran-build.log" | tail -5
  echo "FORTRAN GPU CHECK: the Fortran bindings were not configured"
  exit 1
fi

rc=0
ctest --test-dir "$build" -R fortran --output-on-failure -j1 2>&1 | tee "$logs/fortran-ctest.log" || rc=1
# ctest counts a skipped test as passed: on the GPU machine the examples must really run.
for example in transpose_example contraction_example; do
  out=$("$build/fortran/cuperm-fortran-$example" 2>&1); erc=$?
  echo "$out" | tee -a "$logs/fortran-examples.log"
  if [ $erc -ne 0 ] || ! echo "$out" | grep -q "$example: OK"; then
    echo "$example: FAILED (rc=$erc)"; rc=1
  fi
done
if [ $rc -eq 0 ]; then echo "FORTRAN GPU CHECK: OK"; else echo "FORTRAN GPU CHECK: FAILED"; fi
exit $rc
