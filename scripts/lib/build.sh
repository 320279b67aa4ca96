# Sourced by the scripts: configures and builds cuperm into $1 (default
# build), installing what is missing first; further arguments go to cmake.
# CUPERM_CUDA_ARCHITECTURES overrides the CUDA architectures (default, set in
# CMakeLists.txt: sm_80 and sm_90 machine code plus compute_90 PTX).
cuperm_build() {
  local build=${1:-build}
  shift || true
  export PATH="$PATH:/usr/local/cuda/bin"
  scripts/setup.sh
  source scripts/lib/deps.sh
  cuperm_find_cmocka
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
    ${CUPERM_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES="$CUPERM_CUDA_ARCHITECTURES"} "$@" >/dev/null
  cmake --build "$build" -j"$(nproc)"
}
