#!/usr/bin/env bash
# Builds the distributed tests here for sm_90 (Release) and copies what a GPU machine needs to
# run them into build-dist-carry/ (stripped; about 50 MB), packed as build-xz/carry.tar.xz (about
# 40 MB, under the device tool's 64 MiB): carry build-xz and run
#   tar -xJf build-xz/carry.tar.xz && scripts/gpu-dist-check.sh --prebuilt build-dist-carry ...
# NCCL: the headers and library CMake finds here (CUPERM_NCCL_ROOT / NCCL_ROOT, or the CUDA
# toolkit's); the GPU machine loads its own libnccl.so.2 (same major version).
set -euo pipefail
cd "$(dirname "$0")/.."
b=${B:-build-dist-sm90} # B=DIR: an existing sm_90 Release build tree
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_FORTRAN=OFF >/dev/null
cmake --build "$b" -j"$(nproc)" --target cuperm cuperm_dist test_dist_layout cuperm-dist-test
rm -rf build-dist-carry
mkdir -p build-dist-carry/src build-dist-carry/tests
cp -L "$b/src/libcuperm.so.0" "$b/src/libcuperm_dist.so.0" build-dist-carry/src/
cp "$b/tests/test_dist_layout" "$b/tests/cuperm-dist-test" build-dist-carry/tests/
strip --strip-debug build-dist-carry/src/* build-dist-carry/tests/*
mkdir -p build-xz
tar -cJf build-xz/carry.tar.xz build-dist-carry
du -sh build-dist-carry build-xz/carry.tar.xz
