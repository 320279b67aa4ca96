#!/usr/bin/env bash
# Contraction planning on the H100, on a library built elsewhere for sm_90 and carried in
# build-carry/ (lib/libcuperm.so.0, bin/cuperm-bench, the GPU tests it finds in bin/, and
# lib/plan_shim.so from bench/results/contraction-planning-h100/s17/plan_shim.c): the GPU tests,
# then TCCG48 (f32, f16) and random contractions with model plans, their plan_ms per case, and one
# f32 run under the shim (where planning's host time goes: cuperm's own work and cuBLASLt's
# heuristic). Logs and CSVs to $OUT, packed into all-logs.tgz.
#   run (carry build-carry and the two .deps/libcmocka*.deb): scripts/gpu-planning-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-planning-logs}"
mkdir -p "$logs"
source scripts/lib/deps.sh
cuperm_find_cmocka
source scripts/lib/carried.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
if [ "${TESTS:-1}" = 1 ]; then
  for exe in build-carry/bin/test_*; do
    t=$(basename "$exe")
    timeout 200 "$exe" >"$logs/$t.log" 2>&1; echo "$t rc=$? $(grep -E 'PASSED|FAILED' "$logs/$t.log" | tail -1)"
  done
fi
run() { # TAG ARGS...: one bench run of model plans, its ratio lines printed
  local tag=$1; shift
  timeout 150 "$bench" "$@" --mode model --quiet --out "$logs" >"$logs/$tag.log" 2>&1
  echo "$tag rc=$? $(grep -h 'ratio' "$logs/$tag.log" | tail -2 | tr '\n' ' ')"
}
run tccg48-f32 tccg48 --dtype f32
run tccg48-f16 tccg48 --dtype f16
run random-f32 random-contractions --dtype f32 --count 12
if [ -f build-carry/lib/plan_shim.so ]; then
  mkdir -p "$logs/shim"
  LD_PRELOAD="$PWD/build-carry/lib/plan_shim.so" timeout 150 "$bench" tccg48 --dtype f32 --mode model --quiet \
    --no-verify --target-ms 5 --out "$logs/shim" >"$logs/plan-shim.log" 2>&1
  echo "plan shim rc=$?"; grep plan_shim "$logs/plan-shim.log"
fi
python3 - "$logs" <<'PY'
import csv, glob, statistics as st, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.csv")):
    rows = [r for r in csv.DictReader(l for l in open(f) if not l.startswith("#"))]
    ms = [float(r["plan_ms"]) * 1e3 for r in rows if r.get("plan_ms")]
    if ms: print(f"{f.split('/')[-1]}: plan_us median {st.median(ms):.1f} p90 {sorted(ms)[int(0.9*len(ms))]:.1f} max {max(ms):.1f}")
PY
tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
