#!/usr/bin/env bash
# Runs cuperm-bench suites into one directory: per suite TAG.csv, TAG-summary.txt
# (with the exact command line and GPU) and SUITE.log (the per-case table), then
# prints the summaries and plots them if matplotlib is importable.
#
# usage: bench/run-suites.sh BUILD_DIR OUT_DIR [SUITE|GROUP...]
#   SUITE: ttc57 ttc57-narrow perm720 random highrank square small, the untuned
#          shapes permn15 permn17 permn-f32 primes mixed l2 shortgroup, and the held-out ones
#          permn-heldout primes-heldout mixed-heldout l2-heldout shortgroup-heldout
#   GROUP: tuned (default: the first seven, ~6 min on an H100), tuning (the
#          untuned shapes tuned on from now), heldout (measured only at the end)
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
[ ${#suites[@]} -gt 0 ] || suites=(tuned)
expanded=()
for s in "${suites[@]}"; do
  case $s in
    tuned)   expanded+=(ttc57 ttc57-narrow perm720 random highrank square small) ;;
    tuning)  expanded+=(permn15 permn17 permn-f32 primes mixed l2 shortgroup) ;;
    heldout) expanded+=(permn-heldout primes-heldout mixed-heldout l2-heldout shortgroup-heldout) ;;
    *)       expanded+=("$s") ;;
  esac
done
suites=("${expanded[@]}")
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
    permn15)      args=(permn --extent 15 --target-ms 40 --tag permn15-f64) ;;
    permn17)      args=(permn --extent 17 --target-ms 40 --tag permn17-f64) ;;
    permn-f32)    args=(permn --extent 20 --dtype f32 --target-ms 40 --tag permn20-f32) ;;
    primes)       args=(primes) ;;
    mixed)        args=(mixed) ;;
    l2)           args=(l2 --dtype f32) ;;
    shortgroup)   args=(shortgroup --dtype f32,f64,f16,i8) ;;
    permn-heldout)  args=(permn-heldout --target-ms 40) ;;
    primes-heldout) args=(primes-heldout) ;;
    mixed-heldout)  args=(mixed-heldout) ;;
    l2-heldout)     args=(l2-heldout --dtype f32) ;;
    shortgroup-heldout) args=(shortgroup-heldout --dtype f32,f64,f16,i8) ;;
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
