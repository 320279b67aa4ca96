#!/usr/bin/env bash
# Installs what building and testing cuperm needs and is missing: CMake, a C
# compiler and pkg-config (Debian packages), numpy and pytest for the Python
# tests. cmocka comes from scripts/lib/deps.sh, which the scripts source. The
# CUDA toolkit (nvcc) must already be installed.
set -euo pipefail

need_apt=()
command -v cmake >/dev/null || need_apt+=(cmake)
command -v cc >/dev/null || need_apt+=(build-essential)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)
if [ ${#need_apt[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  echo "setup: installing ${need_apt[*]}"
  $sudo apt-get update -qq >/dev/null || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc is in /usr/local/cuda/bin; add it to PATH"
fi
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] ||
  { echo "setup: the CUDA toolkit (nvcc) is required" >&2; exit 1; }

python3 -c 'import numpy, pytest' 2>/dev/null ||
  python3 -m pip install -q numpy pytest
