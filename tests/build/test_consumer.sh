#!/usr/bin/env bash
# Installs the built tree into a temporary prefix and builds examples/consumer
# against it the ways a user would: CMake (find_package(cuperm), cuperm::cuperm,
# cuperm::cuperm_static, cuperm::cuperm_cutt) and pkg-config (cuperm shared and
# --static, cuperm_cutt). The programs run too: without arguments they need no
# GPU. Also runs the installed cuperm-bench --version with no LD_LIBRARY_PATH
# (its RPATH must find libcuperm.so.0). Needs no GPU.
#   test_consumer.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/cuperm-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
export PATH="$PATH:/usr/local/cuda/bin"
unset LD_LIBRARY_PATH

step() { echo "== $*"; }
check_run() { # expected fragment of the output, program and arguments
  local want=$1 out rc=0
  shift
  out=$("$@" 2>&1) || rc=$?
  echo "$out"
  [ $rc = 0 ] || { echo "FAIL: $* exited $rc"; exit 1; }
  grep -qF "$want" <<<"$out" || { echo "FAIL: $* printed no \"$want\""; exit 1; }
}
needs_libcuperm_so() { readelf -d "$1" | grep -q 'NEEDED.*\[libcuperm\.so'; }

step "install into $prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(sed -n 's|^libdir=\${prefix}/||p' "$prefix"/lib*/pkgconfig/cuperm.pc)
for f in include/cuperm.h include/cutt.h "$libdir/libcuperm.so.0" "$libdir/libcuperm.a" \
         "$libdir/libcuperm_cutt.so" "$libdir/pkgconfig/cuperm.pc" "$libdir/pkgconfig/cuperm_cutt.pc" \
         "$libdir/cmake/cuperm/cupermConfig.cmake"; do
  [ -e "$prefix/$f" ] || { echo "FAIL: the install lacks $f"; exit 1; }
done

if [ -x "$prefix/bin/cuperm-bench" ]; then
  step "installed cuperm-bench finds libcuperm through its RPATH"
  readelf -d "$prefix/bin/cuperm-bench" | grep -E 'RPATH|RUNPATH'
  check_run "cuperm-bench, cuperm" "$prefix/bin/cuperm-bench" --version
fi

want="status 1 is CUPERM_STATUS_INVALID_VALUE"

step "CMake consumer: find_package(cuperm) with CMAKE_PREFIX_PATH"
cmake -S "$src/examples/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$prefix" >"$work/cmake.log" 2>&1 ||
  { cat "$work/cmake.log"; echo "FAIL: configuring the consumer"; exit 1; }
cmake --build "$work/cmake" >"$work/cmake-build.log" 2>&1 ||
  { cat "$work/cmake-build.log"; echo "FAIL: building the consumer"; exit 1; }
check_run "$want" "$work/cmake/consumer"
needs_libcuperm_so "$work/cmake/consumer" || { echo "FAIL: consumer does not use libcuperm.so"; exit 1; }
check_run "$want" "$work/cmake/consumer_static"
! needs_libcuperm_so "$work/cmake/consumer_static" ||
  { echo "FAIL: consumer_static needs libcuperm.so: cuperm::cuperm_static did not link the archive"; exit 1; }
check_run "rank = 0" "$work/cmake/consumer_cutt"

step "pkg-config consumer: PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig"
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
cc_() { echo "cc $*"; cc "$@"; }
cc_ -o "$work/pc_shared" "$src/examples/consumer/consumer.c" $(pkg-config --cflags --libs cuperm) \
    -Wl,-rpath,"$prefix/$libdir"
check_run "$want" "$work/pc_shared"
cc_ -o "$work/pc_cutt" "$src/examples/consumer/consumer_cutt.c" $(pkg-config --cflags --libs cuperm_cutt) \
    -Wl,-rpath,"$prefix/$libdir"
check_run "rank = 0" "$work/pc_cutt"

step "pkg-config consumer, static, as the README says: pkg-config --cflags --libs cuperm-static"
cc_ -o "$work/pc_bstatic" "$src/examples/consumer/consumer.c" $(pkg-config --cflags --libs cuperm-static)
check_run "$want" "$work/pc_bstatic"
! needs_libcuperm_so "$work/pc_bstatic" || { echo "FAIL: pc_bstatic needs libcuperm.so"; exit 1; }

# Static: an install holding only libcuperm.a, so that -lcuperm can only mean the
# archive and everything else must come from Libs.private.
step "pkg-config consumer, static: pkg-config --static --libs cuperm"
cp -a "$prefix" "$work/static-prefix"
rm -f "$work/static-prefix/$libdir"/libcuperm.so* "$work/static-prefix/$libdir"/libcuperm_cutt.so*
export PKG_CONFIG_PATH="$work/static-prefix/$libdir/pkgconfig"
cc_ -o "$work/pc_static" "$src/examples/consumer/consumer.c" $(pkg-config --cflags --static --libs cuperm)
check_run "$want" "$work/pc_static"
! needs_libcuperm_so "$work/pc_static" || { echo "FAIL: pc_static needs libcuperm.so"; exit 1; }
echo "PASS: the install works from CMake and pkg-config, shared and static"
