#!/usr/bin/env bash
# Chosen transpose cases on up to three builds of this tree, one after the other: each case's
# heuristic-plan time (every element verified) and, with NCU=1, an Nsight Compute profile of
# one launch (speed of light, occupancy, warp stall reasons, instruction counts, memory
# traffic), to see what bounds a kernel. Builds cuperm-bench for sm_90 from this tree (tag
# this); with VARIANT_FILE and VARIANT_SED also from a copy with that sed applied to that file
# (variant); with BASE_PATCH also from a copy with that patch taken back (base). From the
# repository root on the device machine:
#   NCU=1 scripts/gpu-transpose-profile.sh f16:31625,6325:1,0 f32:31625,6325:1,0
#   BASE_PATCH=change.patch scripts/gpu-transpose-profile.sh f64:15,15,15,15,15,15:1,0,2,3,4,5
# Reports go to $OUT (or ./gpu-transpose-profile), packed into all-logs.tgz on exit:
# bench-<tag>.log per build, ncu-<tag>-<n>.txt per case.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/cuda/bin"
logs="${OUT:-$PWD/gpu-transpose-profile}"
source scripts/lib/ab.sh
mkdir -p "$logs"
ab_pack_on_exit
trees=(.) builds=(build-prof) tags=(this)
if [ -n "${VARIANT_FILE:-}" ]; then
  ab_copy_tree /tmp/cuperm-variant
  sed -i "${VARIANT_SED:?the sed expression that makes the variant}" "/tmp/cuperm-variant/$VARIANT_FILE"
  if cmp -s "$VARIANT_FILE" "/tmp/cuperm-variant/$VARIANT_FILE"; then echo "VARIANT_SED changed nothing"; exit 1; fi
  diff "$VARIANT_FILE" "/tmp/cuperm-variant/$VARIANT_FILE" >"$logs/variant.diff"
  trees+=(/tmp/cuperm-variant) builds+=(/tmp/cuperm-variant/build) tags+=(variant)
fi
if [ -n "${BASE_PATCH:-}" ]; then
  ab_copy_tree /tmp/cuperm-base
  patch -s -R -p1 -d /tmp/cuperm-base <"$BASE_PATCH" || { echo "BASE_PATCH does not reverse onto this tree"; exit 1; }
  cp "$BASE_PATCH" "$logs/base.diff"
  trees+=(/tmp/cuperm-base) builds+=(/tmp/cuperm-base/build) tags+=(base)
fi
build_bench() {
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_TESTS=OFF \
    >>"$logs/build.log" 2>&1 && cmake --build "$2" -j"$(nproc)" --target cuperm-bench >>"$logs/build.log" 2>&1
}
for i in "${!trees[@]}"; do build_bench "${trees[$i]}" "${builds[$i]}" & done
wait
for b in "${builds[@]}"; do
  [ -x "$b/tools/bench/cuperm-bench" ] || { tail -30 "$logs/build.log"; exit 1; }
done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
n=0
for c in "$@"; do
  IFS=: read -r dtype extents perm <<<"$c"
  n=$((n + 1))
  for i in "${!builds[@]}"; do
    bench="${builds[$i]}/tools/bench/cuperm-bench" tag=${tags[$i]}
    "$bench" --case "$extents $perm" --dtype "$dtype" --mode heuristic --target-ms 50 --plan-reps 1 \
      >>"$logs/bench-$tag.log" 2>&1
    echo "$tag $(grep -F '%' "$logs/bench-$tag.log" | grep -E '^ +[0-9]+ ' | tail -1 | tr -s ' ')"
    [ "${NCU:-0}" = 1 ] || continue
    # --clock-control none: the clocks stay as they are (never locked for the profile)
    ncu --clock-control none --kernel-name regex:'tile_kernel|whole_dims|copy_kernel' --launch-skip 1 --launch-count 1 \
      --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
      --section LaunchStats --section SchedulerStats --section InstructionStats \
      --metrics 'regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio' \
      "$bench" --case "$extents $perm" --dtype "$dtype" --mode heuristic --no-verify --target-ms 2 \
      --plan-reps 1 --quiet >"$logs/ncu-$tag-$n.txt" 2>&1
    echo "   ncu: $(grep -E '^ +(Duration|DRAM Throughput|Achieved Occupancy|Registers Per Thread|Executed Instructions|Compute \(SM\) Throughput) ' \
      "$logs/ncu-$tag-$n.txt" | tr -s ' ' | tr '\n' ';')"
  done
done
