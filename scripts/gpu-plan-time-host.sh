#!/usr/bin/env bash
# Model planning's host time on the device machine's CPU (no GPU used): cuperm-ctr-plan-time, a
# static tool carried in DIR, on TCCG48 (f32, f16) and 12 random contractions, each on a fresh
# stand-in handle, warm and with 256 MiB written before each plan (cold caches). One tool per call
# (each is ~44 MB): run it once per build to compare two.
#   run (carry DIR): scripts/gpu-plan-time-host.sh DIR/TOOL
set -uo pipefail
cd "$(dirname "$0")/.."
tool=${1:?the cuperm-ctr-plan-time binary}
logs="${OUT:-$PWD/plan-time-host-logs}"
mkdir -p "$logs"
lscpu | grep -E "Model name|^CPU\(s\)" | tee "$logs/cpu.txt"
for src in "bench/cases/tccg48.txt --dtype f32" "bench/cases/tccg48.txt --dtype f16" "random:1:12"; do
  for cold in "" "--cold 256"; do
    # shellcheck disable=SC2086
    "$tool" $src --full $cold --reps 20 >"$logs/run.csv" 2>"$logs/run.err"
    echo "$src ${cold:-warm}: $(cat "$logs/run.err")"
  done
done
