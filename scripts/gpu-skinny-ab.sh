#!/usr/bin/env bash
# A/B of the skinny GETT kernel's settings on TCCG 1-8 (the cases it takes), from binaries carried
# in build-dt/ (scripts/lib/make-carry.sh: cuperm_make_dtile_carry). Each setting of SETTINGS
# (comma-separated VAR=VALUE lists, "-" for none) runs cuperm-bench tccg48 --limit 8 with
# CUPERM_GETT=1 (GETT forced: the skinny kernel on 1-8), ROUNDS times interleaved, each run with
# its own same-run GEMM; then the default plans once. Per case: the median time of each setting.
# TESTS=1: test_gett_gpu's skinny cases under each setting first. NCU_CASES (e.g. "4 6"): Nsight Compute on those cases with the first setting afterwards
# (scripts/gpu-ncu-sass.sh). DTYPE (default f16).
#   run (carry build-dt): SETTINGS="- CUPERM_X=1" scripts/gpu-skinny-ab.sh
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs=${OUT:-$PWD/gpu-skinny-ab}; mkdir -p "$logs"
d=/tmp/dtile; mkdir -p "$d/lib" "$d/ab"
xz -dc build-dt/libcuperm.so.0.xz >"$d/lib/libcuperm.so.0" && ln -sf libcuperm.so.0 "$d/lib/libcuperm.so" &&
  cp build-dt/libcmocka.so.0 "$d/lib/" || { echo "no build-dt/"; exit 1; }
export LD_LIBRARY_PATH="$d/lib"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
dt=${DTYPE:-f16}
settings=(${SETTINGS:--})
if [ -n "${TESTS:-}" ]; then # test_gett_gpu's skinny cases under each setting
  for i in "${!settings[@]}"; do
    s=${settings[$i]}; env=(env); [ "$s" != - ] && env+=(${s//,/ })
    "${env[@]}" CUPERM_GETT_TEST_FILTER=test_skinny timeout 200 build-dt/test_gett_gpu >"$logs/test-s$i.log" 2>&1
    echo "test_skinny setting $i ($s) rc=$?: $(grep -E 'skinny:|PASSED|FAILED' "$logs/test-s$i.log" | tr '\n' ' ')"
  done
fi
for r in $(seq 1 "${ROUNDS:-2}"); do
  for i in "${!settings[@]}"; do
    s=${settings[$i]}; env=(env CUPERM_GETT=1); [ "$s" != - ] && env+=(${s//,/ })
    "${env[@]}" timeout 120 build-dt/cuperm-bench tccg48 --limit "${LIMIT:-8}" --dtype "$dt" --mode model --quiet \
      --out "$d/ab" --tag "s$i-r$r" >"$logs/s$i-r$r.log" 2>&1
    echo "setting $i ($s) round $r rc=$?"
  done
done
timeout 120 build-dt/cuperm-bench tccg48 --limit "${LIMIT:-8}" --dtype "$dt" --mode model --quiet --out "$d/ab" \
  --tag default >"$logs/default.log" 2>&1
python3 - "$d/ab" "$dt" "${#settings[@]}" "${ROUNDS:-2}" "${settings[@]}" <<'PY' | tee "$logs/cases.txt"
import csv, statistics, sys
d, dt, n, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
names = sys.argv[5:]
def load(tag):
    rows = [l for l in open(f"{d}/{tag}-{dt}.csv") if not l.startswith('#')]
    return {r['id']: r for r in csv.DictReader(rows)}
runs = [[load(f"s{i}-r{r}") for r in range(1, rounds + 1)] for i in range(n)]
dflt = load("default")
print("case " + " ".join(f"{x[:22]:>22}" for x in names) + "   default   (ms; ratio to the same-run GEMM)")
for c in sorted(dflt, key=int):
    cells = []
    for i in range(n):
        t = statistics.median(float(x[c]['time_ms']) for x in runs[i])
        g = statistics.median(float(x[c]['plain_gemm_ms']) for x in runs[i])
        cells.append(f"{t:9.4f} ({g / t:5.3f})")
    t, g = float(dflt[c]['time_ms']), float(dflt[c]['plain_gemm_ms'])
    print(f"{c:>4} " + " ".join(f"{x:>22}" for x in cells) + f" {t:9.4f} ({g / t:5.3f})")
PY
if [ -n "${NCU_CASES:-}" ]; then
  s=${settings[0]}; e="CUPERM_GETT=1"; [ "$s" != - ] && e+=" ${s//,/ }"
  OUT="$logs" ENV="$e" KERNEL=skinny DTYPE="$dt" scripts/gpu-ncu-sass.sh $NCU_CASES
fi
