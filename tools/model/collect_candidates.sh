#!/usr/bin/env bash
# On the GPU machine, from the repository root: times every candidate launch of
# the benchmark suites' cases (the data tools/model/fit_ranking.py and
# tools/model/rank_rules.py rank with) and packs cases-*.txt and times-*.csv
# into $OUT/candidates.tgz.
#   tools/model/collect_candidates.sh [BUILD_DIR]
#   JOBS="permn15:8 primes:8 l2:4" EVERY=4 tools/model/collect_candidates.sh
# JOBS: suite:element-bytes[:extra cuperm-bench arguments, commas for spaces]
# (default: the suites the planner was first tuned on); EVERY=k keeps every k-th case
# of the permutation suites (perm720, permnN), so 720 permutations take 720/k.
set -uo pipefail
build=${1:-build-model}
out=${OUT:-/tmp/candidates}
work=/tmp/candidates-work
every=${EVERY:-1}
jobs=${JOBS:-"ttc57:8 ttc57:4 ttc57:2 ttc57:1 perm720:8 random:8 highrank:8 square:4 small:8 small:4"}
rm -rf "$work"; mkdir -p "$work" "$out"
# SKIP_BUILD=1: BUILD_DIR already holds both tools (a build made by another script)
if [ "${SKIP_BUILD:-0}" != 1 ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF >/dev/null &&
    cmake --build "$build" -j"$(nproc)" --target cuperm-bench cuperm-candidate-times >"$work/build.log" 2>&1 ||
    { tail -30 "$work/build.log"; exit 1; }
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$work/gpu.txt"
bench="$build/tools/bench/cuperm-bench" times="$build/tools/model/cuperm-candidate-times"
for job in $jobs; do
  IFS=: read -r suite elem extra <<<"$job"
  args=(); [ -n "$extra" ] && IFS=, read -r -a args <<<"$extra"
  tag="$suite-$elem"
  dtype=$(case $elem in 8) echo f64 ;; 4) echo f32 ;; 2) echo f16 ;; 1) echo i8 ;; esac)
  step=1
  case $suite in perm720 | permn*) step=$every ;; esac
  # permnN: the permn suite with --extent N
  if [[ $suite == permn[0-9]* ]]; then args+=(--extent "${suite#permn}"); suite=permn; fi
  start=$(date +%s)
  "$bench" "$suite" --dtype "$dtype" "${args[@]}" --list | grep -v '^#' | awk -v k="$step" '(NR - 1) % k == 0' |
    sed "s/^/$elem /" >"$work/cases-$tag.txt"
  "$times" <"$work/cases-$tag.txt" >"$work/times-$tag.csv" || echo "$tag: cuperm-candidate-times failed"
  echo "$tag: $(($(wc -l <"$work/times-$tag.csv") - 1)) candidate timings of $(wc -l <"$work/cases-$tag.txt") cases, $(($(date +%s) - start)) s"
done
(cd "$work" && tar czf "$out/candidates.tgz" cases-*.txt times-*.csv gpu.txt)
