#!/usr/bin/env bash
# Runs cuperm-bench suites into one directory: per suite TAG.csv, TAG-summary.txt
# (with the exact command line and GPU) and SUITE.log (the per-case table), then
# prints the summaries and plots them if matplotlib is importable.
#
# usage: bench/run-suites.sh BUILD_DIR OUT_DIR [SUITE...]
#   SUITE: ttc57 ttc57-narrow perm720 random highrank square small (default: all)
# All of them take about 6 minutes on an H100.
set -uo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
build=$1
out=$2
shift 2
bench="$build/tools/bench/cuperm-bench"
[ -x "$bench" ] || { echo "run-suites.sh: $bench is not built" >&2; exit 2; }
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(ttc57 ttc57-narrow perm720 random highrank square small)
mkdir -p "$out"

status=0
for suite in "${suites[@]}"; do
  case $suite in
    ttc57)        args=(ttc57 --dtype f64,f32) ;;
    ttc57-narrow) args=(ttc57 --dtype f16,i8) ;;
    perm720)      args=(perm720 --target-ms 40) ;;
    random)       args=(random) ;;
    highrank)     args=(highrank) ;;
    square)       args=(square) ;;
    small)        args=(small --dtype f64,f32) ;;
    *) echo "run-suites.sh: unknown suite $suite" >&2; exit 2 ;;
  esac
  start=$(date +%s)
  "$bench" "${args[@]}" --out "$out" >"$out/$suite.log" 2>&1
  rc=$?
  echo "== $suite: exit $rc, $(($(date +%s) - start)) s: $bench ${args[*]} --out $out"
  [ $rc -eq 0 ] || { status=1; grep -E "VERIFY FAILED|ERROR|cuperm-bench:" "$out/$suite.log" | head -5; }
done

for summary in "$out"/*-summary.txt; do
  [ -e "$summary" ] || continue
  echo "== $summary"
  sed '/^date:/d' "$summary"
done

here=$(dirname "$0")
csvs=("$out"/*.csv)
if [ ! -e "${csvs[0]}" ]; then
  echo "no CSV in $out to plot"
elif python3 -c "import matplotlib" 2>/dev/null; then
  python3 "$here/plot.py" "${csvs[@]}" --out "$out" || status=1
else
  echo "matplotlib not found: plot later with python3 $here/plot.py $out/*.csv"
fi
exit $status
