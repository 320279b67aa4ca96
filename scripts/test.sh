#!/usr/bin/env bash
# Builds cuperm and runs every test: CPU tests everywhere; GPU tests run on a
# machine with a GPU and print SKIPPED elsewhere.
#   CUPERM_CUDA_ARCHITECTURES=90 scripts/test.sh   # build for one architecture only (faster)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
scripts/setup.sh
source scripts/lib/deps.sh
cuperm_find_cmocka

build=${CUPERM_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
  ${CUPERM_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES="$CUPERM_CUDA_ARCHITECTURES"} >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure
# The Python package, against the library just built (GPU tests skip with a reason).
CUPERM_LIBRARY="$PWD/$build/src/libcuperm.so" python3 -m pytest -q -rs python/tests
