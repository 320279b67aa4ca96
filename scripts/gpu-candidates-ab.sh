#!/usr/bin/env bash
# Every candidate launch of a set of cases timed by two builds of cuperm-candidate-times in one
# device call (the same machine, the same warm GPU), to A/B a kernel change: only the candidates the
# change touches should move. Carried (64 MiB at most, hence xz):
#   build-ab/base.xz, build-ab/new.xz   cuperm-candidate-times of the base and of the change, stripped
#                                       (base.xz alone: one build's candidate times, to fit or rank with)
#   build-ab/cases/NAME.txt             cases as cuperm-candidate-times reads them ("ELEM EXTENTS PERM")
# The two tools alternate which runs first from one case file to the next. Writes
# $OUT/times-NAME-{base,new}.csv ("case,candidate,seconds,copy_seconds") and packs them in ab-times.tgz;
# tools/model/compare_candidates_ab.py BASE_DIR compares them, with cuperm-plan-features --candidates
# (run on the development machine) naming each candidate's kernel.
# AXPBY=1 also times every case file whose elements are 4, 8 or 16 bytes with out = 2 in + 0.5 out
# (cuperm-candidate-times' axpby mode: the kernels' AxpbyOp forms), as suite NAME_axpby.
#   run: scripts/gpu-candidates-ab.sh [TARGET_MS]   (timing budget per candidate, cuperm-candidate-times)
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/candidates-ab-logs}; mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
work=/tmp/candidates-ab; mkdir -p "$work"
builds="base"; [ -f build-ab/new.xz ] && builds="base new"
for t in $builds; do xz -dc "build-ab/$t.xz" >"$work/$t" && chmod +x "$work/$t" || { echo "no build-ab/$t.xz"; exit 1; }; done
t0=$(date +%s) budget=${BUDGET_S:-540}
runs=""
for f in build-ab/cases/*.txt; do
  runs="$runs $f:"
  [ -n "${AXPBY:-}" ] && ! grep -qv '^\(4\|8\|16\) ' "$f" && runs="$runs $f:axpby"
done
i=0
for r in $runs; do
  f=${r%%:*} mode=${r#*:}; name=$(basename "$f" .txt)${mode:+_$mode}
  order=$builds; [ "$builds" != base ] && [ $((i % 2)) = 1 ] && order="new base"; i=$((i + 1))
  for t in $order; do
    start=$(date +%s) left=$((budget - (start - t0)))
    [ "$left" -lt 10 ] && { echo "$name $t: CUT (budget)"; continue; }
    CUPERM_MODEL_UNPACKED=${mode:+1} timeout "$left" "$work/$t" ${1:-15} $mode <"$f" >"$out/times-$name-$t.csv" 2>"$out/err-$name-$t.log" || echo "$name $t: rc=$?"
    echo "$name $t: $(($(wc -l <"$out/times-$name-$t.csv") - 1)) timings, $(($(date +%s) - start)) s"
  done
done
(cd "$out" && tar czf ab-times.tgz times-*.csv err-*.log && rm -f times-*.csv err-*.log)
