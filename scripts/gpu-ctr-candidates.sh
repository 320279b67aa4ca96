#!/usr/bin/env bash
# Every contraction candidate timed on a GPU (tools/model/ctr_candidate_times.c): per case the
# model's 16 cheapest TTGT layouts and the GETT kernels that can run it, each whole and its GEMM
# alone, from binaries built here for sm_90 and carried in build-dt/ (scripts/lib/make-carry.sh:
# cuperm_make_dtile_carry adds the tool). The CSVs feed tools/model/ctr_candidates.py.
#   SETS="tccg48:f16 random-contractions:f16:1 ..." (suite:dtype[:seed]; default below)
#   run (carry build-dt): OUT=... scripts/gpu-ctr-candidates.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-ctr-candidates}/candidates; mkdir -p "$logs"
d=/tmp/dtile; mkdir -p "$d/lib"
if [ ! -f "$d/lib/libcuperm.so.0" ]; then
  xz -dc build-dt/libcuperm.so.0.xz >"$d/lib/libcuperm.so.0" && ln -sf libcuperm.so.0 "$d/lib/libcuperm.so" &&
    cp build-dt/libcmocka.so.0 "$d/lib/" || { echo "no build-dt/"; exit 1; }
fi
export LD_LIBRARY_PATH="$d/lib"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$logs/gpu.txt"
for set in ${SETS:-tccg48:f16 random-contractions:f16:1 short-k:f16:1 random-contractions:f16:2}; do
  IFS=: read -r suite dt seed <<<"$set"
  name=$suite-$dt${seed:+-s$seed}
  build-dt/cuperm-bench "$suite" --list --dtype "$dt" ${seed:+--seed "$seed"} ${COUNT:+--count "$COUNT"} >"$logs/$name.cases" 2>&1
  s=$(date +%s)
  timeout "${LIMIT_S:-150}" build-dt/cuperm-ctr-candidate-times "$logs/$name.cases" --dtype "$dt" >"$logs/$name.csv" 2>"$logs/$name.err"
  echo "$name rc=$? ($(( $(date +%s) - s )) s): $(grep -vc '^id,' "$logs/$name.csv") candidates, $(wc -l <"$logs/$name.err") errors"
done
