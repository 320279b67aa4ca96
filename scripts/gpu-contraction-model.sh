#!/usr/bin/env bash
# Data for the contraction GEMM model (issue "Contractions, part 2"), one device call: builds
# cuperm-bench and cuperm-ctr-gemm-sweep for sm_90, measures the sweep's deep family (few thread
# blocks each streaming a long k: the regime of random f16 contraction 12), runs TCCG48 and
# random contractions of SEEDS (model plans, f32 and f16; their CSVs carry each plan's own GEMM in
# the gemm_* columns), then refits the model on the committed sweep plus the deep family and scores
# it held out on those plans' GEMMs (tools/bench/contraction_gemm_fit.py --heldout; the header is
# written to $OUT, not into src/). From the repository root on the device machine:
#   SEEDS="1 2 3" scripts/gpu-contraction-model.sh
# Logs and CSVs go to $OUT (or ./gpu-contraction-model-logs), also packed into all-logs.tgz.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs="${OUT:-$PWD/gpu-contraction-model-logs}"
mkdir -p "$logs"
build=build-bench
finish() {
  local tgz
  tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
}
trap finish EXIT
if ! { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF \
         >"$logs/build.log" 2>&1 &&
       cmake --build "$build" -j"$(nproc)" --target cuperm-bench cuperm-ctr-gemm-sweep >>"$logs/build.log" 2>&1; }; then
  tail -30 "$logs/build.log"
  exit 1
fi
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
timeout 200 "$build/tools/bench/cuperm-ctr-gemm-sweep" "$logs/gemm-sweep-deep.csv" f16,f32 deep
echo "deep sweep rc=$? ($(grep -vc '^#' "$logs/gemm-sweep-deep.csv") rows)"
bench="$build/tools/bench/cuperm-bench"
heldout=()
timeout 200 "$bench" tccg48 --dtype f32,f16 --mode model --quiet --out "$logs" --tag tccg48 >"$logs/tccg48.log" 2>&1
echo "tccg48 rc=$?"; grep -E "geomean" "$logs/tccg48.log"
heldout+=("$logs/tccg48-f32.csv" "$logs/tccg48-f16.csv")
for seed in ${SEEDS:-1 2 3}; do
  timeout 200 "$bench" random-contractions --seed "$seed" --dtype f32,f16 --mode model --quiet --out "$logs" \
    --tag "random-s$seed" >"$logs/random-s$seed.log" 2>&1
  echo "random seed $seed rc=$?"; grep -E "geomean" "$logs/random-s$seed.log"
  heldout+=("$logs/random-s$seed-f32.csv" "$logs/random-s$seed-f16.csv")
done
# The committed sweep plus the deep family, fitted and scored held out (the weights stay in $logs).
python3 - "$logs/gemm-sweep-deep.csv" "$logs/gemm-sweep-all.csv" <<'PY'
import gzip, sys
old = gzip.open("bench/results/contraction/h100-2026-11-21-measure/sweep/gemm-sweep.csv.gz", "rt").read()
deep = [l for l in open(sys.argv[1]) if not l.startswith("#") and not l.startswith("dtype,")]
open(sys.argv[2], "w").write(old + "".join(deep))
PY
for sweep in bench/results/contraction/h100-2026-11-21-measure/sweep/gemm-sweep.csv.gz "$logs/gemm-sweep-all.csv"; do
  echo "== fit on $sweep"
  python3 tools/bench/contraction_gemm_fit.py "$sweep" "$logs/gemm_fit-$(basename "$sweep" | cut -d. -f1).h" \
    --heldout "${heldout[@]}" 2>&1 | grep -E "GEMMs|held out|skipped"
done | tee "$logs/fit.log"
