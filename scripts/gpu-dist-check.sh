#!/usr/bin/env bash
# Distributed transposes on every visible GPU (2 x H200 expected): builds libcuperm_dist
# for sm_90 against NCCL, runs the CPU block-arithmetic test, the GPU correctness and
# error-agreement program, and the benchmark (1 GB and 4 GB per GPU, small messages);
# prints a summary table last. Run from the repository root on the GPU machine:
#   scripts/gpu-dist-check.sh [--cases N] [--gb "1 4"] [--iters N] [--phases] [--nsys] [--prebuilt DIR]
#                             [--memcheck N] [--pieces] [--random N] [--seed S] [--carried DIR]
# --prebuilt DIR: skip the build and run DIR/tests/{test_dist_layout,cuperm-dist-test} with
# DIR/src's libraries (built elsewhere for sm_90, e.g. by scripts/dist-carry.sh).
# --carried DIR: the same from DIR as scripts/lib/make-carry.sh's cuperm_make_dtile_carry makes it
# (the core library xz-compressed beside the single-GPU programs, the distributed ones in DIR/dist).
# --random N: also the held-out suite at each --gb, N random 6-D redistributions (seed S, default 1;
# dist-random-<G>GB.log), every output element checked.
# --memcheck N: also run N quick random cases (and 2 contractions) under compute-sanitizer memcheck,
# NCCL's kernels excluded (dist-memcheck.log).
# --pieces: also run the bound-output cases with CUPERM_DIST_WHOLE=0 (one transpose per receiver
# instead of the whole-block transpose; dist-bench-<G>GB-pieces.log), for an A/B in one call.
# --phases: also time the reverse case's phases alone (cuperm-dist-test --phases, 1 GB per GPU).
# --nsys: also trace one 1 GB benchmark run with Nsight Systems (when nsys is found) and keep
# its kernel/NCCL timeline as CSV (dist-trace.csv.gz), to see what overlaps.
# Logs go to $OUT (or ./gpu-dist-logs). NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
# NCCL: $NCCL_ROOT, the nvidia-nccl-cu13 wheel's nvidia/nccl folder (python3 or ./.venv),
# /usr/local/cuda, or /usr: the first that has both nccl.h and libnccl.so*.
set -uo pipefail
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
cases=60 gbs="1 4" iters=10 nsys=0 phases=0 prebuilt="" memcheck=0 pieces=0 random=0 seed=1 carried=""
while [ $# -gt 0 ]; do
  case "$1" in
    --cases) cases=$2; shift ;;
    --gb) gbs=$2; shift ;;
    --iters) iters=$2; shift ;;
    --nsys) nsys=1 ;;
    --phases) phases=1 ;;
    --pieces) pieces=1 ;;
    --prebuilt) prebuilt=$2; shift ;;
    --carried) carried=$2; shift ;;
    --random) random=$2; shift ;;
    --seed) seed=$2; shift ;;
    --memcheck) memcheck=$2; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
