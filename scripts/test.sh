#!/usr/bin/env bash
# Builds cuperm and runs every test: CPU tests everywhere; GPU tests run on a
# machine with a GPU and print SKIPPED elsewhere. The Python tools (numpy,
# pytest) live in ./.venv, made here; the system Python is not changed.
#   CUPERM_CUDA_ARCHITECTURES=90 scripts/test.sh   # build for one architecture only (faster)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CUPERM_BUILD_DIR:-build}
export PATH="$PATH:/usr/local/cuda/bin"
scripts/setup.sh --python
venv_python="$PWD/.venv/bin/python"
source scripts/lib/build.sh
cuperm_build "$build" -DPython3_EXECUTABLE="$venv_python"
ctest --test-dir "$build" --output-on-failure
# The Python package, against the library just built (GPU tests skip with a reason).
CUPERM_LIBRARY="$PWD/$build/src/libcuperm.so" "$venv_python" -m pytest -q -rs -p no:cacheprovider python/tests
