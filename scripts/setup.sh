#!/usr/bin/env bash
# Installs what building cuperm needs and is missing: CMake, a C compiler and
# pkg-config (Debian packages). cmocka comes from scripts/lib/deps.sh, which the
# scripts source. The CUDA toolkit (nvcc) must already be installed.
#   scripts/setup.sh            # build tools only: no Python needed (scripts/run.sh)
#   scripts/setup.sh --python   # also the test tools in ./.venv (scripts/test.sh):
#                               # numpy, pytest, and cuobjdump when the toolkit has none
# The system Python is never changed: the test tools go into a project-local
# virtual environment (Debian's Python refuses pip installs, PEP 668).
set -euo pipefail
cd "$(dirname "$0")/.."

python=0
[ "${1:-}" = --python ] && python=1

apt_install() {
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  echo "setup: installing $*"
  $sudo apt-get update -qq >/dev/null || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

need_apt=()
command -v cmake >/dev/null || need_apt+=(cmake)
command -v cc >/dev/null || need_apt+=(build-essential)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)
if [ "$python" = 1 ]; then
  command -v python3 >/dev/null || need_apt+=(python3)
fi
[ ${#need_apt[@]} -eq 0 ] || apt_install "${need_apt[@]}"

if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup: nvcc is in /usr/local/cuda/bin; add it to PATH"
fi
command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ] ||
  { echo "setup: the CUDA toolkit (nvcc) is required" >&2; exit 1; }

[ "$python" = 1 ] || exit 0
source scripts/lib/venv.sh
cuperm_venv_setup
