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
  local archs=()
  if [ -n "${CUPERM_CUDA_ARCHITECTURES:-}" ]; then
    archs=(-DCMAKE_CUDA_ARCHITECTURES="$CUPERM_CUDA_ARCHITECTURES")
  elif [ -f "$build/CMakeCache.txt" ] && ! grep -q '^CUPERM_CUDA_ARCHITECTURES_SEEN' "$build/CMakeCache.txt"; then
    # A build directory from before CMakeLists.txt set the default holds nvcc's
    # default (compute_75 PTX only): drop it so that the default applies.
    archs=(-UCMAKE_CUDA_ARCHITECTURES)
  fi
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release "${archs[@]}" "$@" >/dev/null
  cmake --build "$build" -j"$(nproc)"
}
