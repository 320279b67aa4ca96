#!/usr/bin/env bash
# The transpose suites of the unseen-shapes issue on one GPU, heuristic plans, every element
# verified: builds cuperm-bench for sm_90 (unless BUILD_DIR/tools/bench/cuperm-bench exists),
# then runs GROUP (tuning: the suites tuned on; heldout: the held-out twins; tuned: TTC-57 at
# 8/4/2/1 bytes, 16^6 and the square; copies: the L2 suites and TTC-57 f64, to compare the two
# reference copies; small: the L2-sized suites in f32, f16 and i8, with two fresh draws of l2 from
# seeds 21 and 22; shortgroup: the short-group suite and its held-out twin at 4/8/2/1 bytes) and prints median / worst % of a same-run copy per suite
# (l2 and small: time over the copy's). The permutation suites take every EVERY-th permutation (4);
# primes take --count COUNT per rank (10). Suites that would not fit in BUDGET_S (500) are
# cut and said so. CSVs and logs: $OUT/SUITE-GROUP.tgz; summary: $OUT/summary-GROUP.txt.
# BUILD_DIR "carry": the cuperm-bench and library carried in build-carry/ (scripts/lib/make-carry.sh).
#   scripts/gpu-transpose-report.sh GROUP [BUILD_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
group=${1:?group: tuning, heldout, tuned, small, copies or shortgroup}
build=${2:-build-suites}
t0=$(date +%s)
budget=${BUDGET_S:-500} every=${EVERY:-4} count=${COUNT:-10}
out=${OUT:-$PWD/transpose-report}; work=/tmp/transpose-report-$group
rm -rf "$work"; mkdir -p "$out" "$work/csv" "$work/logs" "$work/cases"
bench=$build/tools/bench/cuperm-bench
if [ "$build" = carry ]; then
  bench=$PWD/build-carry/bin/cuperm-bench
  export LD_LIBRARY_PATH="$PWD/build-carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if [ ! -x "$bench" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF \
    -DCUPERM_BUILD_FORTRAN=OFF >"$work/logs/build.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target cuperm-bench >>"$work/logs/build.log" 2>&1 ||
    { tail -20 "$work/logs/build.log"; exit 1; }
fi
sample() { # name, suite arguments...: every $every-th case into cases/name.txt
  local name=$1; shift
  "$bench" "$@" --list | grep -v '^#' | awk -v k="$every" '(NR - 1) % k == 0' >"$work/cases/$name.txt"
}
case $group in
  tuning)
    sample permn15 permn --extent 15; sample permn17 permn --extent 17; sample permn20 permn --extent 20
    runs=("permn15|--cases $work/cases/permn15.txt --dtype f64" "permn17|--cases $work/cases/permn17.txt --dtype f64"
          "permn20-f32|--cases $work/cases/permn20.txt --dtype f32" "primes|primes --count $count"
          "mixed|mixed" "l2|l2 --dtype f32") ;;
  heldout)
    every=$((every * 2)); sample permn-heldout permn-heldout
    runs=("permn-heldout|--cases $work/cases/permn-heldout.txt --dtype f64" "primes-heldout|primes-heldout --count $count"
          "mixed-heldout|mixed-heldout" "l2-heldout|l2-heldout --dtype f32") ;;
  tuned)
    sample perm720 perm720
    runs=("ttc57|ttc57 --dtype f64,f32,f16,i8" "perm720|--cases $work/cases/perm720.txt --dtype f64" "square|square") ;;
  small)
    runs=("l2|l2 --dtype f32,f16,i8" "l2-heldout|l2-heldout --dtype f32,f16,i8" "small|small --dtype f32,f16,i8"
          "l2-seed21|l2 --seed 21 --dtype f32,f16,i8" "l2-seed22|l2 --seed 22 --dtype f32,f16,i8") ;;
  copies)
    runs=("l2|l2 --dtype f32" "l2-heldout|l2-heldout --dtype f32" "ttc57-f64|ttc57 --dtype f64") ;;
  shortgroup)
    runs=("shortgroup|shortgroup --dtype f32,f64,f16,i8" "shortgroup-heldout|shortgroup-heldout --dtype f32,f64,f16,i8") ;;
  *) echo "unknown group $group" >&2; exit 2 ;;
esac
notes=()
for r in "${runs[@]}"; do
  name=${r%%|*} args=${r#*|}
  left=$((budget - ($(date +%s) - t0)))
  if [ "$left" -lt 20 ]; then notes+=("CUT $name ($left s left)"); continue; fi
  s0=$(date +%s)
  # shellcheck disable=SC2086
  timeout "$left" "$bench" $args --mode heuristic --target-ms 20 --plan-reps 2 --quiet --out "$work/csv" --tag "$name" \
    >"$work/logs/$name.log" 2>&1
  rc=$?
  notes+=("$name: rc=$rc, $(($(date +%s) - s0)) s$([ $rc = 124 ] && echo ' (cut: partial CSV)')")
done
python3 - "$work/csv" "$group" >"$work/summary.txt" <<'PY'
import csv, glob, os, statistics, sys
d, group = sys.argv[1], sys.argv[2]
print(f"{'suite':16} {'type':5} {'cases':>5} {'median':>8} {'worst':>8} {'failed':>6}")
for path in sorted(glob.glob(os.path.join(d, "*.csv"))):
    name = os.path.basename(path)[:-4]
    rows = [r for r in csv.DictReader(open(path)) if r["mode"] == "heuristic"]
    for t in sorted({r["dtype"] for r in rows}):
        rs = [r for r in rows if r["dtype"] == t and r["pct_copy"]]
        fails = sum(r["verified"] != "1" for r in rows if r["dtype"] == t)
        if not rs:
            continue
        if name.startswith(("l2", "small")):  # time over the same-run copy's: lower is better
            v = [float(r["exec_ms"]) / float(r["copy_ms"]) for r in rs]
            print(f"{name:16} {t:5} {len(rs):5} {statistics.median(v):7.3f}x {max(v):7.3f}x {fails:6}")
        else:
            v = [float(r["pct_copy"]) for r in rs]
            print(f"{name:16} {t:5} {len(rs):5} {statistics.median(v):8.1f} {min(v):8.1f} {fails:6}")
        both = [r for r in rs if r.get("memcpy_ms") and r.get("copy_kernel_ms")]
        if both:  # which reference copy was the faster, and by how much
            k = [float(r["memcpy_ms"]) / float(r["copy_kernel_ms"]) for r in both]
            print(f"{'':16} memcpy time / copy-kernel time: median {statistics.median(k):.3f}, "
                  f"range {min(k):.3f}-{max(k):.3f}; timed as graph replays: "
                  f"{sum(r.get('graphs') == '1' for r in rs)} of {len(rs)}")
PY
{ echo "== $group ($(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)), $(($(date +%s) - t0)) s, every ${every}th permutation, primes --count $count"
  printf '%s\n' "${notes[@]}"; cat "$work/summary.txt"; } | tee "$out/summary-$group.txt"
(cd "$work" && tar czf "$out/suites-$group.tgz" csv logs cases summary.txt)
