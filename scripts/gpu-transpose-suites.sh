#!/usr/bin/env bash
# Before/after of the transpose planner on the H100 in ONE device call (<= 9 min):
# builds cuperm-bench for sm_90 twice -- this tree, and this tree with src/ of the
# merge-base with main (the old planner and kernels; the bench tool, with the new
# suites, is the same in both) -- then runs, pair by pair in the same session,
# TTC-57 f64, perm720 (16^6), permn 15 and 17 (f64), primes, mixed and l2 with
# --mode heuristic on both builds, the GPU tests of the kernels this branch touched
# (test_gpu_candidates, test_gpu_transpose, CUPERM_TEST_QUICK=1), and prints a
# before/after table of medians and worst cases last. The held-out suites are NOT
# run (bench/README.md: measured only at the end).
#
#   scripts/gpu-transpose-suites.sh            # from the repository root
#   BUDGET_S=500 PERM_EVERY=6 scripts/gpu-transpose-suites.sh
#
# PERM_EVERY=k runs every k-th of the 720 permutations (default 6: 120 each);
# suites that would not fit in BUDGET_S (default 510 s, from the start) are cut and
# said so. Writes $OUT/gpu-transpose-suites.tgz (CSVs, summaries, logs) and
# $OUT/summary.txt.
set -uo pipefail
cd "$(dirname "$0")/.."
t_start=$(date +%s)
budget=${BUDGET_S:-510}
every=${PERM_EVERY:-6}
out="${OUT:-$PWD/gpu-transpose-suites-out}"; work=/tmp/gpu-transpose-suites
rm -rf "$work"; mkdir -p "$out" "$work/csv" "$work/logs" "$work/cases"
elapsed() { echo $(($(date +%s) - t_start)); }
notes=()
note() { notes+=("$*"); echo "== $*"; }
export PATH="$PATH:/usr/local/cuda/bin"
source scripts/lib/deps.sh
cuperm_find_cmocka >/dev/null 2>&1 || note "cmocka not found: GPU tests will not build"

# ---- the base tree: this tree with src/ of the merge-base -------------------------
base_dir=/tmp/cuperm-base-tree
rm -rf "$base_dir"; mkdir -p "$base_dir"
tar --exclude=./.git --exclude='./build*' --exclude=./.venv --exclude=./.deps -cf - . | tar -xf - -C "$base_dir"
rm -rf "$base_dir/src"
# The base is this tree's src/ without the planner changes of issue 14 (the saved patch
# reverts exactly them: git diff <merge of h-suites> <its first parent> -- src), so the
# comparison isolates the planner. BASE_REV=<commit> takes src/ of a commit instead.
base_rev=${BASE_REV:-}
patch_file=$PWD/scripts/gpu-transpose-suites-base.patch
if [ -n "$base_rev" ] && git archive "$base_rev" src 2>/dev/null | tar -xf - -C "$base_dir" 2>/dev/null && [ -f "$base_dir/src/CMakeLists.txt" ]; then
  note "base: src/ of $base_rev (git archive)"
else
  # No usable .git: src/ of this tree with the saved reverse patch (this tree -> base) applied.
  rm -rf "$base_dir/src"; cp -r src "$base_dir/src"
  if (cd "$base_dir" && { patch -p1 -s --no-backup-if-mismatch <"$patch_file" || git apply "$patch_file"; }); then
    note "base: src/ of this tree with scripts/gpu-transpose-suites-base.patch reversed in (no git)"
  else
    note "base: FAILED to make the old src/ (no git, patch did not apply); before = after below"
  fi
fi

# ---- builds -----------------------------------------------------------------------
build() { # dir build-dir targets...
  local src=$1 dir=$2; shift 2
  cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_FORTRAN=OFF \
    ${CUPERM_EXTRA_CMAKE:-} \
    >"$work/logs/$(basename "$dir")-build.log" 2>&1 &&
  cmake --build "$dir" -j"$(nproc)" --target "$@" >>"$work/logs/$(basename "$dir")-build.log" 2>&1
}
new_bench=$PWD/build-suites-new/tools/bench/cuperm-bench
base_bench=/tmp/build-suites-base/tools/bench/cuperm-bench
build . build-suites-new cuperm-bench test_gpu_candidates test_gpu_transpose ||
  { tail -30 "$work/logs/build-suites-new-build.log"; note "new build FAILED"; }
note "new build done at $(elapsed) s"
CUPERM_EXTRA_CMAKE=-DCUPERM_BUILD_TESTS=OFF build "$base_dir" /tmp/build-suites-base cuperm-bench ||
  { tail -30 "$work/logs/build-suites-base-build.log"; note "base build FAILED"; }
note "base build done at $(elapsed) s"

# ---- GPU tests of the touched kernels ----------------------------------------------
for t in test_gpu_candidates test_gpu_transpose; do
  exe=$(find build-suites-new -name "$t" -type f -perm -u+x | head -1)
  if [ -n "$exe" ]; then
    CUPERM_TEST_QUICK=1 timeout 120 "$exe" >"$work/logs/$t.log" 2>&1
    note "$t (CUPERM_TEST_QUICK=1): rc=$? $(grep -E 'PASSED|FAILED' "$work/logs/$t.log" | tail -2 | tr '\n' ' ')"
  else
    note "$t: not built"
  fi
