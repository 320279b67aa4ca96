#!/usr/bin/env bash
# Runs cuperm-bench suites into one directory (CSV + summary per suite, each
# summary recording its exact command line and GPU), then plots them if
# matplotlib is importable.
#
# usage: bench/run-suites.sh BUILD_DIR OUT_DIR [SUITE...]
#   SUITE: ttc57 ttc57-narrow perm720 random highrank square small (default: all)
# Each suite alone stays within a few minutes on an H100.
set -uo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
build=$1
out=$2
shift 2
bench="$build/tools/bench/cuperm-bench"
[ -x "$bench" ] || { echo "run-suites.sh: $bench not built" >&2; exit 2; }
suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(ttc57 ttc57-narrow perm720 random highrank square small)

status=0
for suite in "${suites[@]}"; do
  case $suite in
    ttc57)        args=(ttc57 --dtype f64,f32) ;;
    ttc57-narrow) args=(ttc57 --dtype f16,i8 --tag ttc57-f16+i8-both) ;;
    perm720)      args=(perm720 --target-ms 40) ;;
    random)       args=(random) ;;
    highrank)     args=(highrank) ;;
    square)       args=(square) ;;
    small)        args=(small --dtype f64,f32) ;;
    *) echo "run-suites.sh: unknown suite $suite" >&2; exit 2 ;;
  esac
  echo "== $bench ${args[*]} --out $out"
  "$bench" "${args[@]}" --out "$out" || status=1
done

here=$(dirname "$0")
if python3 -c "import matplotlib" 2>/dev/null; then
  python3 "$here/plot.py" "$out"/*.csv --out "$out" || status=1
else
  echo "matplotlib not found: plot later with python3 $here/plot.py $out/*.csv"
fi
exit $status
