#!/usr/bin/env bash
# Builds cuperm and runs every test: CPU tests everywhere; GPU tests run on a
# machine with a GPU and print SKIPPED elsewhere.
#   CUPERM_CUDA_ARCHITECTURES=90 scripts/test.sh   # build for one architecture only (faster)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CUPERM_BUILD_DIR:-build}
source scripts/lib/build.sh
cuperm_build "$build"
ctest --test-dir "$build" --output-on-failure
# The Python package, against the library just built (GPU tests skip with a reason).
CUPERM_LIBRARY="$PWD/$build/src/libcuperm.so" python3 -m pytest -q -rs python/tests
