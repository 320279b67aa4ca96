#!/usr/bin/env bash
# tools/probe/tma_transpose.cu on one GPU (issue 14: does the bulk tensor copy pay for transposes?), from
# build-tp/cuperm-tma-probe.xz (statically linked, built for sm_90: make cuperm-tma-probe). Cases as
# the probe takes them ("TYPE:N0,N1[,N2]"), CONFIGS the kernels ("STAGES:BOXES ...", default "4:1"); output
# in $OUT/probe.txt.
#   run (carry build-tp): OUT=... [CONFIGS="4:1 2:2"] scripts/gpu-tma-probe.sh f32:32768,32768 ...
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/tma-probe}; mkdir -p "$out"
xz -dc build-tp/cuperm-tma-probe.xz >/tmp/cuperm-tma-probe && chmod +x /tmp/cuperm-tma-probe || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
for c in ${CONFIGS:-4:1}; do
  /tmp/cuperm-tma-probe --stages "${c%:*}" --boxes "${c#*:}" "$@" 2>&1 | tee -a "$out/probe.txt"
done
