#!/usr/bin/env bash
# The D-tile GETT kernel (backend/cuda/gett/gett_dtile.cu) on a GPU, from binaries built here for
# sm_90 and carried in build-dt/ (scripts/lib/make-carry.sh: cuperm_make_dtile_carry):
#   1. test_gett_gpu with GETT forced and CUPERM_GETT_DTILE=1 (short-K cases on the D-tile
#      kernel, off by default), and again without (the same cases on the table kernel);
#   2. cuperm-fuzz with CUPERM_GETT=1 CUPERM_GETT_DTILE=1 (every eligible contraction on GETT), where
#      build-dt/cuperm-fuzz.xz was added (it does not fit beside the library);
#   3. compute-sanitizer memcheck on test_gett_gpu's random and many-tiles cases, racecheck on its
#      many-tiles cases;
#   4. TCCG48 (DTYPES, default "f16 bf16"), model plans, variants: ttgt (the default plans),
#      dtile (CUPERM_GETT=1 CUPERM_GETT_DTILE=1: GETT where eligible, the D-tile kernel where it
#      takes the case, its packed path on sm_90 where a tile is one block of D), gather (the same
#      with CUPERM_GETT_DTILE_PACKED=0: the gathering D-tile kernel only), nopack (the default plans
#      with CUPERM_GETT_DTILE_PACKED=0), serial (the default plans, the packed path's kernel not
#      overlapping the pack kernel's end: CUPERM_GETT_DTILE_PACKED=serial), staged (the default plans,
#      every packed tile staged in shared memory: CUPERM_GETT_DTILE_PACKED=staged), table (CUPERM_GETT=1: the table kernel, or the skinny one where N <= 32 and K <= 512), noskinny (the same with
#      CUPERM_GETT_SKINNY=0), wgmma (noskinny on the table kernel's wgmma form: CUPERM_GETT_WGMMA=1), dense (the default plans with CUPERM_CTR_DENSE_WORKSPACE=1: TTGT
#      workspace matrices unpadded, GEMMs priced without the misalignment term), memset2d (the default plans
#      with every padded GEMM's K padding zeroed by cudaMemset2DAsync: CUPERM_CTR_ZERO=memset2d, session
#      43's way), rawprices (the default plans with transposes priced by the transpose model alone:
#      CUPERM_CTR_TRANSPOSE_CALIBRATION=0), unpriced (the default plans with the D-tile kernel priced as
#      its gathering form even where its packed path runs: CUPERM_CTR_DTILE_PACKED_PRICE=0), oldbeta
#      (unpriced, and the packed path off: with SUITE_ARGS="--beta 1", the plans and kernels beta != 0
#      ran before the packed path read C), measure (default
#      environment, measured plans:
#      TTGT candidates, the table kernel and the D-tile kernel timed) and oldmeasure (the same, each
#      candidate timed in samples of 0.05 ms as before session 47: CUPERM_CTR_MEASURE_SAMPLE_MS=0.05), lt0 .. lt7
#      (the default plans, one-call GEMMs on cuBLASLt from the first run with its heuristic's answer N:
#      CUPERM_LT_AFTER_RUNS=0 CUPERM_LT_ALGO=N);
#      then per case time and ratio
#      to the same-shape cuBLAS GEMM of each variant (each variant's own same-run GEMM).
# Logs in $OUT (or ./gpu-dtile-logs). SKIP=tests,gett-tests,gather-tests,staged-tests,table-tests,wgmma-tests,fuzz,memcheck,ctr-memcheck,racecheck
# skips those parts (gett-tests: test_gett_gpu's default run; gather-tests: test_gett_gpu with the packed path off; staged-tests: its many-tiles
# cases with every packed tile staged; table-tests: on the table kernel; wgmma-tests: on its wgmma form); VARIANTS (default "ttgt dtile table") the
# benchmark's variants, side by side per case in cases-<dtype>.txt.
#   run (carry build-dt): scripts/gpu-dtile-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs=${OUT:-$PWD/gpu-dtile-logs}; mkdir -p "$logs"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
d=/tmp/dtile; mkdir -p "$d/lib"
xz -dc build-dt/libcuperm.so.0.xz >"$d/lib/libcuperm.so.0" && ln -sf libcuperm.so.0 "$d/lib/libcuperm.so" &&
  cp build-dt/libcmocka.so.0 "$d/lib/" || { echo "no build-dt/"; exit 1; }
