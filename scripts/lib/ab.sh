# Sourced by the device scripts that measure a change against another build of the same tree
# (gpu-transpose-ab.sh, gpu-contraction-ab.sh). They set logs=... first.

# Packs $logs into $logs/all-logs.tgz on exit (the device tool brings back 8 files at most).
ab_pack_on_exit() {
  trap 'tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"' EXIT
}

# The start both scripts share: $logs made and packed on exit, cmocka found, and a copy of this
# tree in $1 for the other build.
ab_start() {
  mkdir -p "$logs"
  ab_pack_on_exit
  source scripts/lib/deps.sh
  cuperm_find_cmocka
  ab_copy_tree "$1"
}

# A copy of this tree (no build folders, no cuTENSOR pieces) in $1, emptied first.
ab_copy_tree() {
  rm -rf "$1" && mkdir -p "$1"
  tar cf - --exclude='./build*' --exclude=./.deps-cutensor . | tar xf - -C "$1"
}

# Builds trees $1 and $3 into $2 and $4 for sm_90, in parallel (the second one cuperm-bench only
# when AB_SECOND_BENCH_ONLY=1); says why and fails if either has no cuperm-bench.
ab_build_pair() {
  local tree1=$1 dir1=$2 tree2=$3 dir2=$4
  ab_build_one "$tree1" "$dir1" & ab_build_one "$tree2" "$dir2" "${AB_SECOND_BENCH_ONLY:-0}" & wait
  [ -x "$dir1/tools/bench/cuperm-bench" ] && [ -x "$dir2/tools/bench/cuperm-bench" ] ||
    { tail -30 "$logs/build.log"; return 1; }
}

# Builds tree $1 into $2 for sm_90; only cuperm-bench when $3 is 1.
ab_build_one() {
  local only=()
  [ "${3:-0}" = 1 ] && only=(--target cuperm-bench)
  cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 >>"$logs/build.log" 2>&1 &&
    cmake --build "$2" -j"$(nproc)" "${only[@]}" >>"$logs/build.log" 2>&1
}

# Runs cuperm-bench SUITE --dtype DTYPE --mode MODE [ARGS...] on build $1 (tag $2), then on build
# $3 (tag $4), then, when AB_THIRD="DIR TAG" is set, on that build, one after the other, and prints
# each run's summary lines. SUITE/N runs every N-th case of SUITE (from its --list), named
# SUITE-everyN in the logs.
ab_bench_pair() {
  local b1=$1 t1=$2 b2=$3 t2=$4 suite=$5 dtype=$6 mode=$7 b t side name=$5 sel=("$5")
  shift 7
  if [[ $suite == */* ]]; then
    name="${suite%%/*}-every${suite##*/}"
    "$b1/tools/bench/cuperm-bench" "${suite%%/*}" --dtype "$dtype" --list "$@" | grep -v '^#' |
      awk -v n="${suite##*/}" 'NR % n == 1' >"$logs/$name-cases.txt"
    sel=(--cases "$logs/$name-cases.txt")
  fi
  local sides="1 2"
  [ -n "${AB_THIRD:-}" ] && sides="1 2 3"
  for side in $sides; do
    case $side in 1) b=$b1 t=$t1 ;; 2) b=$b2 t=$t2 ;; 3) read -r b t <<<"$AB_THIRD" ;; esac
    timeout 200 "$b/tools/bench/cuperm-bench" "${sel[@]}" --dtype "$dtype" --mode "$mode" "$@" --out "$logs" \
      --tag "$name-$dtype-$t" >"$logs/$name-$dtype-$t.log" 2>&1
    echo "$name $dtype $t rc=$? $(grep -E '^  all |geomean|verification failures' "$logs/$name-$dtype-$t.log" |
      tr -s ' ' | tr '\n' ';')"
  done
}
