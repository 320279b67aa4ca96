#!/usr/bin/env bash
# cuperm's heuristic transposes against cuTENSOR 2.8.1's cutensorPermute (issue 14's comparison row),
# on a library built elsewhere for sm_90 and carried in build-carry/ (lib/libcuperm.so.0,
# bin/cuperm-bench), cuTENSOR from .deps-cutensor/ (scripts/lib/deps.sh: the wheel, or its pieces
# brought over one call at a time: cuperm_split_cutensor). `cuperm-bench --compare cutensor`: every
# element of both libraries' outputs checked, each timed against a same-run copy. Suites that would
# not fit in BUDGET_S (500) are skipped and said so. CSVs and summaries to $OUT, packed into
# all-logs.tgz.
#   run (carry build-carry, after the pieces): scripts/gpu-cutensor-transposes.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-cutensor-transposes}"
mkdir -p "$logs/cases"
source scripts/lib/deps.sh
cuperm_find_cutensor || exit 1
source scripts/lib/carried.sh
t0=$(date +%s) budget=${BUDGET_S:-500}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
sample() { local name=$1; shift; cuperm_sample_cases "$logs/cases/$name.txt" "$@"; } # NAME EVERY SUITE ARGS...
sample ttc57 2 ttc57
sample perm720 12 perm720
sample permn-heldout 24 permn-heldout
sample random 3 random
runs=("ttc57-f64|--cases $logs/cases/ttc57.txt --dtype f64" "l2-heldout-f32|l2-heldout --dtype f32"
      "primes-heldout-f64|primes-heldout --count 5 --dtype f64" "mixed-heldout-f64|mixed-heldout --dtype f64"
      "permn-heldout-f64|--cases $logs/cases/permn-heldout.txt --dtype f64" "perm720-f64|--cases $logs/cases/perm720.txt --dtype f64"
      "random-f64|--cases $logs/cases/random.txt --dtype f64" "ttc57-f32|--cases $logs/cases/ttc57.txt --dtype f32"
      "ttc57-f16|--cases $logs/cases/ttc57.txt --dtype f16" "random-f16|--cases $logs/cases/random.txt --dtype f16"
      "primes-heldout-f16|primes-heldout --count 5 --dtype f16")
for r in "${runs[@]}"; do
  tag=${r%%|*} args=${r#*|}
  if [ $(( $(date +%s) - t0 )) -gt "$budget" ]; then echo "$tag: skipped (time budget)"; continue; fi
  # shellcheck disable=SC2086
  timeout 150 "$bench" $args --mode heuristic --compare cutensor --plan-reps 1 --quiet --target-ms 20 --out "$logs" \
    --tag "$tag" >"$logs/$tag.log" 2>&1
  echo "$tag rc=$? $(grep -m1 'cuTENSOR time' "$logs/$tag-summary.txt" 2>/dev/null)"
done
tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
