#!/usr/bin/env bash
# Model plans of a library built elsewhere for sm_90 and carried in build-carry/ (lib/libcuperm.so.0,
# bin/cuperm-bench): TCCG48 (f32, f16) and random contractions (f32, f16, bf16) of SEEDS, every D
# verified, each plan against the same-shape cuBLAS GEMM. Two calls on the warm machine, one per
# library, compare a model change with its base (TAG names the files). Logs and CSVs to $OUT.
#   run (carry build-carry): TAG=candidate SEEDS="4 1" scripts/gpu-contraction-model-check.sh
set -uo pipefail
cd "$(dirname "$0")/.."
logs="${OUT:-$PWD/gpu-model-check-logs}"
mkdir -p "$logs"
export LD_LIBRARY_PATH="$PWD/build-carry/lib:${LD_LIBRARY_PATH:-}"
bench=build-carry/bin/cuperm-bench
tag=${TAG:-this}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
run() { # NAME ARGS...
  local name=$1; shift
  timeout 150 "$bench" "$@" --mode model --quiet --target-ms 40 --out "$logs" --tag "$tag-$name" >"$logs/$tag-$name.log" 2>&1
  echo "$name rc=$? $(grep -h ratio "$logs/$tag-$name.log" | sed 's/(target.*//' | tr '\n' ' ')"
}
run tccg48 tccg48 --dtype f32,f16
for seed in ${SEEDS:-4}; do run "random-s$seed" random-contractions --dtype f32,f16,bf16 --seed "$seed"; done
tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
