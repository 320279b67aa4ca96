#!/usr/bin/env bash
# GPU check of a built cuperm wheel (python/build-wheel.sh), on a machine without network whose system
# Python has torch, cupy and the nvidia-* CUDA wheels. Run from the repository root:
#   bench/python/wheel-check.sh [dist/cuperm_cu13-*.whl] [--no-bench]
# 1. a fresh venv with --system-site-packages (sees torch, cupy, nvidia-cuda-runtime, nvidia-cublas),
#    the wheel installed into it with --no-deps --no-index, `pip check` on its declared dependencies;
# 2. from outside the source tree: a five-line cuperm.einsum example with PyTorch tensors and with CuPy
#    arrays (each checked against torch.einsum / cupy.einsum) and a transpose, in two processes
#    (cuperm loaded before torch, and after), each printing the libcudart/libcublas the process mapped
#    (/proc/self/maps) and which copy cuperm preloaded;
# 3. the host-overhead benchmark (host_overhead.py) against the installed wheel, unless --no-bench.
# Logs and overhead.csv go to $OUT (or ./wheel-logs). Exits non-zero on any failure.
set -uo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
wheel="" bench=1
for arg in "$@"; do
  case "$arg" in
    --no-bench) bench=0 ;;
    *.whl) wheel="$arg" ;;
    *) echo "usage: $0 [WHEEL] [--no-bench]" >&2; exit 2 ;;
  esac
done
[ -n "$wheel" ] || wheel="$(ls -t "$repo"/dist/cuperm_cu*.whl 2>/dev/null | head -1)"
[ -f "$wheel" ] || { echo "wheel-check.sh: no wheel (give one, or build dist/ with python/build-wheel.sh)" >&2; exit 2; }
wheel="$(cd "$(dirname "$wheel")" && pwd)/$(basename "$wheel")"
out="${OUT:-$PWD/wheel-logs}"; mkdir -p "$out"
py="${PYTHON:-python3}"
unset CUPERM_LIBRARY PYTHONPATH   # the wheel's own library and package, nothing from a build tree
venv="$(mktemp -d)/venv"
fail=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
echo "== wheel: $(basename "$wheel")"

"$py" -m venv --system-site-packages "$venv" || exit 1
# --system-site-packages reaches the base interpreter's packages only; where python3 is itself a
# venv (the GPU machine's torch lives in one), a .pth file adds that venv's site-packages too.
outer=$("$py" -c 'import site; print("\n".join(site.getsitepackages()))')
inner=$("$venv/bin/python" -c 'import site; print(site.getsitepackages()[0])')
echo "$outer" >"$inner/_outer_site_packages.pth"
"$venv/bin/python" -m pip install --no-deps --no-index -q "$wheel" || { echo "FAIL: pip install"; exit 1; }
echo "== pip check (the wheel's dependencies nvidia-cuda-runtime/nvidia-cublas ~=13.0, from the system site):"
"$venv/bin/python" -m pip check 2>&1 | grep -i -E "cuperm|nvidia|No broken" || echo "(nothing about cuperm)"
"$venv/bin/python" -m pip list 2>/dev/null | grep -i -E "^(cuperm|nvidia-cu(da-runtime|blas)|torch|cupy)" || true

cat >"$venv/check.py" <<'PY'
import os, sys
first = sys.argv[1]                      # which is loaded first: "cuperm" or "torch"
if first == "torch":
    import torch
import cuperm
import cuperm._lib as L
cuperm.library_version()                 # loads libcuperm (and preloads CUDA's libraries if needed)
import torch, cupy
assert cuperm.library_path().startswith(sys.prefix), "not the wheel's library: %s" % cuperm.library_path()
a, b = torch.randn(64, 32, 48, device="cuda"), torch.randn(48, 16, device="cuda")
d = cuperm.einsum("abc,cd->abd", a, b)                                      # PyTorch tensors
assert torch.allclose(d, torch.einsum("abc,cd->abd", a, b), rtol=1e-4, atol=1e-4)
ca, cb = cupy.asarray(a.cpu().numpy()), cupy.asarray(b.cpu().numpy())
cd = cuperm.einsum("abc,cd->abd", ca, cb)                                   # CuPy arrays
assert isinstance(cd, cupy.ndarray) and cupy.allclose(cd, cupy.einsum("abc,cd->abd", ca, cb), rtol=1e-4, atol=1e-4)
y = cuperm.transpose(a, (2, 0, 1))
assert torch.equal(y, a.permute(2, 0, 1).contiguous())
for _ in range(3):                                                          # the cached (fast) path
    assert torch.allclose(cuperm.einsum("abc,cd->abd", a, b), d, rtol=1e-6, atol=1e-6)
    assert torch.equal(cuperm.transpose(a, (2, 0, 1)), y)
torch.cuda.synchronize()
maps = sorted({line.split()[-1] for line in open("/proc/self/maps")
               if "libcudart.so" in line or "libcublas" in line})
print("[%s first] cuperm %s, CUDA built %s, library %s" % (first, cuperm.__version__, L.built_cuda_version(),
                                                           cuperm.library_path()))
print("[%s first] preloaded by cuperm: %s" % (first, L.preloaded or "nothing (already loaded, or RPATH)"))
print("[%s first] mapped: %s" % (first, "\n    ".join([""] + maps)))
assert any("libcudart.so.13" in m for m in maps) and any("libcublas.so.13" in m for m in maps)
print("[%s first] OK" % first)
PY
for first in cuperm torch; do
  (cd / && "$venv/bin/python" "$venv/check.py" "$first") 2>&1 | tee "$out/wheel-check-$first.log"
  rc=${PIPESTATUS[0]}
  [ "$rc" = 0 ] || { echo "FAIL: example ($first loaded first), rc=$rc"; fail=1; }
done

if [ "$bench" = 1 ]; then
  (cd / && "$venv/bin/python" "$repo/bench/python/host_overhead.py" --out "$out") 2>&1 | tee "$out/overhead.log"
  [ "${PIPESTATUS[0]}" = 0 ] || { echo "FAIL: host_overhead.py"; fail=1; }
fi
rm -rf "$(dirname "$venv")"
[ "$fail" = 0 ] && echo "wheel-check: OK" || echo "wheel-check: FAILED"
exit "$fail"
