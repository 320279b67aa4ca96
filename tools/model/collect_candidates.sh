#!/usr/bin/env bash
# On the GPU machine, from the repository root: times every candidate launch of
# the benchmark suites' cases (the data tools/model/fit_model.py ranks with) and
# packs cases-*.txt and times-*.csv into $OUT/candidates.tgz.
#   tools/model/collect_candidates.sh [BUILD_DIR]
set -uo pipefail
build=${1:-build-model}
out=${OUT:-/tmp/candidates}
work=/tmp/candidates-work
rm -rf "$work"; mkdir -p "$work" "$out"
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF >/dev/null &&
  cmake --build "$build" -j"$(nproc)" --target cuperm-bench cuperm-candidate-times >"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log"; exit 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$work/gpu.txt"
bench="$build/tools/bench/cuperm-bench" times="$build/tools/model/cuperm-candidate-times"
# suite:element bytes (the suites' own element sizes, as bench/run-suites.sh runs them)
for job in ttc57:8 ttc57:4 ttc57:2 ttc57:1 perm720:8 random:8 highrank:8 square:4 small:8 small:4; do
  suite=${job%:*} elem=${job#*:} tag="${job/:/-}"
  dtype=$(case $elem in 8) echo f64 ;; 4) echo f32 ;; 2) echo f16 ;; 1) echo i8 ;; esac)
  start=$(date +%s)
  "$bench" "$suite" --dtype "$dtype" --list | grep -v '^#' | sed "s/^/$elem /" >"$work/cases-$tag.txt"
  "$times" <"$work/cases-$tag.txt" >"$work/times-$tag.csv" || echo "$tag: cuperm-candidate-times failed"
  echo "$tag: $(($(wc -l <"$work/times-$tag.csv") - 1)) candidate timings, $(($(date +%s) - start)) s"
done
(cd "$work" && tar czf "$out/candidates.tgz" cases-*.txt times-*.csv gpu.txt)
