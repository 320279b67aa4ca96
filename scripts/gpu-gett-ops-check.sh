#!/usr/bin/env bash
# Operators inside the GETT kernels on the H100, on the library carried in build-carry/
# (scripts/lib/make-carry.sh): the GPU tests (test_gett_gpu's test_operators among them, also with
# CUPERM_GETT_TEST_ENGINE=tma: plans with operators must leave the Hopper kernels for the table
# kernel), compute-sanitizer memcheck and racecheck on test_gett_gpu, and what operators cost:
# small random contractions with operators on A, B and D, TTGT-only plans against default ones
# (which may take GETT), every result checked. PART=bench: only the benchmarks, TCCG48 with
# --algo gett with and without operators (the kernels' own price of the operator pass; DTYPES
# limits the types); PART=rerun: the f16 TTGT set alone; PART=price: GETT plans of 4096-element
# random contractions (seed SEED, default 1) without operators, with relu or sigmoid on A and B,
# with tanh on D (tools/model/fit_gett_ops.py fits the model's operator prices from them).
#   run (carry build-carry and the two .deps/libcmocka*.deb): scripts/gpu-gett-ops-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
source scripts/lib/carried.sh
cuperm_carried_begin "$PWD/gpu-gett-ops-logs"
if [ "${PART:-tests}" = price ]; then # GETT plans with input / output operators and without (the model's data)
  for dt in f16 f32; do
    for ops in identity,identity,identity relu,relu,identity sigmoid,sigmoid,identity identity,identity,tanh; do
      cuperm_model_run_into "price-$dt-${ops//,/-}" random-contractions --volume 4096 --count 48 --seed ${SEED:-1} --dtype $dt \
        --ops $ops --algo gett
    done
  done
  cuperm_model_run_into "tccg48-f16-gett-ops" tccg48 --dtype f16 --algo gett --ops relu,sigmoid,tanh
elif [ "${PART:-tests}" = rerun ]; then # the f16 TTGT set, its cases printed
  cuperm_model_run_into "ops-4096-f16-ttgt" random-contractions --volume 4096 --count 48 --seed 2 --dtype f16 \
    --ops relu,sigmoid,tanh --algo ttgt
elif [ "${PART:-tests}" = tests ]; then
  cuperm_carried_tests
  grep -h "operators:\|random:" "$logs/test_gett_gpu.log"
  CUPERM_GETT_TEST_ENGINE=tma timeout 200 build-carry/bin/test_gett_gpu >"$logs/test_gett_gpu-tma.log" 2>&1
  echo "test_gett_gpu (tma) rc=$? $(grep -E 'PASSED|FAILED' "$logs/test_gett_gpu-tma.log" | tail -1)"
  grep -h "operators:\|random:" "$logs/test_gett_gpu-tma.log"
  CUPERM_GETT_TEST_CASES=24 timeout 240 compute-sanitizer --tool memcheck build-carry/bin/test_gett_gpu \
    >"$logs/memcheck-test_gett_gpu.log" 2>&1
  echo "memcheck test_gett_gpu rc=$? $(grep 'ERROR SUMMARY' "$logs/memcheck-test_gett_gpu.log" | tail -1)"
  # racecheck is slow: the operator instances only (their extra barrier is the new shared-memory order)
  CUPERM_GETT_TEST_CASES=16 CUPERM_GETT_TEST_FILTER=test_operators timeout 240 compute-sanitizer --tool racecheck \
    build-carry/bin/test_gett_gpu >"$logs/racecheck-test_gett_gpu.log" 2>&1
  echo "racecheck test_gett_gpu (test_operators) rc=$? $(grep 'RACECHECK SUMMARY' "$logs/racecheck-test_gett_gpu.log" | tail -1)"
  for seed in ${SEEDS:-2 3}; do # held out: the operator prices were fitted on seed 1
    for dt in f16 f32; do
      for algo in ttgt default; do
        cuperm_model_run_into "ops-4096-s$seed-$dt-$algo" random-contractions --volume 4096 --count 48 --seed $seed --dtype $dt \
          --ops relu,sigmoid,tanh --algo $algo
      done
    done
  done
else
  for dt in ${DTYPES:-f16 f32}; do
    cuperm_model_run_into "tccg48-$dt-gett" tccg48 --dtype $dt --algo gett
    cuperm_model_run_into "tccg48-$dt-gett-ops" tccg48 --dtype $dt --algo gett --ops relu,sigmoid,tanh
  done
fi
cuperm_pack_logs
