#!/usr/bin/env bash
# The handle's memory pool (NULL workspaces, GETT tables) on 2 GPUs: the contraction GPU tests
# (memcheck on test_ctr_gpu), the distributed correctness program, and the distributed
# contractions' efficiency with a NULL workspace and with one allocated once. Binaries built here
# for sm_90 and carried xz-compressed:
#   build-c30/{lib,bin}: libcuperm.so.0, libcuperm_dist.so.0, cmocka; test_gett_gpu,
#   test_ctr_gpu, test_ctr_threads, cuperm-dist-test;  tar -cf - build-c30 | xz -6 > build-xz/c30.tar.xz
#   run (carry build-xz): scripts/gpu-workspace-pool-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/workspace-pool-logs}"
mkdir -p "$logs"
tar -xJf build-xz/c30.tar.xz
nccl=$(python3 -c 'import nvidia.nccl as m, os; print(os.path.join(list(m.__path__)[0], "lib"))' 2>/dev/null)
export NCCL_NVLS_ENABLE=0 LD_LIBRARY_PATH="$PWD/build-c30/lib:$nccl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
for t in test_gett_gpu test_ctr_gpu test_ctr_threads; do
  timeout 200 "build-c30/bin/$t" >"$logs/$t.log" 2>&1
  echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$logs/$t.log" | tail -1)"
done
timeout 300 compute-sanitizer --tool memcheck build-c30/bin/test_ctr_gpu >"$logs/memcheck-ctr.log" 2>&1
echo "memcheck test_ctr_gpu rc=$? $(grep -E 'ERROR SUMMARY' "$logs/memcheck-ctr.log" | tail -1)"
timeout 300 build-c30/bin/cuperm-dist-test --cases 30 --contractions 20 >"$logs/dist-test.log" 2>&1
echo "cuperm-dist-test rc=$? $(grep -E '^dist:' "$logs/dist-test.log" | tail -2 | tr '\n' ' ')"
timeout 300 build-c30/bin/cuperm-dist-test --bench --gb 0 --iters 20 >"$logs/dist-bench.log" 2>&1
echo "bench rc=$?"; grep -A4 "distributed contraction" "$logs/dist-bench.log"
