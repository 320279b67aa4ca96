#!/usr/bin/env bash
# GPU check of cuperm._native (the compiled replay of the fast paths), from a source checkout:
#   CUPERM_LIBRARY=build-gpu/src/libcuperm.so bench/python/native-check.sh
# 1. compiles python/native/_native.c into python/cuperm/ (python/native/build_inplace.py);
# 2. every Python test with it (GPU tests included), then the PyTorch GPU tests with the Python
#    replay (CUPERM_NO_NATIVE=1);
# 3. host_overhead.py: per-call µs of cuperm (both replays) vs PyTorch, and the cost split.
# Logs and overhead.csv go to $OUT (default ./native-logs); exits non-zero if a step failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-native-logs}"
mkdir -p "$out"
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1
status=0
python3 python/native/build_inplace.py || exit 1
python3 -c "from cuperm import _fast; assert _fast._native is not None; print('native replay:', _fast._native.__file__)" ||
  exit 1
python3 -m pytest -q -rs -p no:cacheprovider python/tests >"$out/pytest-native.log" 2>&1 || status=1
tail -n 3 "$out/pytest-native.log"
CUPERM_NO_NATIVE=1 python3 -m pytest -q -rs -p no:cacheprovider python/tests/test_gpu_torch.py \
  python/tests/test_gpu_einsum.py python/tests/test_fast_path.py >"$out/pytest-python-replay.log" 2>&1 || status=1
tail -n 3 "$out/pytest-python-replay.log"
python3 bench/python/host_overhead.py --out "$out" 2>&1 | tee "$out/overhead.log" || status=1
exit $status
