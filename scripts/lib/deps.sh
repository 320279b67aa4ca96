# Sourced by the scripts: makes cmocka findable. Uses the system's when there
# is one; otherwise unpacks the Debian packages in .deps/ (for machines with
# no network, fetched beforehand with `apt-get download libcmocka0
# libcmocka-dev`); otherwise installs them with apt.
cuperm_find_cmocka() {
  pkg-config --exists cmocka 2>/dev/null && return 0
  if ls .deps/libcmocka*.deb >/dev/null 2>&1; then
    local root=/tmp/cuperm-deps pc
    for f in .deps/libcmocka*.deb; do dpkg -x "$f" "$root"; done
    pc="$root/usr/lib/x86_64-linux-gnu/pkgconfig"
    sed -i "s|/usr/|$root/usr/|g" "$pc/cmocka.pc"
    export PKG_CONFIG_PATH="$pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
    export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    return 0
  fi
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  echo "setup: installing libcmocka-dev"
  $sudo apt-get update -qq >/dev/null || true
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libcmocka-dev >/dev/null
}

# Puts the pinned wheel $2 (pip requirement $1) in place unless it is there already, and checks
# its SHA-256 ($3); otherwise says why and returns 1.
cuperm_fetch_wheel() {
  local spec=$1 whl=$2 sha=$3 py
  if [ ! -f "$whl" ]; then
    for py in "${CUPERM_VENV:-$PWD/.venv}/bin/python" python3; do
      command -v "$py" >/dev/null && "$py" -m pip --version >/dev/null 2>&1 && break
      py=""
    done
    if [ -z "$py" ] || ! "$py" -m pip download -q --no-deps --disable-pip-version-check -d "$(dirname "$whl")" \
        "$spec" >/dev/null 2>&1; then
      echo "setup: could not fetch $spec (no pip or no network)" >&2
      return 1
    fi
  fi
  if ! echo "$sha  $whl" | sha256sum -c --quiet >/dev/null 2>&1; then
    echo "setup: $whl does not have the pinned SHA-256" >&2
    return 1
  fi
}

# CUTLASS/CuTe headers for the Hopper GETT kernels (issue 15), pinned: the nvidia-cutlass
# wheel from PyPI carries them under cutlass_library/source/include. Unpacked into
# .deps/cutlass-$CUPERM_CUTLASS_VERSION/include; a wheel already in .deps/ is used as it is
# (machines with no network: copy it there beforehand). Sets CUPERM_CUTLASS_INCLUDE, or says
# why not and returns 1: cuperm then builds without the kernels that need CUTLASS.
CUPERM_CUTLASS_VERSION=4.2.0.0
CUPERM_CUTLASS_SHA256=f9599ada45c7bcb6bf53f7d3f0a7d154183e53451c01bfa59eecd37dd4a693f6
cuperm_find_cutlass() {
  local dir=".deps/cutlass-$CUPERM_CUTLASS_VERSION"
  local whl=".deps/nvidia_cutlass-$CUPERM_CUTLASS_VERSION-py3-none-any.whl"
  if [ ! -f "$dir/include/cute/tensor.hpp" ]; then
    mkdir -p .deps
    cuperm_fetch_wheel "nvidia-cutlass==$CUPERM_CUTLASS_VERSION" "$whl" "$CUPERM_CUTLASS_SHA256" ||
      { echo "setup: building without CUTLASS" >&2; return 1; }
    local tmp
    tmp=$(mktemp -d)
    if ! unzip -q "$whl" 'cutlass_library/source/include/*' -d "$tmp" 2>/dev/null &&
       ! python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); z.extractall(sys.argv[2], [n for n in z.namelist() if n.startswith("cutlass_library/source/include/")])' "$whl" "$tmp"; then
      rm -rf "$tmp"
      echo "setup: cannot unpack $whl (no unzip or python3); building without CUTLASS" >&2
      return 1
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    mv "$tmp/cutlass_library/source/include" "$dir/include"
    rm -rf "$tmp"
  fi
  export CUPERM_CUTLASS_INCLUDE="$PWD/$dir/include"
}

# cuTENSOR for `cuperm-bench --compare cutensor` (loaded with dlopen; cuperm never links it),
# pinned: the cutensor-cu13 wheel. cuperm_find_cutensor unpacks libcutensor.so.2 into
# .deps-cutensor/lib and sets CUPERM_BENCH_CUTENSOR, from the wheel in .deps-cutensor/, or from
# its pieces there (part-*, made by cuperm_split_cutensor on a machine with network, for GPU
# machines that take files only in small batches: bring them one at a time), or with pip. Kept
# apart from .deps/ (210 MB against the few MB the build needs there).
CUPERM_CUTENSOR_VERSION=2.8.1
CUPERM_CUTENSOR_WHEEL=cutensor_cu13-$CUPERM_CUTENSOR_VERSION-py3-none-manylinux2014_x86_64.whl
CUPERM_CUTENSOR_SHA256=49a6e319c956c2b80e4322d43a9442d595deea176413cd2fa2d45967edea09c5
cuperm_find_cutensor() {
  local dir=.deps-cutensor whl=".deps-cutensor/$CUPERM_CUTENSOR_WHEEL"
  if [ ! -f "$dir/lib/libcutensor.so.2" ]; then
    mkdir -p "$dir"
    if [ ! -f "$whl" ] && ls "$dir"/part-* >/dev/null 2>&1; then cat "$dir"/part-* >"$whl"; fi
    cuperm_fetch_wheel "cutensor-cu13==$CUPERM_CUTENSOR_VERSION" "$whl" "$CUPERM_CUTENSOR_SHA256" || return 1
    local tmp
    tmp=$(mktemp -d)
    if ! python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extract("cutensor/lib/libcutensor.so.2", sys.argv[2])' \
        "$whl" "$tmp"; then
      rm -rf "$tmp"
      echo "setup: cannot unpack $whl" >&2
      return 1
    fi
    mkdir -p "$dir/lib"
    mv "$tmp/cutensor/lib/libcutensor.so.2" "$dir/lib/"
    rm -rf "$tmp"
  fi
  export CUPERM_BENCH_CUTENSOR="$PWD/$dir/lib/libcutensor.so.2"
}

# Downloads the pinned cuTENSOR wheel into .deps-cutensor/ and splits it into 50 MiB pieces
# (part-aa, part-ab, ...) that cuperm_find_cutensor puts together again: a device call takes 64 MiB
# in all, and the working tree travels with each piece.
cuperm_split_cutensor() {
  local dir=.deps-cutensor whl=".deps-cutensor/$CUPERM_CUTENSOR_WHEEL"
  mkdir -p "$dir"
  cuperm_fetch_wheel "cutensor-cu13==$CUPERM_CUTENSOR_VERSION" "$whl" "$CUPERM_CUTENSOR_SHA256" || return 1
  rm -f "$dir"/part-*
  split -b 50M "$whl" "$dir/part-"
  ls -l "$dir"/part-*
}