export LD_LIBRARY_PATH="$d/lib"
skip=",${SKIP:-},"
run() { local name=$1 t=$2; shift 2; local s; s=$(date +%s); timeout "$t" "$@" >"$logs/$name.log" 2>&1
  echo "$name rc=$? ($(( $(date +%s) - s )) s): $(grep -E '\[  (PASSED|FAILED)|passed|ERROR SUMMARY|RACECHECK SUMMARY' "$logs/$name.log" | tr '\n' ' ' | cut -c1-200)"; }

if [[ $skip != *,tests,* ]]; then
  if [[ $skip != *,gett-tests,* ]]; then
    CUPERM_GETT_DTILE=1 run test_gett_gpu 200 build-dt/test_gett_gpu
    grep -E '^(FAILED|    )' "$logs/test_gett_gpu.log" | head -20
  fi
  [[ $skip == *,gather-tests,* ]] || CUPERM_GETT_DTILE=1 CUPERM_GETT_DTILE_PACKED=0 run test_gett_gather_gpu 200 build-dt/test_gett_gpu
  [[ $skip == *,staged-tests,* ]] || CUPERM_GETT_DTILE=1 CUPERM_GETT_DTILE_PACKED=staged CUPERM_GETT_TEST_FILTER=test_many_tiles \
    run test_gett_staged_gpu 300 build-dt/test_gett_gpu
  [[ $skip == *,table-tests,* ]] || run test_gett_table_gpu 200 build-dt/test_gett_gpu
  [[ $skip == *,wgmma-tests,* ]] || CUPERM_GETT_WGMMA=1 run test_gett_wgmma_gpu 200 build-dt/test_gett_gpu
  [ -x build-dt/test_ctr_gpu ] && run test_ctr_gpu 300 build-dt/test_ctr_gpu
fi
if [[ $skip != *,fuzz,* ]] && [ -f build-dt/cuperm-fuzz.xz ]; then
  xz -dc build-dt/cuperm-fuzz.xz >"$d/cuperm-fuzz" && chmod +x "$d/cuperm-fuzz"
  CUPERM_GETT=1 CUPERM_GETT_DTILE=1 run fuzz-gett 200 "$d/cuperm-fuzz" --contractions "${FUZZ_CONTRACTIONS:-3000}" --transposes 0 \
    --seed "${FUZZ_SEED:-1}" --quiet
  grep -E '^(REPRO|  FAILED)' "$logs/fuzz-gett.log" | head -10; tail -2 "$logs/fuzz-gett.log"
fi
if [[ $skip != *,memcheck,* ]]; then
  CUPERM_GETT_DTILE=1 CUPERM_GETT_TEST_FILTER=test_random CUPERM_GETT_TEST_CASES=40 run memcheck-test_gett_gpu 240 \
    compute-sanitizer --tool memcheck --error-exitcode 99 build-dt/test_gett_gpu
  # the packed path's runs (random shapes rarely take it): direct and staged tiles
  CUPERM_GETT_DTILE=1 CUPERM_GETT_TEST_FILTER=test_many_tiles run memcheck-many-tiles 300 \
    compute-sanitizer --tool memcheck --error-exitcode 99 build-dt/test_gett_gpu
fi
if [[ $skip != *,ctr-memcheck,* ]] && [ -x build-dt/test_ctr_gpu ]; then # TTGT plans: cuBLAS on padded workspace
  run memcheck-test_ctr_gpu 240 compute-sanitizer --tool memcheck --error-exitcode 99 build-dt/test_ctr_gpu
