#!/bin/bash
# One device call for the contraction work: build, GPU tests, the cuBLAS GEMM sweep the
# GEMM model is fitted to, tccg48 (f32, f16) and random-contractions (f32, f16) with model
# and measured plans, torch.einsum on the same cases. Logs and CSVs go to $OUT, also as
# one archive (few files come back from the device).
# Usage (repository root, on the GPU machine): tools/bench/contraction_device.sh [random-count]
#   random-count 0 skips random-contractions; TORCH=0 skips torch.einsum; SWEEP=0 skips the sweep.
set -u
OUT=${OUT:-/tmp/ctr-out}
mkdir -p "$OUT"
B=build-dev-ctr
# No network on the device: cmocka comes as Debian packages in .deps/ (carried along).
source scripts/lib/deps.sh
cuperm_find_cmocka
COUNT=${1:-16}
{ cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >/dev/null &&
  cmake --build $B -j16 --target test_ctr_gpu test_ctr_plan cuperm-bench cuperm-ctr-gemm-sweep; } \
  > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv > "$OUT/gpu.txt"
cat "$OUT/gpu.txt"
$B/tests/contraction/test_ctr_plan > "$OUT/test_ctr_plan.log" 2>&1; echo "test_ctr_plan rc=$?"
timeout 150 $B/tests/contraction/test_ctr_gpu > "$OUT/test_ctr_gpu.log" 2>&1; echo "test_ctr_gpu rc=$?"
grep -E "PASSED|FAILED|ERROR|error|worst|cases|measured" "$OUT/test_ctr_gpu.log" | head -40
if [ "${SWEEP:-1}" != 0 ]; then
  timeout 120 $B/tools/bench/cuperm-ctr-gemm-sweep "$OUT/gemm-sweep.csv" f16,f32; echo "sweep rc=$?"
fi
BENCH=$B/tools/bench/cuperm-bench
timeout 300 $BENCH tccg48 --dtype f32,f16 --mode both --target-ms 30 --out "$OUT" > "$OUT/tccg48.log" 2>&1
echo "tccg48 rc=$?"
grep -E "geomean|FAIL|peak" "$OUT/tccg48.log"
CSVS="$OUT/tccg48-f32.csv $OUT/tccg48-f16.csv $OUT/tccg48-f32-measure.csv $OUT/tccg48-f16-measure.csv"
if [ "$COUNT" != 0 ]; then
  timeout 130 $BENCH random-contractions --dtype f32,f16 --mode both --count "$COUNT" --target-ms 30 --out "$OUT" \
    > "$OUT/random.log" 2>&1; echo "random rc=$?"
  grep -E "geomean|FAIL|peak" "$OUT/random.log"
  CSVS="$CSVS $OUT/random-contractions-f32.csv $OUT/random-contractions-f16.csv"
  CSVS="$CSVS $OUT/random-contractions-f32-measure.csv $OUT/random-contractions-f16-measure.csv"
fi
if [ "${TORCH:-1}" != 0 ]; then
  # shellcheck disable=SC2086
  timeout 170 python3 tools/bench/contraction_torch.py $CSVS > "$OUT/torch.log" 2>&1; echo "torch rc=$?"
  grep -E "cases, dtype|target|slower" "$OUT/torch.log"
fi
(cd "$OUT" && tar czf contraction-results.tgz --exclude=contraction-results.tgz $(ls *.csv *.md *.txt *.log 2>/dev/null))