logs="${OUT:-$PWD/gpu-dist-logs}"
mkdir -p "$logs"
build=build-dist
summary=()
add() { summary+=("$(printf '%-34s %s' "$1" "$2")"); }
finish() {
  echo
  echo "==== gpu-dist-check summary ($(head -1 "$logs/gpu.txt" 2>/dev/null), $(wc -l <"$logs/gpu.txt" 2>/dev/null) GPUs) ===="
  printf '%s\n' "${summary[@]}"
  exit "${1:-0}"
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$logs/gpu.txt"
export PATH="$PATH:/usr/local/cuda/bin"
source scripts/lib/deps.sh
[ -n "$prebuilt$carried" ] || cuperm_find_cmocka # the build's tests need it; carried ones bring theirs

# --- NCCL -------------------------------------------------------------------------------
wheel_dirs() {
  local py
  for py in python3 .venv/bin/python3 "${CUPERM_VENV:-}/bin/python3"; do
    command -v "$py" >/dev/null 2>&1 || [ -x "$py" ] || continue
    # nvidia.nccl may be a namespace package (no __file__): take its __path__ then
    "$py" -c 'import nvidia.nccl as m, os
f = getattr(m, "__file__", None)
print(os.path.dirname(f) if f else list(m.__path__)[0])' 2>/dev/null
  done
}
nccl_inc="" nccl_lib=""
for root in ${NCCL_ROOT:-} $(wheel_dirs) /usr/local/cuda /usr; do
  [ -d "$root" ] || continue
  inc="" lib=""
  for d in "$root/include"; do [ -f "$d/nccl.h" ] && inc=$d; done
  for d in "$root/lib" "$root/lib64" "$root/lib/x86_64-linux-gnu" "$root/targets/x86_64-linux/lib"; do
    for f in "$d/libnccl.so" "$d/libnccl.so.2"; do [ -z "$lib" ] && [ -e "$f" ] && lib=$f; done
  done
  # a wheel without headers: keep its library, take the header from the next root that has one
  [ -z "$nccl_lib" ] && [ -n "$lib" ] && nccl_lib=$lib
  [ -z "$nccl_inc" ] && [ -n "$inc" ] && nccl_inc=$inc
  [ -n "$nccl_inc" ] && [ -n "$nccl_lib" ] && break
done
echo "NCCL: header $nccl_inc/nccl.h, library $nccl_lib" | tee "$logs/nccl.txt"
if [ -z "$nccl_inc" ] || [ -z "$nccl_lib" ]; then add "NCCL" "NOT FOUND"; finish 1; fi
grep -E '#define NCCL_(MAJOR|MINOR|PATCH) ' "$nccl_inc/nccl.h" | tr '\n' ' ' >>"$logs/nccl.txt"
export LD_LIBRARY_PATH="$(dirname "$nccl_lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
add "NCCL" "$(basename "$nccl_lib") from $(dirname "$nccl_lib")"

# --- build --------------------------------------------------------------------------------
start=$(date +%s)
if [ -n "$carried" ]; then # unpack into the --prebuilt layout
  prebuilt=/tmp/cuperm-carried
  source scripts/lib/make-carry.sh
  cuperm_unpack_dist_carry "$carried" "$prebuilt" || { add build "no $carried/dist (make-carry.sh)"; finish 1; }
fi
if [ -n "$prebuilt" ]; then
  build=$prebuilt
  export LD_LIBRARY_PATH="$(cd "$build/src" && pwd):$LD_LIBRARY_PATH"
  add build "prebuilt ($build)"
elif cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DCUPERM_BUILD_FORTRAN=OFF \
     -DCUPERM_NCCL_INCLUDE_DIR="$nccl_inc" -DCUPERM_NCCL_LIBRARY="$nccl_lib" >"$logs/build.log" 2>&1 &&
   cmake --build "$build" -j"$(nproc)" --target cuperm cuperm_dist test_dist_layout cuperm-dist-test \
     >>"$logs/build.log" 2>&1; then
  add build "ok ($(( $(date +%s) - start )) s)"
else
  tail -30 "$logs/build.log"; add build FAILED; finish 1
fi
ldd "$build/tests/cuperm-dist-test" | grep -E 'nccl|cuperm' | tee -a "$logs/nccl.txt"

# --- tests ----------------------------------------------------------------------------------
timeout 60 "$build/tests/test_dist_layout" >"$logs/test_dist_layout.log" 2>&1
add "test_dist_layout (CPU)" "rc=$? $(grep -E 'PASSED|FAILED' "$logs/test_dist_layout.log" | tail -1)"

start=$(date +%s)
timeout 300 "$build/tests/cuperm-dist-test" --cases "$cases" >"$logs/dist-test.log" 2>&1
rc=$?
grep -E '^(FAIL|FAILED)' "$logs/dist-test.log" | head -20
tail -3 "$logs/dist-test.log"
add "cuperm-dist-test ($cases cases)" "rc=$rc $(grep -E '^dist:' "$logs/dist-test.log" | tail -1) ($(( $(date +%s) - start )) s)"
add "  error agreement" "$(grep -cE '^ok +error' "$logs/dist-test.log") ok, $(grep -cE '^FAIL +error' "$logs/dist-test.log") failed"

# --- compute-sanitizer memcheck on this library's kernels (NCCL's own excluded) ----------------
if [ "$memcheck" -gt 0 ]; then
  san=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null | head -1)
  if [ -n "$san" ]; then
    start=$(date +%s)
    # NCCL's initialisation probes kernels and peer access with failing CUDA calls: API errors are
    # not reported (the program checks every status of its own); memory errors are.
    DT_WATCHDOG_SCALE=10 timeout 420 "$san" --tool memcheck --kernel-name-exclude kns=nccl --report-api-errors no \
      --error-exitcode 9 "$build/tests/cuperm-dist-test" --quick --cases "$memcheck" --contractions 2 \
      >"$logs/dist-memcheck.log" 2>&1
    rc=$?
    tail -4 "$logs/dist-memcheck.log"
    add "memcheck ($memcheck cases)" "rc=$rc $(grep -E '^dist:' "$logs/dist-memcheck.log" | tail -1 | cut -c1-60); $(grep -E 'ERROR SUMMARY' "$logs/dist-memcheck.log" | tail -1) ($(( $(date +%s) - start )) s)"
  else
    add "memcheck" "SKIPPED (no compute-sanitizer)"
  fi
