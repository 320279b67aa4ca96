#!/usr/bin/env bash
# GPU check of cuperm.einsum: the einsum GPU tests, then the TCCG48 benchmark against torch.einsum and
# cupy.einsum (fp32, fp16) with host overheads. Run from the repository root on a GPU machine:
#   CUPERM_LIBRARY=build-gpu/src/libcuperm.so bench/python/einsum-check.sh [--limit N] [--overhead-only]
# Results (pytest log, einsum.csv, overhead.csv, bench.log) go to $OUT, or ./einsum-logs.
set -uo pipefail
export CUPERM_LIBRARY="${CUPERM_LIBRARY:-build-gpu/src/libcuperm.so}"
[ -f "$CUPERM_LIBRARY" ] || { echo "no library at \$CUPERM_LIBRARY=$CUPERM_LIBRARY" >&2; exit 2; }
export CUPERM_LIBRARY="$(cd "$(dirname "$CUPERM_LIBRARY")" && pwd)/$(basename "$CUPERM_LIBRARY")"
out="${OUT:-einsum-logs}"; mkdir -p "$out"
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 -m pytest -q -rs -p no:cacheprovider python/tests/test_gpu_einsum.py python/tests/test_gpu_torch.py \
  python/tests/test_einsum_parse.py python/tests/test_contraction_layout.py python/tests/test_einsum_dispatch.py \
  >"$out/pytest.log" 2>&1
rc_tests=$?
grep -E "FAILED|ERROR|SKIPPED" "$out/pytest.log" | head -40
echo "pytest rc=$rc_tests: $(tail -1 "$out/pytest.log")"
python3 bench/python/einsum_bench.py --out "$out" "$@" >"$out/bench.log" 2>&1
rc_bench=$?
tail -45 "$out/bench.log"
echo "pytest rc=$rc_tests, bench rc=$rc_bench"
[ $rc_tests = 0 ] && [ $rc_bench = 0 ]
