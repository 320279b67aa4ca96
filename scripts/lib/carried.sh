# For scripts that run a library built elsewhere for sm_90 and carried to the device machine in
# build-carry/ (lib/libcuperm.so.0, bin/cuperm-bench). Source from the repository root.
export LD_LIBRARY_PATH="$PWD/build-carry/lib:${LD_LIBRARY_PATH:-}"
bench=build-carry/bin/cuperm-bench

# cuperm_sample_cases FILE EVERY SUITE ARGS...: every EVERY-th case of the suite (case-file lines) into FILE
cuperm_sample_cases() {
  local file=$1 every=$2; shift 2
  "$bench" "$@" --list | grep -v '^#' | awk -v k="$every" '(NR - 1) % k == 0' >"$file"
}
