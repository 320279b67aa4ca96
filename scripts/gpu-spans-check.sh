#!/usr/bin/env bash
# The whole-dims span and runs forms (issue 14, sessions 60 and 64) on one GPU, from build-so/
# (scripts/lib/make-carry.sh: cuperm_make_solid_carry: the static programs in one archive) or build-sp/
# (cuperm_make_span_carry: the shared library beside them). Steps, each left out when named in SKIP:
#   tests      test_gpu_candidates (every candidate launch against a reference; FILTER: a cmocka filter);
#              with build-sp, test_gpu_transpose and test_gpu_large's spans above 2^31 elements (LARGE_FILTER)
#   sanitizer  the span and runs tests under memcheck and racecheck
#   modes      the short-group suites, heuristic against measure mode
#   changed    CHANGED_DIR's cases (a rule's changed plans), heuristic against measure mode
#   candidates every candidate of the short-group suites (and of CHANGED_DIR's cases) timed at 1, 2, 4 bytes
#   fuzz       the differential fuzz test (scripts/gpu-fuzz-carried.sh; FUZZ_* and SANITIZE as there)
#   report     the short-group report (heuristic plans, % of a same-run copy, every element verified)
# and, when asked for: NCU_CASES="dtype:extents:perm ..." (scripts/gpu-transpose-ncu-carried.sh);
# AB_TIMERS="cuperm-candidate-times NAME" with AB_CASES=FILE ("ELEM EXTENTS PERM" lines): every candidate
# timed by each program in turn, twice (an A/B of two trees' kernels in one call).
#   run (carry build-so, or build-sp [build-fz]): OUT=... [SKIP=...] [BUDGET_S=240] [CHANGED_DIR=...] scripts/gpu-spans-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
final=${OUT:-$PWD/spans-check}; out=/tmp/sp/out; rm -rf "$out"; mkdir -p "$final" "$out"
skip=",${SKIP:-},"
mkdir -p build-carry/bin build-carry/lib /tmp/sp
if [ -f build-so/tools.tar.xz ]; then # the static programs in one archive (cuperm_make_solid_carry)
  tar xJf build-so/tools.tar.xz -C /tmp/sp && cp /tmp/sp/cuperm-bench build-carry/bin/ && cp build-so/libcmocka.so.0 build-carry/lib/
else
  xz -dc build-sp/libcuperm.so.0.xz >build-carry/lib/libcuperm.so.0 && ln -sf libcuperm.so.0 build-carry/lib/libcuperm.so
  cp build-sp/cuperm-bench build-carry/bin/ && cp build-sp/libcmocka.so.0 build-carry/lib/
  for x in test_gpu_candidates cuperm-candidate-times; do # carried where they fit (each links the library)
    [ -f build-sp/$x.xz ] && xz -dc build-sp/$x.xz >/tmp/sp/$x && chmod +x /tmp/sp/$x
  done
fi
export LD_LIBRARY_PATH=$PWD/build-carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt" "$final/gpu.txt"
# the device tool brings back 8 files: the summaries as they are, the rest in one archive, also when a
# limit cuts the run short
finish() {
  cp "$out"/summary-*.txt "$final"/ 2>/dev/null
  tar czf "$final/spans-check.tgz" -C "$out" .
}
trap finish EXIT
trap 'exit 124' TERM
t0=$(date +%s)
step() { echo "== $1 ($(( $(date +%s) - t0 )) s)"; }
if [[ $skip != *,tests,* ]]; then
  step tests
  [ -x /tmp/sp/test_gpu_candidates ] &&
    { env ${FILTER:+CUPERM_TEST_FILTER=$FILTER} /tmp/sp/test_gpu_candidates >"$out/test_gpu_candidates.log" 2>&1
      echo "test_gpu_candidates rc=$?"; }
  [ -x build-sp/test_gpu_transpose ] &&
    { build-sp/test_gpu_transpose >"$out/test_gpu_transpose.log" 2>&1; echo "test_gpu_transpose rc=$?"; }
  [ -x build-sp/test_gpu_large ] && # the span test only: the others take minutes of CPU reference
    { CUPERM_TEST_FILTER=${LARGE_FILTER:-spans_above_2_31_elements} build-sp/test_gpu_large \
        >"$out/test_gpu_large.log" 2>&1; echo "test_gpu_large rc=$?"; }
  grep -E "PASSED|FAILED" "$out"/test_gpu_*.log
