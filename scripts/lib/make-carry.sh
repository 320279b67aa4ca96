# cuperm_make_carry BUILD: refreshes build-carry/ (the device tool's carry, under 64 MiB) from a
# build made here for sm_90: the shared library without debug sections, cuperm-bench and the GPU
# test programs that link it (and their cmocka). Source from the repository root.
cuperm_make_carry() {
  local b=$1 t
  mkdir -p build-carry/lib build-carry/bin
  strip --strip-debug -o build-carry/lib/libcuperm.so.0 "$b/src/libcuperm.so.0"
  ln -sf libcuperm.so.0 build-carry/lib/libcuperm.so
  cp "$b/tools/bench/cuperm-bench" build-carry/bin/
  for t in test_ctr_gpu test_ctr_threads test_gett_gpu test_gpu_errors test_gpu_plan_cache_file test_gpu_transpose; do
    cp "$(find "$b/tests" -name "$t" -type f | head -1)" build-carry/bin/
  done
  # the tests' cmocka, where it is a shared library of this machine (the device machine has none)
  local cmocka
  cmocka=$(ldd build-carry/bin/test_gpu_transpose | awk '/libcmocka/ {print $3}')
  [ -n "$cmocka" ] && cp -L "$cmocka" build-carry/lib/
  return 0
}

# cuperm_make_dtile_carry BUILD: build-dt/ for scripts/gpu-dtile-check.sh: the shared library
# xz-compressed, cuperm-bench, test_gett_gpu, test_ctr_gpu, cuperm-ctr-candidate-times
# and cmocka (the static fuzz test does not fit beside
# them: scripts/gpu-fuzz-carried.sh carries it alone); where BUILD has the distributed library,
# it and its test programs in build-dt/dist/ (scripts/gpu-dist-check.sh --carried build-dt).
# BUILD configured with -DCMAKE_CUDA_ARCHITECTURES=90-real (machine code only, no PTX) keeps the
# library at 24 MB; with PTX (90) it is 44 MB, which with the working tree passes the device tool's
# 64 MiB.
cuperm_make_dtile_carry() {
  local b=$1
  mkdir -p build-dt
  strip --strip-debug -o build-dt/libcuperm.so.0 "$b/src/libcuperm.so.0"
  xz -6 -T2 -f build-dt/libcuperm.so.0
  cp "$b/tools/bench/cuperm-bench" "$(find "$b/tests" -name test_gett_gpu -type f | head -1)" build-dt/
  cp "$b/tools/model/cuperm-ctr-candidate-times" build-dt/ # scripts/gpu-ctr-candidates.sh
  cp "$(find "$b/tests" -name test_ctr_gpu -type f | head -1)" build-dt/ # measure mode among its cases
  cp -L "$(ldd build-dt/test_gett_gpu | awk '/libcmocka/ {print $3}')" build-dt/
  if [ -f "$b/src/libcuperm_dist.so.0" ]; then
    mkdir -p build-dt/dist
    strip --strip-debug -o build-dt/dist/libcuperm_dist.so.0 "$b/src/libcuperm_dist.so.0"
    xz -6 -T2 -f build-dt/dist/libcuperm_dist.so.0
    cp "$b/tests/cuperm-dist-test" "$b/tests/test_dist_layout" build-dt/dist/
  fi
}

# cuperm_make_walk_carry BUILD: build-wk/ for scripts/gpu-walk-check.sh: the shared library and
# cuperm-candidate-times (which links it statically) xz-compressed, cuperm-bench, test_gpu_transpose
# and cmocka. BUILD configured for 90-real (see cuperm_make_dtile_carry): both fit beside the tree.
cuperm_make_walk_carry() {
  local b=$1
  mkdir -p build-wk
  strip --strip-debug -o build-wk/libcuperm.so.0 "$b/src/libcuperm.so.0"
  strip --strip-debug -o build-wk/cuperm-candidate-times "$b/tools/model/cuperm-candidate-times"
  xz -6 -T2 -f build-wk/libcuperm.so.0 build-wk/cuperm-candidate-times
  cp "$b/tools/bench/cuperm-bench" "$(find "$b/tests" -name test_gpu_transpose -type f | head -1)" build-wk/
  cp -L "$(ldd build-wk/test_gpu_transpose | awk '/libcmocka/ {print $3}')" build-wk/
}

# cuperm_unpack_dist_carry DIR DEST (on the GPU machine): DIR as cuperm_make_dtile_carry made it, into
# DEST/src (the two libraries, cmocka) and DEST/tests (the distributed programs), the layout of
# scripts/gpu-dist-check.sh --prebuilt.
cuperm_unpack_dist_carry() {
  local dir=$1 dest=$2
  mkdir -p "$dest/src" "$dest/tests"
  xz -dc "$dir/libcuperm.so.0.xz" >"$dest/src/libcuperm.so.0" &&
    xz -dc "$dir/dist/libcuperm_dist.so.0.xz" >"$dest/src/libcuperm_dist.so.0" &&
    cp "$dir/dist/cuperm-dist-test" "$dir/dist/test_dist_layout" "$dest/tests/" &&
    cp "$dir/libcmocka.so.0" "$dest/src/"
}

