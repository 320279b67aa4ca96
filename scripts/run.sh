#!/usr/bin/env bash
# The main job: install what is missing, build, install into ./install, then
# (with a GPU) run the example and a short TTC benchmark. Needs no Python.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${CUPERM_BUILD_DIR:-build}
source scripts/lib/build.sh
cuperm_build "$build"
cmake --install "$build" --prefix "$PWD/install" >/dev/null
echo "run: installed into $PWD/install (include/cuperm.h, lib/libcuperm.*, bin/cuperm-bench, CMake and pkg-config files)"
# The installed program finds lib/libcuperm.so.0 through its RPATH.
install/bin/cuperm-bench --version

if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "run: no NVIDIA GPU found here: the library is built and installed; the example and benchmark need a GPU"
  exit 0
fi
"$build/examples/cuperm-example"
install/bin/cuperm-bench ttc57 --dtype f64 --mode heuristic --limit 12