done

# ---- suites, base and new back to back ---------------------------------------------
sample_perms() { # extent file: every $every-th permutation of extent^6
  "$new_bench" permn --extent "$1" --list 2>/dev/null | tail -n +2 | awk -v k="$every" '(NR - 1) % k == 0' >"$2" ||
  "$new_bench" perm720 --extent "$1" --list | tail -n +2 | awk -v k="$every" '(NR - 1) % k == 0' >"$2"
}
sample_perms 16 "$work/cases/perm16.txt"
sample_perms 15 "$work/cases/perm15.txt"
sample_perms 17 "$work/cases/perm17.txt"
# name | estimated seconds for both builds | arguments
suites=(
  "ttc57|40|ttc57 --dtype f64 --target-ms 25"
  "perm16|50|--cases $work/cases/perm16.txt --dtype f64 --target-ms 20"
  "permn15|40|--cases $work/cases/perm15.txt --dtype f64 --target-ms 20"
  "permn17|50|--cases $work/cases/perm17.txt --dtype f64 --target-ms 20"
  "l2|15|l2 --dtype f32 --count 4 --target-ms 25"
  "mixed|50|mixed --count 4 --target-ms 25"
  "primes|60|primes --count 5 --target-ms 25"
)
for entry in "${suites[@]}"; do
  IFS='|' read -r name est args <<<"$entry"
  left=$((budget - $(elapsed)))
  if [ "$left" -lt "$est" ]; then note "CUT $name (estimated $est s, $left s left)"; continue; fi
  per=$(( left / 2 < 150 ? left / 2 : 150 ))
  for which in base new; do
    bench=$new_bench; [ $which = base ] && bench=$base_bench
    [ -x "$bench" ] || { note "$name $which: no cuperm-bench"; continue; }
    s0=$(date +%s)
    # shellcheck disable=SC2086
    timeout "$per" "$bench" $args --mode heuristic --quiet --out "$work/csv" --tag "$name-$which" \
      >"$work/logs/$name-$which.log" 2>&1
    rc=$?
    note "$name $which: rc=$rc, $(($(date +%s) - s0)) s$([ $rc = 124 ] && echo ' (timed out: partial CSV)')"
  done
done

# ---- before/after table --------------------------------------------------------------
table=$(python3 - "$work/csv" <<'PY'
import csv, glob, os, statistics, sys
d = sys.argv[1]
names = ["ttc57", "perm16", "permn15", "permn17", "primes", "mixed", "l2"]
def load(path):
    try:
        with open(path) as f:
            return [r for r in csv.DictReader(f) if r["mode"] == "heuristic" and r["pct_copy"]]
    except OSError:
        return []
print(f"{'suite':9} {'cases':>5}  {'before median/worst':>20}  {'after median/worst':>19}  {'verify fail':>11}")
for n in names:
    b, a = load(os.path.join(d, f"{n}-base.csv")), load(os.path.join(d, f"{n}-new.csv"))
    if not a and not b:
        continue
    if n == "l2":  # time over the same-run copy's: lower is better
        val = lambda r: float(r["exec_ms"]) / float(r["copy_ms"])
        fmt = lambda rs: (f"{statistics.median(map(val, rs)):.3f}x/{max(map(val, rs)):.3f}x" if rs else "-")
    else:
        val = lambda r: float(r["pct_copy"])
        fmt = lambda rs: (f"{statistics.median(map(val, rs)):.1f}/{min(map(val, rs)):.1f}" if rs else "-")
    fails = sum(r["verified"] == "0" for r in a)
    print(f"{n:9} {len(a):5}  {fmt(b):>20}  {fmt(a):>19}  {fails:>11}")
# the cases that changed most
rows = []
for n in names:
    if n == "l2":
        continue
    b = {r["extents"] + " " + r["perm"]: r for r in load(os.path.join(d, f"{n}-base.csv"))}
    for r in load(os.path.join(d, f"{n}-new.csv")):
        k = r["extents"] + " " + r["perm"]
        if k in b:
            rows.append((float(r["pct_copy"]) - float(b[k]["pct_copy"]), n, k, b[k]["config"], r["config"],
                         float(b[k]["pct_copy"]), float(r["pct_copy"])))
rows.sort()
print("\nlargest losses and gains (% of copy, base -> new, config):")
for x in rows[:6] + rows[-6:]:
    print(f"  {x[0]:+6.1f}  {x[1]:8} {x[2]:40} {x[5]:5.1f} -> {x[6]:5.1f}  {x[3]} -> {x[4]}")
PY
)
gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)
{ echo "==== gpu-transpose-suites ($gpu), $(elapsed) s, base $base_rev, every ${every}th permutation ===="
  printf '%s\n' "${notes[@]}"
  echo
  echo "heuristic plans, % of same-run copy (l2: time / copy time), before = merge-base src/, after = this tree"
  echo "$table"; } >"$out/summary.txt"
cp "$out/summary.txt" "$work/"
(cd "$work" && tar czf "$out/gpu-transpose-suites.tgz" csv logs cases summary.txt)
cat "$out/summary.txt"
