# Sourced by the scripts: configures and builds cuperm into $1 (default
# build), installing what is missing first. CUPERM_CUDA_ARCHITECTURES
# overrides the CUDA architectures (default: sm_80 and sm_90).
cuperm_build() {
  local build=${1:-build}
  export PATH="$PATH:/usr/local/cuda/bin"
  scripts/setup.sh
  source scripts/lib/deps.sh
  cuperm_find_cmocka
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
    ${CUPERM_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES="$CUPERM_CUDA_ARCHITECTURES"} >/dev/null
  cmake --build "$build" -j"$(nproc)"
}
