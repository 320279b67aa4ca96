#!/usr/bin/env bash
# The runs form of whole-dims launches (issue 14, session 64) on one GPU, from build-ru/ and build-rt/,
# carried one at a time (scripts/lib/make-carry.sh: cuperm_make_runs_carry): test_gpu_candidates (FILTER, default its
# runs_candidates test: every candidate launch of the runs shapes against a reference), the same under
# memcheck and racecheck (build-ru), then every candidate of the cases in build-rt/cases-*.txt timed
# (cuperm-candidate-times; "ELEM EXTENTS PERM" lines), its CSVs and logs in $OUT/candidates.tgz.
# Steps named in SKIP (tests,sanitizer,candidates) are left out.
#   run (carry build-ru, or build-rt): OUT=... [SKIP=...] [FILTER=...] [TARGET_MS=10] scripts/gpu-runs-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/runs-check}; mkdir -p "$out" /tmp/ru/cand
skip=",${SKIP:-},"
for x in build-ru/test_gpu_candidates build-rt/cuperm-candidate-times; do
  [ -f $x.xz ] && xz -dc $x.xz >/tmp/ru/${x#*/} && chmod +x /tmp/ru/${x#*/}
done
export LD_LIBRARY_PATH=$PWD/build-ru${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} # cmocka
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
t0=$(date +%s)
step() { echo "== $1 ($(( $(date +%s) - t0 )) s)"; }
if [[ $skip != *,tests,* && -x /tmp/ru/test_gpu_candidates ]]; then
  step tests
  CUPERM_TEST_FILTER=${FILTER:-runs_candidates} /tmp/ru/test_gpu_candidates >"$out/test_gpu_candidates.log" 2>&1
  echo "test_gpu_candidates rc=$?"; grep -E "PASSED|FAILED|wrong|failed" "$out/test_gpu_candidates.log" | head -20
fi
if [[ $skip != *,sanitizer,* && -x /tmp/ru/test_gpu_candidates ]]; then
  step sanitizer
  for tool in memcheck racecheck; do
    CUPERM_TEST_FILTER=runs_candidates compute-sanitizer --tool $tool /tmp/ru/test_gpu_candidates \
      >"$out/$tool-runs.log" 2>&1
    echo "$tool rc=$?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASSED|FAILED' "$out/$tool-runs.log" | tr '\n' ' ')"
  done
fi
if [[ $skip != *,candidates,* && -x /tmp/ru/cuperm-candidate-times ]]; then
  step candidates
  for f in build-rt/cases-*.txt; do
    n=$(basename "$f" .txt)
    /tmp/ru/cuperm-candidate-times ${TARGET_MS:-10} <"$f" >/tmp/ru/cand/$n.csv 2>/tmp/ru/cand/$n.err
    echo "$n rc=$? $(($(wc -l </tmp/ru/cand/$n.csv) - 1)) candidates, same=0: $(awk -F, '$5 == 0' /tmp/ru/cand/$n.csv | wc -l)"
  done
  tar czf "$out/candidates.tgz" -C /tmp/ru/cand .
fi
step done
