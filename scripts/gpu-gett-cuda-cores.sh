#!/usr/bin/env bash
# The CUDA-core GETT kernel (fp32 / fp64, backend/cuda/gett/gett_simt.cu) on a library built
# elsewhere for sm_90 and carried in build-carry/ (lib/libcuperm.so.0; bin/: test_gett_gpu,
# test_ctr_gpu, cuperm-bench): GPU tests, memcheck, then TCCG48 and random contractions in f64
# and f32 with GETT plans and with TTGT plans, one after the other per type (model plans, each
# against the same-shape cuBLAS GEMM). Logs and CSVs to $OUT, packed into all-logs.tgz.
#   run (carry build-carry and .deps): scripts/gpu-gett-cuda-cores.sh [RANDOM_COUNT]
#   TESTS=0 skips the tests and memcheck; ALGOS="gett" times GETT plans only; DTYPES="f64" one type
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-gett-simt-logs}"
mkdir -p "$logs"
export LD_LIBRARY_PATH="$PWD/build-carry/lib:${LD_LIBRARY_PATH:-}"
source scripts/lib/deps.sh
cuperm_find_cmocka
bin=build-carry/bin
count=${1:-12}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
if [ "${TESTS:-1}" != 0 ]; then
for t in test_gett_gpu test_ctr_gpu; do
  timeout 200 "$bin/$t" >"$logs/$t.log" 2>&1
  echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$logs/$t.log" | tail -1)"
done
grep -E "runs|cases|FAILED" "$logs/test_gett_gpu.log" | head -20
CUPERM_GETT_TEST_CASES=24 timeout 150 compute-sanitizer --tool memcheck "$bin/test_gett_gpu" >"$logs/memcheck.log" 2>&1
echo "memcheck rc=$? $(grep 'ERROR SUMMARY' "$logs/memcheck.log" | tail -1)"
fi
for dt in ${DTYPES:-f64 f32}; do
  for algo in ${ALGOS:-gett ttgt}; do
    timeout 100 "$bin/cuperm-bench" tccg48 --dtype $dt --algo $algo --mode model --quiet --target-ms 40 \
      --out "$logs" --tag "tccg48-$algo" >"$logs/tccg48-$algo-$dt.log" 2>&1
    echo "tccg48 $dt $algo rc=$? $(grep -h ratio "$logs/tccg48-$algo-$dt.log" | tail -1)"
    if [ "$count" != 0 ]; then
      timeout 60 "$bin/cuperm-bench" random-contractions --dtype $dt --algo $algo --count "$count" --mode model \
        --quiet --target-ms 40 --out "$logs" --tag "random-$algo" >"$logs/random-$algo-$dt.log" 2>&1
      echo "random $dt $algo rc=$? $(grep -h ratio "$logs/random-$algo-$dt.log" | tail -1)"
    fi
  done
done
tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