fi
if [[ $skip != *,sanitizer,* ]]; then # the span tests of whichever test programs the carry holds
  step sanitizer
  for tool in memcheck racecheck; do
    [ -x /tmp/sp/test_gpu_candidates ] && CUPERM_TEST_QUICK=1 CUPERM_TEST_FILTER='span_*' \
      compute-sanitizer --tool $tool /tmp/sp/test_gpu_candidates >"$out/$tool-spans.log" 2>&1
    [ -x /tmp/sp/test_gpu_candidates ] && CUPERM_TEST_FILTER='runs_*' \
      compute-sanitizer --tool $tool /tmp/sp/test_gpu_candidates >"$out/$tool-runs.log" 2>&1
    [ -x build-sp/test_gpu_transpose ] && CUPERM_TEST_FILTER='batches_of_small_transposes' \
      compute-sanitizer --tool $tool build-sp/test_gpu_transpose >"$out/$tool-spans-api.log" 2>&1
    for f in "$out/$tool"-spans*.log "$out/$tool"-runs.log; do
      [ -f "$f" ] && echo "$(basename "$f"): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$f" | tr '\n' ' ')"
    done
  done
fi
if [[ $skip != *,modes,* ]]; then # heuristic and measure mode (every candidate timed, the fastest run)
  step modes
  for s in shortgroup shortgroup-heldout; do
    build-carry/bin/cuperm-bench $s --dtype i8,f16,f32 --mode both --target-ms ${TARGET_MS:-20} --quiet \
      --out "$out/modes" >"$out/modes-$s.log" 2>&1
    echo "$s rc=$?"; grep -E "median|worst" "$out/modes-$s.log" | head -12
  done
fi
if [[ $skip != *,changed,* && -d ${CHANGED_DIR:-none} ]]; then # cases whose plan a rule changed: CHANGED_DIR/changed-E.txt
  step changed
  for d in u8:1 f16:2 f32:4; do
    [ -s "$CHANGED_DIR/changed-${d#*:}.txt" ] || continue
    timeout ${CHANGED_S:-100} build-carry/bin/cuperm-bench --cases "$CHANGED_DIR/changed-${d#*:}.txt" \
      --dtype ${d%:*} --mode both --target-ms 10 --plan-reps 1 --quiet --out "$out/changed" >"$out/changed-${d%:*}.log" 2>&1
    echo "changed ${d%:*} rc=$?"; grep -E "heuristic/measured|bandwidth" "$out/changed-${d%:*}.log" | head -4
  done
fi
if [[ $skip != *,candidates,* && -x /tmp/sp/cuperm-candidate-times ]]; then
  step candidates
  for s in shortgroup shortgroup-heldout; do
    for d in i8:1 f16:2 f32:4; do
      build-carry/bin/cuperm-bench $s --list --dtype ${d%:*} | grep -v '^#' | awk -v e=${d#*:} '{print e, $1, $2}' \
        >/tmp/sp/$s-${d%:*}.txt
      /tmp/sp/cuperm-candidate-times ${TARGET_MS:-10} </tmp/sp/$s-${d%:*}.txt >"$out/cand-$s-${d%:*}.csv" \
        2>"$out/cand-$s-${d%:*}.err"
      echo "$s ${d%:*} rc=$? $(($(wc -l <"$out/cand-$s-${d%:*}.csv") - 1)) candidates"
    done
  done
  for f in ${CHANGED_DIR:-none}/changed-*.txt; do # the changed cases' candidates too (before and after picks)
    [ -s "$f" ] || continue
    e=${f##*-} && e=${e%.txt}
    awk -v e="$e" '!/^#/ && NF {print e, $1, $2}' "$f" >/tmp/sp/changed-$e.txt
    /tmp/sp/cuperm-candidate-times ${TARGET_MS:-10} </tmp/sp/changed-$e.txt >"$out/cand-changed-$e.csv" \
      2>"$out/cand-changed-$e.err"
    echo "changed $e-byte rc=$? $(($(wc -l <"$out/cand-changed-$e.csv") - 1)) candidates"
  done
fi
if [[ $skip != *,fuzz,* && ( -f build-fz/cuperm-fuzz.xz || -x /tmp/sp/cuperm-fuzz ) ]]; then
  step fuzz
  [ -x /tmp/sp/cuperm-fuzz ] && export FUZZ_EXE=/tmp/sp/cuperm-fuzz
  OUT=$out/fuzz scripts/gpu-fuzz-carried.sh
fi
if [[ -n ${NCU_CASES:-} ]]; then # Nsight Compute on the heuristic launch of "dtype:extents:perm" cases
  step ncu
  OUT=$out/ncu scripts/gpu-transpose-ncu-carried.sh $NCU_CASES
fi
if [[ -n ${AB_TIMERS:-} && -s ${AB_CASES:-none} ]]; then # every candidate of AB_CASES by each named timer, alternating
  step ab
  for round in 1 2; do
    for x in $AB_TIMERS; do
      /tmp/sp/$x ${TARGET_MS:-10} <"$AB_CASES" >"$out/ab-$x-$round.csv" 2>"$out/ab-$x-$round.err"
      echo "$x round $round rc=$? $(($(wc -l <"$out/ab-$x-$round.csv") - 1)) candidates"
    done
  done
fi
if [[ $skip != *,report,* ]]; then
  step report
  BUDGET_S=${BUDGET_S:-240} OUT=$out scripts/gpu-transpose-report.sh shortgroup carry
fi
step done
