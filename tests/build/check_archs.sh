#!/usr/bin/env bash
# Checks that a built library holds GPU code for exactly the configured CUDA
# architectures: sm_N machine code (ELF) for each "N" or "N-real", compute_N PTX
# for each "N" or "N-virtual". With --default (CMAKE_CUDA_ARCHITECTURES left to
# CMakeLists.txt) it also requires sm_80 and sm_90 ELF and compute_90 PTX. --also ARCH adds machine
# code the library builds beside the configured list on purpose (the wgmma GETT form's 90a-real).
# Needs no GPU. Exit 0: as configured; 1: not; 77 (ctest: skipped): no cuobjdump
# or architectures it cannot expand (all, all-major, native).
#   check_archs.sh LIBRARY "ARCHS" [--default] [--also ARCH]... [--search DIR]...   (ARCHS: ; or , separated)
set -uo pipefail

lib=$1 archs=$2
shift 2
default=0 search=() also=()
while [ $# -gt 0 ]; do
  case "$1" in
    --default) default=1 ;;
    --search) search+=("$2"); shift ;;
    --also) also+=("$2"); shift ;;
    *) echo "check_archs: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
[ -f "$lib" ] || { echo "check_archs: $lib does not exist" >&2; exit 1; }

# cuobjdump: $CUOBJDUMP, the given directories (the toolkit's bin, the project's
# .venv where scripts/setup.sh --python puts the pip-packaged one), the PATH.
cuobjdump=""
for c in "${CUOBJDUMP:-}" "${search[@]/%//cuobjdump}" "$(command -v cuobjdump 2>/dev/null)"; do
  [ -n "$c" ] && [ -x "$c" ] && { cuobjdump=$c; break; }
done
if [ -z "$cuobjdump" ]; then
  for d in "${search[@]}"; do
    for c in "$d"/lib/python3*/site-packages/nvidia/cu*/bin/cuobjdump; do
      [ -x "$c" ] && { cuobjdump=$c; break 2; }
    done
  done
fi
if [ -z "$cuobjdump" ]; then
  echo "check_archs: SKIPPED: no cuobjdump (not in the CUDA toolkit here; scripts/test.sh installs one into .venv)"
  exit 77
fi

# The expected sets, from the configured list.
want_elf=() want_ptx=()
IFS=";," read -r -a entries <<<"$archs"
for a in "${entries[@]}" ${also[@]+"${also[@]}"}; do
  case "$a" in
    all|all-major|native|"")
      echo "check_archs: SKIPPED: cannot expand CMAKE_CUDA_ARCHITECTURES=\"$archs\""; exit 77 ;;
    *-real) want_elf+=("sm_${a%-real}") ;;
    *-virtual) want_ptx+=("sm_${a%-virtual}") ;;
    *) want_elf+=("sm_$a"); want_ptx+=("sm_$a") ;;
  esac
done

# cuobjdump names embedded files like libcuperm.3.sm_90.cubin / libcuperm.4.sm_90.ptx.
list() { "$cuobjdump" "$1" "$lib" 2>&1 | grep -oE 'sm_[0-9]+[a-z]?\.(cubin|ptx)$' | sed 's/\.[a-z]*$//' | sort -u; }
sorted() { [ $# -gt 0 ] && printf '%s\n' "$@" | sort -u; }
have_elf=$(list --list-elf)
have_ptx=$(list --list-ptx)
want_elf_s=$(sorted "${want_elf[@]}")
want_ptx_s=$(sorted "${want_ptx[@]}")

echo "library:    $lib"
echo "cuobjdump:  $cuobjdump"
echo "configured: $archs$([ $default = 1 ] && echo ' (the default)')${also[*]+, and ${also[*]}}"
echo "ELF:        $(echo $have_elf)   expected: $(echo $want_elf_s)"
echo "PTX:        $(echo $have_ptx | sed 's/sm_/compute_/g')   expected: $(echo $want_ptx_s | sed 's/sm_/compute_/g')"

ok=1
[ "$have_elf" = "$want_elf_s" ] || { echo "FAIL: the machine code (ELF) differs from the configured architectures"; ok=0; }
[ "$have_ptx" = "$want_ptx_s" ] || { echo "FAIL: the PTX differs from the configured architectures"; ok=0; }
if [ $default = 1 ]; then
  for e in sm_80 sm_90; do
    grep -qx "$e" <<<"$have_elf" || { echo "FAIL: default build without $e machine code"; ok=0; }
  done
  grep -qx sm_90 <<<"$have_ptx" || { echo "FAIL: default build without compute_90 PTX"; ok=0; }
fi
[ $ok = 1 ] && echo "PASS" && exit 0
exit 1
