#!/usr/bin/env bash
# A contraction-planner change A/B in one device call, from carried builds: build-dt/ (scripts/lib/
# make-carry.sh: cuperm_make_dtile_carry) holds the programs, build-dt/libs-ab.tar.xz the changed library
# (new/libcuperm.so.0) and the one before (old/libcuperm.so.0) in one xz stream whose dictionary spans
# both (tar cf - new old | xz --lzma2=preset=6,dict=192MiB: the second costs next to nothing). Runs the changed library's test_ctr_gpu, then SUITES (default: TCCG48, random
# contractions of seed 66 and short-k-heldout, f16, model plans) on both libraries, ROUNDS times in
# alternating order; every D verified by cuperm-bench. CSVs in $OUT/ab.tgz, the geomeans in $OUT/ab.txt
# (compare per case with tools/bench/compare_ctr_ab.py).
#   run (carry build-dt): OUT=... [ROUNDS=2] [SUITES="tccg48 ..."] scripts/gpu-ctr-model-ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-ctr-model-ab}; mkdir -p "$logs/ab"
trap 'tar czf "$logs/ab.tgz" -C "$logs" ab && rm -rf "$logs/ab"' EXIT # what ran, also when stopped
mkdir -p /tmp/ab && xz -dc build-dt/libs-ab.tar.xz | tar xf - -C /tmp/ab || { echo "no build-dt/libs-ab.tar.xz"; exit 1; }
for v in new old; do
  mv "/tmp/ab/$v" "/tmp/ab-$v" && ln -sf libcuperm.so.0 "/tmp/ab-$v/libcuperm.so" && cp build-dt/libcmocka.so.0 "/tmp/ab-$v/"
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
LD_LIBRARY_PATH=/tmp/ab-new timeout 150 build-dt/test_ctr_gpu >"$logs/test_ctr_gpu.log" 2>&1
echo "test_ctr_gpu (new) rc=$? $(grep -E 'PASSED|FAILED' "$logs/test_ctr_gpu.log" | tail -1)" | tee "$logs/ab.txt"
for r in $(seq 1 "${ROUNDS:-2}"); do
  order="old new"; [ $((r % 2)) = 0 ] && order="new old"
  for suite in ${SUITES:-tccg48 random-contractions:66 short-k-heldout}; do
    name=${suite%%:*} seed=${suite#*:}; [ "$seed" = "$suite" ] && seed=
    for v in $order; do
      out="$logs/ab/$v-r$r"; mkdir -p "$out"
      LD_LIBRARY_PATH=/tmp/ab-$v timeout "${SUITE_S:-150}" build-dt/cuperm-bench "$name" ${seed:+--seed "$seed"} --dtype f16 --mode model \
        --quiet --out "$out" >"$out/$name.log" 2>&1
      echo "round $r $v $name rc=$? $(grep -E 'geomean' "$out/$name.log" | tail -1)" | tee -a "$logs/ab.txt"
    done
  done
done
