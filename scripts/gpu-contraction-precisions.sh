#!/usr/bin/env bash
# TCCG48 (and random-contractions) in every precision the GETT issue names, on a library built
# elsewhere for sm_90 and carried in build-carry/ (lib/libcuperm.so.0, bin/cuperm-bench): model
# plans against the same-shape cuBLAS GEMM, plan_ms per case. With build-carry/lib/plan_shim.so
# (bench/results/contraction-planning-h100/s17/plan_shim.c) one more f32 run splits the planning
# time. Logs and CSVs to $OUT, packed into all-logs.tgz.
#   run (carry build-carry): scripts/gpu-contraction-precisions.sh [RANDOM_COUNT]
#   SHIM_ONLY=1 scripts/gpu-contraction-precisions.sh: the planning-time split only
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-precisions-logs}"
mkdir -p "$logs"
export LD_LIBRARY_PATH="$PWD/build-carry/lib:${LD_LIBRARY_PATH:-}"
bench=build-carry/bin/cuperm-bench
count=${1:-12}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$logs/gpu.txt"
run() { # TAG ARGS...: one bench run, its summary line printed
  local tag=$1; shift
  timeout 150 "$bench" "$@" --mode model --quiet --out "$logs" >"$logs/$tag.log" 2>&1
  echo "$tag rc=$? $(grep -h 'ratio' "$logs/$tag.log" | tail -2 | tr '\n' ' ')"
}
if [ "${SHIM_ONLY:-0}" != 1 ]; then
run tccg48-f64 tccg48 --dtype f64
run tccg48-bf16 tccg48 --dtype bf16
run tccg48-tf32 tccg48 --dtype f32 --compute tf32
run tccg48-f32 tccg48 --dtype f32
run tccg48-f16 tccg48 --dtype f16
if [ "$count" != 0 ]; then
  run random-f64-bf16 random-contractions --dtype f64,bf16 --count "$count"
  run random-tf32 random-contractions --dtype f32 --compute tf32 --count "$count"
fi
fi
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
