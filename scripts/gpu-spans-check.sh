#!/usr/bin/env bash
# The span form of whole-dims launches (issue 14, session 60) on one GPU, from build-sp/
# (scripts/lib/make-carry.sh: cuperm_make_span_carry): test_gpu_candidates (every candidate launch,
# the span shapes among them) and its span tests under memcheck and racecheck; test_gpu_transpose;
# test_gpu_large's spans above 2^31 elements (LARGE_FILTER: another cmocka filter);
# every candidate of the short-group suites and their held-out twins timed at 1, 2 and 4 bytes (and of
# CHANGED_DIR's cases)
# (cuperm-candidate-times: the planner's choice against the fastest); the short-group report
# (heuristic plans, % of a same-run copy, every element verified); the differential fuzz test
# (scripts/gpu-fuzz-carried.sh, FUZZ_* and SANITIZE as there) where build-fz is carried too. Steps
# named in SKIP (tests,sanitizer,modes,changed,candidates,fuzz,report) are left out; the two programs that link the library
# statically are run where build-sp has them (with the library beside them they pass the carry limit).
#   run (carry build-sp [build-fz]): OUT=... [SKIP=...] [BUDGET_S=240] [CHANGED_DIR=...] scripts/gpu-spans-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
final=${OUT:-$PWD/spans-check}; out=/tmp/sp/out; rm -rf "$out"; mkdir -p "$final" "$out"
skip=",${SKIP:-},"
mkdir -p build-carry/bin build-carry/lib /tmp/sp
xz -dc build-sp/libcuperm.so.0.xz >build-carry/lib/libcuperm.so.0 && ln -sf libcuperm.so.0 build-carry/lib/libcuperm.so
cp build-sp/cuperm-bench build-carry/bin/ && cp build-sp/libcmocka.so.0 build-carry/lib/
for x in test_gpu_candidates cuperm-candidate-times; do # carried where they fit (each links the library)
  [ -f build-sp/$x.xz ] && xz -dc build-sp/$x.xz >/tmp/sp/$x && chmod +x /tmp/sp/$x
done
export LD_LIBRARY_PATH=$PWD/build-carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt" "$final/gpu.txt"
t0=$(date +%s)
step() { echo "== $1 ($(( $(date +%s) - t0 )) s)"; }
if [[ $skip != *,tests,* ]]; then
  step tests
  [ -x /tmp/sp/test_gpu_candidates ] &&
    { /tmp/sp/test_gpu_candidates >"$out/test_gpu_candidates.log" 2>&1; echo "test_gpu_candidates rc=$?"; }
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
    [ -x build-sp/test_gpu_transpose ] && CUPERM_TEST_FILTER='batches_of_small_transposes' \
      compute-sanitizer --tool $tool build-sp/test_gpu_transpose >"$out/$tool-spans-api.log" 2>&1
    for f in "$out/$tool"-spans*.log; do
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
if [[ $skip != *,fuzz,* && -f build-fz/cuperm-fuzz.xz ]]; then # carried beside build-sp where it fits
  step fuzz
  OUT=$out/fuzz scripts/gpu-fuzz-carried.sh
fi
if [[ $skip != *,report,* ]]; then
  step report
  BUDGET_S=${BUDGET_S:-240} OUT=$out scripts/gpu-transpose-report.sh shortgroup carry
fi
step done
# the device tool brings back 8 files: the summaries as they are, the rest in one archive
cp "$out"/summary-*.txt "$final"/ 2>/dev/null
tar czf "$final/spans-check.tgz" -C "$out" .
