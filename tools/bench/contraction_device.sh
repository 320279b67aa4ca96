#!/bin/bash
# One device call for the contraction work: build, GPU tests, tccg48 (f32, f16),
# random-contractions (f32), torch.einsum on the same cases. Logs and CSVs go to $OUT.
# Usage (repository root, on the GPU machine): tools/bench/contraction_device.sh [random-count]
set -u
OUT=${OUT:-/tmp/ctr-out}
mkdir -p "$OUT"
B=build-dev-ctr
# No network on the device: cmocka comes as Debian packages in .deps/ (carried along).
source scripts/lib/deps.sh
cuperm_find_cmocka
COUNT=${1:-16}
{ cmake -S . -B $B -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_BUILD_TYPE=Release >/dev/null &&
  cmake --build $B -j16 --target test_ctr_gpu test_ctr_plan cuperm-bench; } > "$OUT/build.log" 2>&1 ||
  { tail -40 "$OUT/build.log"; exit 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv > "$OUT/gpu.txt"
cat "$OUT/gpu.txt"
$B/tests/contraction/test_ctr_plan > "$OUT/test_ctr_plan.log" 2>&1; echo "test_ctr_plan rc=$?"
timeout 150 $B/tests/contraction/test_ctr_gpu > "$OUT/test_ctr_gpu.log" 2>&1; echo "test_ctr_gpu rc=$?"
grep -E "PASSED|FAILED|ERROR|error|worst|cases" "$OUT/test_ctr_gpu.log" | head -40
BENCH=$B/tools/bench/cuperm-bench
timeout 200 $BENCH tccg48 --dtype f32,f16 --target-ms 40 --out "$OUT" > "$OUT/tccg48.log" 2>&1; echo "tccg48 rc=$?"
grep -E "geomean|FAIL|peak" "$OUT/tccg48.log"
timeout 150 $BENCH random-contractions --dtype f32,f16 --count "$COUNT" --target-ms 40 --out "$OUT" \
  > "$OUT/random.log" 2>&1; echo "random rc=$?"
grep -E "geomean|FAIL|peak" "$OUT/random.log"
timeout 240 python3 tools/bench/contraction_torch.py "$OUT"/tccg48-f32.csv "$OUT"/tccg48-f16.csv \
  "$OUT"/random-contractions-f32.csv "$OUT"/random-contractions-f16.csv > "$OUT/torch.log" 2>&1
echo "torch rc=$?"
# Few files come back from the device: everything in one archive.
(cd "$OUT" && tar czf contraction-results.tgz --exclude=contraction-results.tgz *.csv *.md *.txt *.log)
grep -E "cases, dtype|target|slower" "$OUT/torch.log"
