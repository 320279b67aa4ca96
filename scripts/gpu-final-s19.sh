#!/usr/bin/env bash
# Session 19's checks of the final tree on the H100, on the library carried in build-carry/: the GPU
# tests found in build-carry/bin, memcheck on the error paths, the Python contraction tests, then the
# rows cases whose plans the partial packing changed (bench/results/rows-partial-pack-h100/*/orig-*),
# now planned by this library (compare with the packed-* times of the runs before the change).
#   run (carry build-carry and the two .deps/libcmocka*.deb): scripts/gpu-final-s19.sh
set -uo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/carried.sh
cuperm_carried_begin "$PWD/gpu-final-logs"
cuperm_carried_tests
timeout 120 compute-sanitizer --tool memcheck build-carry/bin/test_gpu_errors >"$logs/memcheck-errors.log" 2>&1
echo "memcheck test_gpu_errors rc=$? $(grep 'ERROR SUMMARY' "$logs/memcheck-errors.log" | tail -1)"
CUPERM_LIBRARY="$PWD/build-carry/lib/libcuperm.so.0" timeout 150 python3 -m pytest -q -p no:cacheprovider python/tests \
  >"$logs/pytest.log" 2>&1
echo "pytest rc=$? $(tail -1 "$logs/pytest.log")"
for f in bench/results/rows-partial-pack-h100/{tuning-cases,fresh}/orig-*.txt; do
  tag=$(basename "$(dirname "$f")")-$(basename "$f" .txt)
  timeout 100 "$bench" --cases "$f" --dtype "$(basename "$f" .txt | cut -d- -f2)" --mode heuristic --quiet \
    --target-ms 20 --out "$logs" --tag "new-$tag" >"$logs/new-$tag.log" 2>&1 || echo "$tag rc=$?"
done
cuperm_pack_logs
