#!/usr/bin/env bash
# Session 23, issue 14: the two reference copies (cudaMemcpyAsync and the bench copy kernel) on the
# L2 suites and TTC-57 f64, and measure mode on the held-out suites' worst cases (bench/cases/worst-heldout-*).
# Carries build-carry/ (scripts/lib/make-carry.sh). Run: OUT=DIR scripts/gpu-copy-baseline-check.sh
set -u
export LD_LIBRARY_PATH=$PWD/build-carry/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
BUDGET_S=300 OUT=$OUT scripts/gpu-transpose-report.sh copies carry 2>&1 | tail -20
[ -n "${COPIES_ONLY:-}" ] && exit 0
B=build-carry/bin/cuperm-bench
mkdir -p /tmp/w
$B --cases bench/cases/worst-heldout-f64.txt --dtype f64 --mode both --target-ms 30 --plan-reps 1 --quiet --out /tmp/w --tag worst-f64 > /tmp/w/worst-f64.log 2>&1; echo worst rc=$?
$B --cases bench/cases/worst-heldout-l2-f32.txt --dtype f32 --mode both --target-ms 30 --plan-reps 1 --quiet --out /tmp/w --tag worst-l2 > /tmp/w/worst-l2.log 2>&1; echo worstl2 rc=$?
python3 - <<'PY'
import csv
for t in ['worst-f64','worst-l2']:
    rows=list(csv.DictReader(open(f'/tmp/w/{t}.csv')))
    for r in rows: print(t, r['extents'], r['perm'], r['mode'], r['kernel'], r['config'], r['pct_copy'], r['exec_ms'], r['memcpy_ms'], r['copy_kernel_ms'], r['verified'])
PY
(cd /tmp/w && tar czf $OUT/worst.tgz *.csv *.log)
