#!/bin/bash
# Byte-compares two trees' host planners on every benchmark case, on the CPU: for each suite
# cuperm-bench lists (transposes; held-out ones included) at 1, 2, 4, 8 and 16-byte elements,
# the outputs of cuperm-plan-features (default, --candidates, --describe and, where both
# tools have it, --predict) for an sm_90 device (tools/model/case_line.c's model_device).
#
#   tools/model/check_same_plans.sh BEFORE/cuperm-plan-features AFTER/cuperm-plan-features \
#       build/tools/bench/cuperm-bench [WORKDIR]
#
# Exit status 0 when every output is byte-identical. For changes that must not move a plan
# (tuning data moved, refactors); tools/model/compare_plans.py summarises changes that do.
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
before=$1 after=$2 bench=$3 work=${4:-$(mktemp -d)}
mkdir -p "$work"
suites="ttc57 perm720 random highrank square small permn primes mixed l2 shortgroup permn-heldout primes-heldout mixed-heldout l2-heldout shortgroup-heldout"
dtype() { case $1 in 1) echo u8 ;; 2) echo f16 ;; 4) echo f32 ;; 8) echo f64 ;; 16) echo c64 ;; esac; }
has_predict() { "$1" --predict </dev/null >/dev/null 2>&1; }
modes=("" --candidates --describe)
if has_predict "$before" && has_predict "$after"; then modes+=(--predict); else echo "--predict: skipped (not in both tools)"; fi
files=0 cases=0 diffs=0
for s in $suites; do
  for e in 1 2 4 8 16; do
    f=$work/cases-$s-$e.txt
    "$bench" "$s" --dtype "$(dtype "$e")" --list | grep -v '^#' | grep . | sed "s/^/$e /" >"$f"
    files=$((files + 1)) cases=$((cases + $(wc -l <"$f")))
    for m in "${modes[@]}"; do
      name=${m#--}
      "$before" $m <"$f" >"$work/before-${name:-default}-$s-$e.txt"
      "$after" $m <"$f" >"$work/after-${name:-default}-$s-$e.txt"
      if ! cmp -s "$work/before-${name:-default}-$s-$e.txt" "$work/after-${name:-default}-$s-$e.txt"; then
        echo "differs: $s, $e-byte elements, ${m:-default}"
        diffs=$((diffs + 1))
      fi
    done
  done
done
echo "$files case lists, $cases cases, modes: default ${modes[*]:1}; $diffs outputs differ (files in $work)"
[ "$diffs" -eq 0 ]
