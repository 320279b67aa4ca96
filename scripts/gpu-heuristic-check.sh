#!/usr/bin/env bash
# The transpose planner's honesty target (issue 14): per suite, the share of cases whose heuristic
# plan runs within 5% of the measure-mode plan (cuperm-bench --mode both: heur_over_meas <= 1.05),
# on a library built elsewhere for sm_90 and carried in build-carry/ (lib/libcuperm.so.0,
# bin/cuperm-bench). Every element of both plans' outputs verified. Suites that would not fit in
# BUDGET_S (480) are skipped and said so. CSVs to $OUT, packed into all-logs.tgz.
#   run (carry build-carry): scripts/gpu-heuristic-check.sh
#   SET=small MODE=heuristic TAG=base: 1- and 2-byte suites (TTC-57 every 2nd case, random every 3rd,
#   mixed and primes held out) with heuristic plans only, files named TAG-SUITE (an A/B of a planner
#   change is two calls on the warm machine, one per carried library)
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-heuristic-logs}"
mkdir -p "$logs/cases"
source scripts/lib/carried.sh
t0=$(date +%s) budget=${BUDGET_S:-480}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
sample() { local name=$1; shift; cuperm_sample_cases "$logs/cases/$name.txt" "$@"; } # NAME EVERY SUITE ARGS...
sample permn-heldout 24 permn-heldout
sample random 3 random
sample ttc57 2 ttc57
mode=${MODE:-both} prefix=${TAG:+$TAG-}
if [ "${SET:-honesty}" = small ]; then
  runs=()
  for dt in i8 f16; do
    runs+=("ttc57-$dt|--cases $logs/cases/ttc57.txt --dtype $dt" "random-$dt|--cases $logs/cases/random.txt --dtype $dt"
           "mixed-heldout-$dt|mixed-heldout --dtype $dt" "primes-heldout-$dt|primes-heldout --count 5 --dtype $dt")
  done
else
runs=("primes-heldout-f64|primes-heldout --count 5 --dtype f64" "mixed-heldout-f64|mixed-heldout --dtype f64"
      "permn-heldout-f64|--cases $logs/cases/permn-heldout.txt --dtype f64" "l2-heldout-f32|l2-heldout --dtype f32"
      "random-f16|--cases $logs/cases/random.txt --dtype f16" "random-i8|--cases $logs/cases/random.txt --dtype i8"
      "primes-heldout-i8|primes-heldout --count 5 --dtype i8")
fi
for r in "${runs[@]}"; do
  tag=${r%%|*} args=${r#*|}
  if [ $(( $(date +%s) - t0 )) -gt "$budget" ]; then echo "$tag: skipped (time budget)"; continue; fi
  # shellcheck disable=SC2086
  timeout 200 "$bench" $args --mode "$mode" --quiet --target-ms 20 --out "$logs" --tag "$prefix$tag" >"$logs/$prefix$tag.log" 2>&1
  echo "$tag rc=$?"
done
python3 - "$logs" <<'PY' | tee "$logs/summary.txt"
import csv, glob, statistics as st, sys
print("suite: cases, heuristic within 5% of measure, median heuristic/measure, worst; % of copy median / worst")
for f in sorted(glob.glob(sys.argv[1] + "/*.csv")):
    rows = [r for r in csv.DictReader(l for l in open(f) if not l.startswith("#")) if r["mode"] == "heuristic"]
    v = [float(r["heur_over_meas"]) for r in rows if r["heur_over_meas"] not in ("", "nan")]
    pct = [float(r["pct_copy"]) for r in rows]
    honesty = f"{len(v)}, {100 * sum(x <= 1.05 for x in v) / len(v):.0f}%, {st.median(v):.3f}, {max(v):.3f}" if v else "-"
    print(f"{f.split('/')[-1][:-4]}: {honesty}; {st.median(pct):.1f} / {min(pct):.1f}")
PY
tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
