#!/bin/bash
cd "$(dirname "$0")"
for v in "$@"; do
  (cmake -S $v -B /tmp/b-$v -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF >/dev/null &&
   cmake --build /tmp/b-$v -j5 --target cuperm-bench >/tmp/build-$v.log 2>&1 || { echo "BUILD FAIL $v"; tail -20 /tmp/build-$v.log; }) &
done
(cd .. && source scripts/lib/deps.sh && cuperm_find_cmocka >/dev/null 2>&1;
 cmake -S . -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null &&
 cmake --build /tmp/bt -j6 --target test_gpu_transpose >/tmp/bt.log 2>&1 || { echo "TEST BUILD FAIL"; tail -20 /tmp/bt.log; }) &
wait
nvidia-smi --query-gpu=name --format=csv,noheader
CUPERM_TEST_QUICK=1 timeout 200 /tmp/bt/tests/test_gpu_transpose > $OUT/test_gpu_transpose.log 2>&1; echo "test_gpu_transpose rc=$? $(grep -E 'PASSED|FAILED' $OUT/test_gpu_transpose.log | tail -2 | tr '\n' ' ')"
cs=/usr/local/cuda/bin/compute-sanitizer
for tool in racecheck memcheck; do
  CUPERM_TEST_FILTER="vector_tiles*" timeout 150 $cs --tool $tool --error-exitcode 99 /tmp/bt/tests/test_gpu_transpose > $OUT/san-$tool.log 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/san-$tool.log | tail -1)"
done
for v in "$@"; do
  B=/tmp/b-$v/tools/bench/cuperm-bench
  $B --cases cases-f32.txt --dtype f32 --mode heuristic --target-ms 30 --quiet --out $OUT/$v --tag f32 >/dev/null 2>&1
  $B small --dtype f32 --mode heuristic --target-ms 30 --quiet --out $OUT/$v --tag small >/dev/null 2>&1
  $B ttc57 --dtype f32,f16,i8 --mode heuristic --target-ms 20 --quiet --out $OUT/$v --tag ttc >/dev/null 2>&1
  echo "$v done"
done
cd $OUT && for v in "$@"; do cat $v/*.csv | sed "s/^/$v,r1,/" ; done > all.csv; rm -rf v1 v8
