#!/usr/bin/env bash
# Peer-stores redistributions taken apart on every visible GPU (2 x H200 expected), from binaries built
# here for sm_90 and carried in build-an/ (scripts/lib/make-carry.sh: cuperm_make_anatomy_carry): the
# library's distributed tests first (test_dist_layout, cuperm-dist-test --quick), then
# cuperm-dist-anatomy over a case file (tools/model/dist_case.h lines).
#   run (carry build-an): OUT=... CASES=FILE [CANDIDATES=2/8,2/1,1/8] [ITERS=10] scripts/gpu-dist-anatomy.sh
# PIECES=1: rank 0's local piece and unpacks alone on one GPU (--pieces; CASES may list several files,
# each logged to pieces-NAME.csv), no distributed tests.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=${OUT:-$PWD/gpu-dist-logs}; mkdir -p "$logs"
p=/tmp/cuperm-carried
source scripts/lib/make-carry.sh
cuperm_unpack_dist_carry build-an $p || { echo "no build-an (see make-carry.sh)"; exit 1; }
xz -dc build-an/cuperm-dist-anatomy.xz >$p/tests/cuperm-dist-anatomy && chmod +x $p/tests/*
nccl=${NCCL_LIB:-$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)/lib}
export LD_LIBRARY_PATH="$p/src:$nccl${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
if [[ -n "${PIECES:-}" ]]; then
  for f in ${CASES:?CASES=FILE...}; do
    timeout ${LIMIT_S:-400} $p/tests/cuperm-dist-anatomy "$f" --pieces --iters "${ITERS:-10}" \
      ${CANDIDATES:+--candidates "$CANDIDATES"} >"$logs/pieces-$(basename "$f" .txt).csv" 2>&1
    echo "cuperm-dist-anatomy --pieces $f rc=$?"
  done
  exit 0
fi
if [[ -z "${SKIP_TESTS:-}" ]]; then
  $p/tests/test_dist_layout >"$logs/test_dist_layout.log" 2>&1; echo "test_dist_layout rc=$?"
  timeout 300 $p/tests/cuperm-dist-test --quick >"$logs/dist-test.log" 2>&1; echo "cuperm-dist-test --quick rc=$?"
  tail -3 "$logs/dist-test.log"
fi
timeout ${LIMIT_S:-400} $p/tests/cuperm-dist-anatomy "${CASES:?CASES=FILE}" --iters "${ITERS:-10}" \
  ${CANDIDATES:+--candidates "$CANDIDATES"} >"$logs/anatomy.log" 2>&1
echo "cuperm-dist-anatomy rc=$?"
cat "$logs/anatomy.log"
