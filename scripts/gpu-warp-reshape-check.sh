#!/usr/bin/env bash
# Session 23, issue 14: the suites whose plans the warp-store reshape changes (mixed, mixed-heldout,
# highrank; f64, heuristic plans, every element verified) and test_gpu_transpose, on the carried
# build (build-carry/, scripts/lib/make-carry.sh). Run: OUT=DIR scripts/gpu-warp-reshape-check.sh
set -u
export LD_LIBRARY_PATH=$PWD/build-carry/lib
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=build-carry/bin/cuperm-bench w=/tmp/warp-reshape
mkdir -p "$w"
build-carry/bin/test_gpu_transpose >"$w/test_gpu_transpose.log" 2>&1; echo "test_gpu_transpose rc=$?"
for s in mixed mixed-heldout highrank; do
  $B $s --dtype f64 --mode heuristic --target-ms 30 --plan-reps 2 --quiet --out "$w" --tag $s >"$w/$s.log" 2>&1
  echo "$s rc=$?"
done
python3 - "$w" <<'PY'
import csv, glob, os, statistics, sys
for p in sorted(glob.glob(os.path.join(sys.argv[1], "*.csv"))):
    rows = [r for r in csv.DictReader(open(p)) if r["pct_copy"]]
    v = [float(r["pct_copy"]) for r in rows]
    bad = sum(r["verified"] != "1" for r in rows)
    print(f"{os.path.basename(p):24} {len(v):4} cases  median {statistics.median(v):5.1f}  worst {min(v):5.1f}  failed {bad}")
PY
(cd "$w" && tar czf "$OUT/warp-reshape-suites.tgz" .)