fi
if [[ $skip != *,racecheck,* ]]; then # shared-memory hazards of the kernel's panels, slots and staging
  CUPERM_GETT_DTILE=1 CUPERM_GETT_TEST_FILTER=test_many_tiles run racecheck-test_gett_gpu 240 \
    compute-sanitizer --tool racecheck --error-exitcode 99 build-dt/test_gett_gpu
fi

for suite in ${SUITES-tccg48}; do
for dt in ${DTYPES:-f16 bf16}; do
  for variant in ${VARIANTS:-ttgt dtile table}; do
    mode=model
    case $variant in
      dtile) env=(env CUPERM_GETT=1 CUPERM_GETT_DTILE=1) ;;
      gather) env=(env CUPERM_GETT=1 CUPERM_GETT_DTILE=1 CUPERM_GETT_DTILE_PACKED=0) ;;
      nopack) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_GETT_DTILE_PACKED=0) ;;
      serial) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_GETT_DTILE_PACKED=serial) ;;
      staged) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_GETT_DTILE_PACKED=staged) ;;
      table) env=(env -u CUPERM_GETT_DTILE CUPERM_GETT=1) ;;
      noskinny) env=(env -u CUPERM_GETT_DTILE CUPERM_GETT=1 CUPERM_GETT_SKINNY=0) ;;
      wgmma) env=(env -u CUPERM_GETT_DTILE CUPERM_GETT=1 CUPERM_GETT_SKINNY=0 CUPERM_GETT_WGMMA=1) ;;
      measure) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE) mode=measure ;;
      oldmeasure) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_CTR_MEASURE_SAMPLE_MS=0.05) mode=measure ;;
      dense) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_CTR_DENSE_WORKSPACE=1) ;;
      memset2d) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_CTR_ZERO=memset2d) ;;
      rawprices) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_CTR_TRANSPOSE_CALIBRATION=0) ;;
      unpriced) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_CTR_DTILE_PACKED_PRICE=0) ;;
      oldbeta) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_CTR_DTILE_PACKED_PRICE=0 CUPERM_GETT_DTILE_PACKED=0) ;;
      lt[0-7]) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE CUPERM_LT_AFTER_RUNS=0 CUPERM_LT_ALGO=${variant#lt}) ;;
      *) env=(env -u CUPERM_GETT -u CUPERM_GETT_DTILE) ;;
    esac
    out="$logs/bench-$suite-$dt-$variant"
    mkdir -p "$out"
    # shellcheck disable=SC2086 # SUITE_ARGS: options for the generated suites (--count, --seed)
    "${env[@]}" timeout 280 build-dt/cuperm-bench "$suite" ${SUITE_ARGS:-} --dtype "$dt" --mode $mode --quiet \
      --out "$out" >"$out.log" 2>&1
    echo "bench $suite $dt $variant rc=$? $(grep -E 'geomean' "$out.log" | tail -1)"
  done
  # Per case: time (ms) and ratio to the same-shape GEMM, per variant.
  files=()
  for variant in ${VARIANTS:-ttgt dtile table}; do
    grep -v '^#' "$(ls "$logs/bench-$suite-$dt-$variant"/*.csv | head -1)" >"$d/cases-$variant.csv"
    files+=("$d/cases-$variant.csv")
  done
  awk -F, -v names="${VARIANTS:-ttgt dtile table}" \
      'FNR == 1 { f++; for (i = 1; i <= NF; ++i) col[$i] = i; next }
           { id = $col["id"]; t[f, id] = $col["time_ms"]; r[f, id] = $col["plain_gemm_ms"] / $col["time_ms"]; ids[id] = 1
             if (id > last) last = id }
           END { n = split(names, v, " "); printf "%4s", "case"; for (j = 1; j <= n; ++j) printf " %10s %6s", v[j] " ms", "ratio"; print "";
                 for (id = 1; id <= last; ++id) if (id in ids) { printf "%4d", id;
                   for (j = 1; j <= n; ++j) printf " %10.4f %6.3f", t[j, id], r[j, id]; print "" } }' \
    "${files[@]}" | tee "$logs/cases-$suite-$dt.txt"
done
done
