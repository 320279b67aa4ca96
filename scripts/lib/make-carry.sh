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