# cuperm_make_anatomy_carry BUILD: build-an/ for scripts/gpu-dist-anatomy.sh: the two libraries and
# the distributed tests as cuperm_make_dtile_carry lays them out (cuperm_unpack_dist_carry reads them),
# and cuperm-dist-anatomy xz-compressed. BUILD configured for 90-real with the distributed library.
cuperm_make_anatomy_carry() {
  local b=$1
  rm -rf build-an && mkdir -p build-an/dist
  strip --strip-debug -o build-an/libcuperm.so.0 "$b/src/libcuperm.so.0"
  strip --strip-debug -o build-an/dist/libcuperm_dist.so.0 "$b/src/libcuperm_dist.so.0"
  strip --strip-debug -o build-an/cuperm-dist-anatomy "$b/tools/model/cuperm-dist-anatomy"
  xz -6 -T2 -f build-an/libcuperm.so.0 build-an/dist/libcuperm_dist.so.0 build-an/cuperm-dist-anatomy
  cp "$b/tests/cuperm-dist-test" "$b/tests/test_dist_layout" build-an/dist/
  cp -L "$(ldd build-an/dist/test_dist_layout | awk '/libcmocka/ {print $3}')" build-an/
}

# cuperm_make_span_carry BUILD: build-sp/ for scripts/gpu-spans-check.sh: the shared library,
# test_gpu_candidates and cuperm-candidate-times (both link the library statically) stripped and
# xz-compressed, cuperm-bench, test_gpu_transpose, test_gpu_large and cmocka. BUILD configured for 90-real.
cuperm_make_span_carry() {
  local b=$1 t
  rm -rf build-sp && mkdir -p build-sp
  strip --strip-debug -o build-sp/libcuperm.so.0 "$b/src/libcuperm.so.0"
  strip --strip-debug -o build-sp/cuperm-candidate-times "$b/tools/model/cuperm-candidate-times"
  strip --strip-debug -o build-sp/test_gpu_candidates "$(find "$b/tests" -name test_gpu_candidates -type f | head -1)"
  xz -6 -T2 -f build-sp/libcuperm.so.0 build-sp/cuperm-candidate-times build-sp/test_gpu_candidates
  cp "$b/tools/bench/cuperm-bench" "$(find "$b/tests" -name test_gpu_transpose -type f | head -1)" \
    "$(find "$b/tests" -name test_gpu_large -type f | head -1)" build-sp/
  cp -L "$(ldd build-sp/test_gpu_transpose | awk '/libcmocka/ {print $3}')" build-sp/
}

# cuperm_make_runs_carry BUILD [CASES...]: for scripts/gpu-runs-check.sh, two carries (together they pass
# the device tool's limit): build-ru/ with test_gpu_candidates and build-rt/ with cuperm-candidate-times
# (both link the library statically; stripped, xz-compressed), cmocka in build-ru and the CASES files in
# build-rt (as cases-NAME.txt). BUILD configured for 90-real.
cuperm_make_runs_carry() {
  local b=$1 f
  shift
  rm -rf build-ru build-rt && mkdir -p build-ru build-rt
  strip --strip-debug -o build-rt/cuperm-candidate-times "$b/tools/model/cuperm-candidate-times"
  strip --strip-debug -o build-ru/test_gpu_candidates "$(find "$b/tests" -name test_gpu_candidates -type f | head -1)"
  xz -6 -T2 -f build-rt/cuperm-candidate-times build-ru/test_gpu_candidates
  cp -L "$(ldd "$(find "$b/tests" -name test_gpu_candidates -type f | head -1)" | awk '/libcmocka/ {print $3}')" build-ru/
  for f in "$@"; do cp "$f" "build-rt/cases-$(basename "$f")"; done
}

# cuperm_make_solid_carry BUILD [NAME=PATH...]: build-so/tools.tar.xz, the statically linked programs in one
# xz stream whose dictionary spans more than one of them, so the library they share is stored once (four
# programs in ~30 MB, where each alone takes ~21 MB): test_gpu_candidates, cuperm-candidate-times,
# cuperm-fuzz and cuperm-bench (the static build, `cuperm-bench-static`), plus any NAME=PATH given (say,
# a candidate timer of another tree for an A/B in one call); cmocka beside it. For scripts/gpu-spans-check.sh.
cuperm_make_solid_carry() {
  local b=$1 d=/tmp/cuperm-solid a
  shift
  cmake --build "$b" -j2 --target cuperm-bench-static cuperm-candidate-times cuperm-fuzz test_gpu_candidates >/dev/null || return 1
  rm -rf "$d" build-so && mkdir -p "$d" build-so
  strip --strip-debug -o "$d/test_gpu_candidates" "$(find "$b/tests" -name test_gpu_candidates -type f | head -1)"
  strip --strip-debug -o "$d/cuperm-candidate-times" "$b/tools/model/cuperm-candidate-times"
  strip --strip-debug -o "$d/cuperm-fuzz" "$(find "$b/tests" -name cuperm-fuzz -type f | head -1)"
  strip --strip-debug -o "$d/cuperm-bench" "$b/tools/bench/cuperm-bench-static"
  for a in "$@"; do strip --strip-debug -o "$d/${a%%=*}" "${a#*=}"; done
  tar cf - -C "$d" . | xz -T1 --lzma2=preset=6,dict=192MiB >build-so/tools.tar.xz
  cp -L "$(ldd "$d/test_gpu_candidates" | awk '/libcmocka/ {print $3}')" build-so/
  rm -rf "$d"
}
