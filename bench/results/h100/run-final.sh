#!/bin/bash
# Session 3, call 2: every transpose suite on the final tree (both modes, every element checked).
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
start=$(date +%s)
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF >/dev/null &&
  cmake --build build-bench -j16 --target cuperm-bench > /tmp/build.log 2>&1 || { tail -20 /tmp/build.log; exit 1; }
echo "build $(($(date +%s)-start)) s"
timeout 540 bash bench/run-suites.sh build-bench /tmp/h100 > /tmp/h100-suites.log 2>&1
echo "suites rc=$?"
grep "^==" /tmp/h100-suites.log
cp /tmp/h100-suites.log /tmp/h100/
(cd /tmp/h100 && tar czf $OUT/h100.tgz .)
