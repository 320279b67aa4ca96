#!/usr/bin/env bash
# Per-instruction profile (SASS with executed-instruction counts and stall samples) of the GETT
# kernel of chosen TCCG48 cases, from binaries carried in build-dt/ (scripts/lib/make-carry.sh:
# cuperm_make_dtile_carry). KERNEL: ncu kernel-name regex (default dtile); ENV: the plan's
# environment (default "CUPERM_GETT=1 CUPERM_GETT_DTILE=1"); DTYPE (default f16); LAUNCHES (default 1:
# kernels profiled a case, e.g. 2 for the packed path's pack kernel and kernel).
#   scripts/gpu-ncu-sass.sh 31 40      -> $OUT/sass-<case>.csv, $OUT/ncu-<case>.txt
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs=${OUT:-$PWD/gpu-ncu-sass}; mkdir -p "$logs"
d=/tmp/dtile; mkdir -p "$d/lib"
xz -dc build-dt/libcuperm.so.0.xz >"$d/lib/libcuperm.so.0" && ln -sf libcuperm.so.0 "$d/lib/libcuperm.so" &&
  cp build-dt/libcmocka.so.0 "$d/lib/" || { echo "no build-dt/"; exit 1; }
export LD_LIBRARY_PATH="$d/lib"
for c in "$@"; do
  env ${ENV:-CUPERM_GETT=1 CUPERM_GETT_DTILE=1} ncu --clock-control none --kernel-name-base demangled \
    --kernel-name "regex:${KERNEL:-dtile}" --launch-skip 2 --launch-count "${LAUNCHES:-1}" --import-source no \
    --section SpeedOfLight --section WarpStateStats --section SourceCounters --section LaunchStats \
    --metrics "$(cat scripts/lib/ncu-gett-metrics.txt)" -f -o "$d/rep-$c" \
    build-dt/cuperm-bench tccg48 --dtype "${DTYPE:-f16}" --mode model --skip $((c - 1)) --limit 1 --target-ms 5 \
    --plan-reps 1 --quiet >"$logs/ncu-$c.log" 2>&1
  ncu -i "$d/rep-$c.ncu-rep" >"$logs/ncu-$c.txt" 2>&1
  ncu -i "$d/rep-$c.ncu-rep" --page source --print-source sass --csv >"$logs/sass-$c.csv" 2>&1
  echo "case $c: $(grep -E 'Duration|inst_executed' "$logs/ncu-$c.txt" | tr -s ' ' | tr '\n' ';') sass lines $(wc -l <"$logs/sass-$c.csv")"
done
