#!/usr/bin/env bash
# The table GETT kernel's wgmma form (backend/cuda/gett/gett_wgmma.cu) on one GPU, from build-dt/
# (scripts/lib/make-carry.sh: cuperm_make_dtile_carry): test_gett_gpu on it (CUPERM_GETT_WGMMA=1);
# only if that passes, compute-sanitizer memcheck (and racecheck with RACECHECK=1) on its random cases, then
# TCCG48 (DTYPES, default f16) with GETT forced on it and with the default plans, side by side
# (scripts/gpu-dtile-check.sh's variants wgmma, ttgt; VARIANTS overrides). Logs in $OUT.
# With build-dt/libs-ab.tar.xz (new/ and old/libcuperm.so.0 in one xz stream, as scripts/gpu-ctr-model-ab.sh
# takes them) in place of build-dt/libcuperm.so.0.xz: the tests on new, then TCCG48 on the wgmma form with both
# libraries, ROUNDS (default 1) times in alternating order.
#   run (carry build-dt): OUT=... scripts/gpu-wgmma-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-wgmma-logs}; mkdir -p "$logs"
d=/tmp/dtile; mkdir -p "$d/lib"
if [ -f build-dt/libs-ab.tar.xz ]; then
  mkdir -p /tmp/ab && xz -dc build-dt/libs-ab.tar.xz | tar xf - -C /tmp/ab || exit 1
  cp /tmp/ab/new/libcuperm.so.0 "$d/lib/"
else
  xz -dc build-dt/libcuperm.so.0.xz >"$d/lib/libcuperm.so.0" || { echo "no build-dt/"; exit 1; }
fi
ln -sf libcuperm.so.0 "$d/lib/libcuperm.so" && cp build-dt/libcmocka.so.0 "$d/lib/" || exit 1
export LD_LIBRARY_PATH="$d/lib" PATH="$PATH:/usr/local/cuda/bin"
s=$(date +%s)
CUPERM_GETT_WGMMA=1 timeout "${TEST_TIMEOUT:-150}" build-dt/test_gett_gpu >"$logs/test_gett_wgmma_gpu.log" 2>&1
rc=$?
echo "test_gett_wgmma_gpu rc=$rc ($(( $(date +%s) - s )) s)"
grep -E '^\[  (PASSED|FAILED)|^FAILED|wgmma form|random:|REPRO' "$logs/test_gett_wgmma_gpu.log" | head -20
[ $rc = 0 ] || exit $rc
for tool in memcheck ${RACECHECK:+racecheck}; do
  s=$(date +%s)
  CUPERM_GETT_WGMMA=1 CUPERM_GETT_TEST_FILTER=test_random CUPERM_GETT_TEST_CASES=${SANITIZE_CASES:-24} timeout 200 \
    compute-sanitizer --tool $tool --error-exitcode 99 build-dt/test_gett_gpu >"$logs/$tool-wgmma.log" 2>&1
  echo "$tool rc=$? ($(( $(date +%s) - s )) s): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/$tool-wgmma.log" | tail -1)"
done
if [ -f build-dt/libs-ab.tar.xz ]; then
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
  for v in new old; do mkdir -p "/tmp/ab/$v" && ln -sf libcuperm.so.0 "/tmp/ab/$v/libcuperm.so"; done
  for r in $(seq 1 "${ROUNDS:-1}"); do
    order="old new"; [ $((r % 2)) = 0 ] && order="new old"
    for v in $order; do
      out="$logs/wgmma-$v-r$r"; mkdir -p "$out"
      for dt in ${DTYPES:-f16}; do
        LD_LIBRARY_PATH=/tmp/ab/$v CUPERM_GETT=1 CUPERM_GETT_SKINNY=0 CUPERM_GETT_WGMMA=1 timeout 280 \
          build-dt/cuperm-bench tccg48 --dtype "$dt" --mode model --quiet --out "$out" >"$out.log" 2>&1
        echo "wgmma $v r$r $dt rc=$? $(grep geomean "$out.log" | tail -1)"
      done
    done
  done
  python3 - "$logs" <<'PY'
import csv, glob, sys
rows = {}
for f in sorted(glob.glob(sys.argv[1] + "/wgmma-*-r*/tccg48-*.csv")):
    v = f.split("/")[-2]
    for r in csv.DictReader(l for l in open(f) if not l.startswith("#")):
        rows.setdefault(int(r["id"]), {})[v] = (float(r["time_ms"]), float(r["plain_gemm_ms"]) / float(r["time_ms"]))
names = sorted({v for c in rows.values() for v in c})
print("case " + " ".join("%18s" % n for n in names))
for i in sorted(rows):
    print("%4d " % i + " ".join("%9.4f ms %6.3f" % rows[i][n] if n in rows[i] else " " * 18 for n in names))
PY
  exit 0
fi
OUT=$logs SKIP=tests,fuzz,memcheck,ctr-memcheck,racecheck VARIANTS="${VARIANTS:-wgmma ttgt}" DTYPES="${DTYPES:-f16}" \
  scripts/gpu-dtile-check.sh
