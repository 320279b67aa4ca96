#!/bin/bash
# Session 3, call 1: tests and sanitizers of the working tree, then every
# candidate's time (incl. the new vector tile shapes) on 4/2/1-byte suites.
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/out}
timeout 420 scripts/gpu-check.sh --quick --no-bench > $OUT/gpu-check.txt 2>&1
tail -22 $OUT/gpu-check.txt
( cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log )
T=build-gpu/tools/model/cuperm-candidate-times
[ -x $T ] || cmake --build build-gpu -j16 --target cuperm-candidate-times >/dev/null 2>&1
mkdir -p /tmp/cand
for j in square-4 small-4 ttc57-4 ttc57-2 ttc57-1 small-8 highrank-8 random-8 perm720-8 ttc57-8; do
  start=$(date +%s)
  timeout 100 $T < bench/results/h100/candidates/cases-$j.txt > /tmp/cand/times-$j.csv
  echo "$j rc=$? $(($(date +%s)-start)) s"
done
(cd /tmp/cand && tar czf $OUT/cand.tgz *.csv)
