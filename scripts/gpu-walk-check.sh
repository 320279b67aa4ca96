#!/usr/bin/env bash
# A transpose planning change on one GPU, from binaries built here for sm_90 and carried in
# build-wk/ (libcuperm.so.0.xz, cuperm-bench, test_gpu_transpose and its cmocka,
# cuperm-candidate-times.xz): every candidate of CANDIDATES ("ELEM EXTENTS PERM" lines) timed, then
# cuperm-bench in heuristic and measure mode on each BENCH entry ("DTYPE:FILE", FILE of "EXTENTS
# PERM" lines; every element verified), then test_gpu_transpose. Logs and CSVs to $OUT.
#   run (carry build-wk): OUT=... CANDIDATES=FILE BENCH="f64:a.txt f32:b.txt" scripts/gpu-walk-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/walk-check} w=/tmp/walk-check
rm -rf $w; mkdir -p $w "$out"
xz -dc build-wk/libcuperm.so.0.xz >$w/libcuperm.so.0 && xz -dc build-wk/cuperm-candidate-times.xz >$w/ct &&
  chmod +x $w/ct && cp build-wk/libcmocka.so.0 $w/ || { echo "no build-wk"; exit 1; }
export LD_LIBRARY_PATH="$w${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
if [ -n "${CANDIDATES:-}" ]; then
  s=$(date +%s)
  $w/ct ${TARGET_MS:-15} <"$CANDIDATES" >"$out/candidates.csv" 2>"$out/candidates.err"
  echo "candidate times rc=$? $(( $(date +%s) - s )) s, same=0: $(awk -F, '$5 == 0' "$out/candidates.csv" | wc -l)"
fi
for b in ${BENCH:-}; do
  t=${b%%:*} f=${b#*:} s=$(date +%s)
  build-wk/cuperm-bench --cases "$f" --dtype "$t" --mode both --out "$out" --tag "bench-$t" >"$out/bench-$t.log" 2>&1
  echo "bench $t rc=$? $(( $(date +%s) - s )) s"; grep -E "^  all|heuristic/measured|failures" "$out/bench-$t-summary.txt" 2>/dev/null
done
timeout 200 build-wk/test_gpu_transpose >"$out/test_gpu_transpose.log" 2>&1
echo "test_gpu_transpose rc=$? $(grep -E 'PASSED|FAILED' "$out/test_gpu_transpose.log" | tail -1)"