fi

# --- benchmark --------------------------------------------------------------------------------
for gb in $gbs; do
  log="$logs/dist-bench-${gb}GB.log"
  timeout 240 "$build/tests/cuperm-dist-test" --bench --gb "$gb" --iters "$iters" >"$log" 2>&1
  rc=$?
  cat "$log"
  add "bench ${gb} GB/GPU" "rc=$rc"
  while read -r line; do
    case "$line" in
      6-D*) add "  $(echo "$line" | cut -c1-34)" "$(echo "$line" | awk '{print "dist", $(NF-7), "ms  a2a", $(NF-6), "ms  ratio", $(NF-4), " host", $(NF-3), "ms", $(NF-1), $NF}')";;
    esac
  done < <(grep -E '^6-D' "$log")
  [ "$pieces" = 1 ] || continue
  log="$logs/dist-bench-${gb}GB-pieces.log"
  CUPERM_DIST_WHOLE=0 DT_BENCH_ONLY="bound output" timeout 240 "$build/tests/cuperm-dist-test" --bench --gb "$gb" \
    --iters "$iters" >"$log" 2>&1
  add "bench ${gb} GB/GPU, pieces" "rc=$?"
  cat "$log"
  while read -r line; do
    add "  $(echo "$line" | cut -c1-34)" "$(echo "$line" | awk '{print "dist", $(NF-7), "ms  a2a", $(NF-6), "ms  ratio", $(NF-4), $NF}')"
  done < <(grep -E '^6-D' "$log")
done

if [ "$random" -gt 0 ]; then
  for gb in $gbs; do
    log="$logs/dist-random-${gb}GB.log"
    timeout 400 "$build/tests/cuperm-dist-test" --bench --random "$random" --seed "$seed" --gb "$gb" --iters "$iters" \
      >"$log" 2>&1
    add "held-out ${gb} GB/GPU (seed $seed)" "rc=$? $(grep -c ' ok$' "$log") checked ok, $(grep -c 'WRONG\|^FAILED' "$log") bad"
    while read -r line; do add "  ${line#held-out }" ""; done < <(grep -E '^held-out (model|measure|bound)' "$log")
    cat "$log"
  done
fi

if [ "$phases" = 1 ]; then
  timeout 240 "$build/tests/cuperm-dist-test" --phases --gb 1 --iters "$iters" >"$logs/dist-phases.log" 2>&1
  add "phases (1 GB/GPU)" "rc=$? dist-phases.log"
  cat "$logs/dist-phases.log"
fi

# --- timeline -------------------------------------------------------------------------------
if [ "$nsys" = 1 ]; then
  nsys_bin=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys \
             /usr/local/cuda/nsight-systems-*/bin/nsys 2>/dev/null | head -1)
  if [ -z "$nsys_bin" ]; then
    add "nsys timeline" "SKIPPED (no nsys)"
  else
    timeout 240 "$nsys_bin" profile -o /tmp/dist-trace --force-overwrite true --trace=cuda \
      "$build/tests/cuperm-dist-test" --bench --gb 1 --iters 2 >"$logs/nsys.log" 2>&1
    "$nsys_bin" stats --report cuda_gpu_trace --format csv --output /tmp/dist-trace /tmp/dist-trace.nsys-rep \
      >>"$logs/nsys.log" 2>&1
    gzip -c /tmp/dist-trace_cuda_gpu_trace.csv >"$logs/dist-trace.csv.gz" 2>/dev/null
    add "nsys timeline" "$( [ -s "$logs/dist-trace.csv.gz" ] && echo "dist-trace.csv.gz" || echo "FAILED (nsys.log)")"
  fi
fi
finish 0
