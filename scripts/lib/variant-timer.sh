# cuperm_variant_timer BUILD OUT DEFINES [SED] SRC...: cuperm-candidate-times (at OUT) linked against a copy of
# BUILD's static library whose objects for the named library sources (paths under src/) are recompiled with
# DEFINES ("-DNAME=VALUE ...") and, where SED is not "-", with the sed expression SED applied to each
# source first (a tuning table's literal). For an A/B of compile-time constants in one device call:
# cuperm_make_solid_carry BUILD NAME=OUT ..., then scripts/gpu-spans-check.sh with AB_TIMERS.
#   source scripts/lib/variant-timer.sh
#   cuperm_variant_timer build-sass /tmp/cand-3 -DCUPERM_RUNS_MAX_BLOCKS_PER_SM=3 \
#     's/\.runs_blocks_per_sm = 5/.runs_blocks_per_sm = 3/' backend/cuda/transpose/whole_dims.cu \
#     core/tuning.c plan/transpose/whole_dims.c
cuperm_variant_timer() {
  local b=$1 out=$2 defs=$3 sed=$4 f src obj tmp root
  shift 4
  root=$(pwd)
  tmp=$(mktemp -d)
  local dir="$b/src/CMakeFiles/cuperm_objs.dir"
  local cflags cudaflags
  cflags=$(sed -n 's/^C_FLAGS = //p' "$dir/flags.make")
  cudaflags=$(sed -n 's/^CUDA_FLAGS = //p' "$dir/flags.make")
  cp "$b/src/libcuperm.a" "$tmp/libcuperm.a"
  for f in "$@"; do
    src="$root/src/$f"
    if [ "$sed" != - ]; then sed "$sed" "$src" >"$tmp/$(basename "$f")" && src="$tmp/$(basename "$f")"; fi
    obj="$tmp/obj/$(basename "$f").o"
    mkdir -p "$tmp/obj"
    case $f in
      *.cu) (cd "$b/src" && nvcc --options-file CMakeFiles/cuperm_objs.dir/includes_CUDA.rsp $cudaflags $defs -x cu \
               -c "$src" -o "$obj") || return 1 ;;
      *.c) gcc -I"$root/include" -I"$root/src" -isystem /usr/local/cuda/include $cflags $defs -c "$src" -o "$obj" ||
             return 1 ;;
    esac
    ar r "$tmp/libcuperm.a" "$obj" 2>/dev/null || return 1
  done
  local m="$b/tools/model/CMakeFiles/cuperm-candidate-times.dir"
  sed "s|[^ ]*src/libcuperm.a|$tmp/libcuperm.a|" "$m/linkLibs.rsp" >"$tmp/link.rsp"
  (cd "$b/tools/model" && g++ @CMakeFiles/cuperm-candidate-times.dir/objects1 -o "$out" @"$tmp/link.rsp" \
     -L/usr/local/cuda/targets/x86_64-linux/lib/stubs -L/usr/local/cuda/targets/x86_64-linux/lib) || return 1
  rm -rf "$tmp"
}
