#!/usr/bin/env bash
# The skinny GETT kernel (backend/cuda/gett/gett_skinny.cu) against the table kernel it replaces
# (CUPERM_GETT_SKINNY=0) and against the default plans, from binaries carried in build-dt/
# (scripts/lib/make-carry.sh: cuperm_make_dtile_carry), f16, model plans:
#   1. random-contractions of 4096, 65536 and 1048576 elements (seed 1), every case GETT can run
#      forced onto GETT (--algo gett), skinny on and off, then default plans, skinny on and off;
#   2. TCCG48 default plans (SKIP=tccg to leave it out).
# Per case times (ms) side by side in $OUT/small-<volume>.txt; geomean of skinny / table times.
#   run (carry build-dt): scripts/gpu-skinny-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-skinny-logs}; mkdir -p "$logs"
d=/tmp/dtile; mkdir -p "$d/lib"
xz -dc build-dt/libcuperm.so.0.xz >"$d/lib/libcuperm.so.0" && ln -sf libcuperm.so.0 "$d/lib/libcuperm.so" || exit 1
export LD_LIBRARY_PATH="$d/lib"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
bench() { # tag env... -- args...
  local tag=$1; shift; local env=(); while [ "$1" != -- ]; do env+=("$1"); shift; done; shift
  env "${env[@]}" timeout 200 build-dt/cuperm-bench "$@" --dtype f16 --mode model --quiet --out "$d" --tag "$tag" \
    >"$logs/$tag.log" 2>&1
  echo "$tag rc=$? $(grep -E 'geomean' "$logs/$tag.log" | tail -1 | cut -c1-200)"
}
for v in ${VOLUMES:-4096 65536 1048576}; do
  bench "gett-skinny-$v" CUPERM_GETT_SKINNY=1 -- random-contractions --volume "$v" --algo gett
  bench "gett-table-$v" CUPERM_GETT_SKINNY=0 -- random-contractions --volume "$v" --algo gett
  bench "default-skinny-$v" CUPERM_GETT_SKINNY=1 -- random-contractions --volume "$v"
  bench "default-table-$v" CUPERM_GETT_SKINNY=0 -- random-contractions --volume "$v"
  python3 - "$d" "$v" <<'PY' | tee "$logs/small-$v.txt"
import csv, math, sys
d, v = sys.argv[1], sys.argv[2]
def load(tag):
    try:
        rows = [l for l in open(f"{d}/{tag}-f16.csv") if not l.startswith('#')]
    except OSError:
        return {}
    return {r['id']: r for r in csv.DictReader(rows)}
tags = [f"gett-skinny-{v}", f"gett-table-{v}", f"default-skinny-{v}", f"default-table-{v}"]
t = [load(x) for x in tags]
print("case  n   k    " + "  ".join(f"{x:>18}" for x in tags))
ratios = {0: [], 2: []}
for i in sorted(t[0] or t[2], key=int):
    r = [x.get(i) for x in t]
    ms = [float(x['time_ms']) if x else float('nan') for x in r]
    nk = r[0] or r[2]
    print(f"{i:>4} {nk['n']:>3} {nk['k']:>4} " + "  ".join(f"{m:18.4f}" for m in ms) + "  " +
          ("skinny" if r[0] and 'skinny' in r[0]['description'] else ""))
    for a in (0, 2):
        if ms[a] == ms[a] and ms[a + 1] == ms[a + 1] and ms[a] > 0 and ms[a + 1] > 0:
            ratios[a].append(ms[a] / ms[a + 1])
for a, name in ((0, "forced GETT"), (2, "default plans")):
    x = ratios[a]
    if x:
        print(f"{name}: skinny on / off time, geomean {math.exp(sum(map(math.log, x)) / len(x)):.3f} over {len(x)} cases, worst {max(x):.3f}, best {min(x):.3f}")
PY
  cp "$d"/*-"$v"-f16.csv "$logs/" 2>/dev/null
done
if [[ ",${SKIP:-}," != *,tccg,* ]]; then
  bench tccg48-default CUPERM_GETT_SKINNY=1 -- tccg48
  cp "$d/tccg48-default-f16.csv" "$logs/"
fi
