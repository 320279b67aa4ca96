"""The ctypes mirrors of C structures match the C headers byte for byte.

A mirror that is too small lets the C side write past it (cudaPointerAttributes
grew in CUDA 13), and a shifted field reads garbage, so this compiles a probe
against the real headers and compares sizes and offsets. Needs a C compiler and
the CUDA headers (both present wherever libcuperm is built), no GPU.
"""

import ctypes
import os
import shutil
import subprocess

import pytest

from cuperm import _cudart, _lib

_REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)


def _cuda_include():
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")]
    nvcc = shutil.which("nvcc")
    if nvcc:
        roots.append(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))))
    roots.append("/usr/local/cuda")
    for root in filter(None, roots):
        if os.path.exists(os.path.join(root, "include", "driver_types.h")):
            return os.path.join(root, "include")
    return None


def _c_layout(tmp_path, struct, fields, header):
    cc = shutil.which("cc") or shutil.which("gcc")
    inc = _cuda_include()
    cuperm_inc = os.path.join(_REPO, "include")
    if cc is None or inc is None or not os.path.exists(os.path.join(cuperm_inc, "cuperm.h")):
        pytest.skip("needs a C compiler, the CUDA headers and the cuperm source tree")
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include <%s>' % header, 'int main(void) {',
             '  printf("%%zu\\n", sizeof(%s));' % struct]
    lines += ['  printf("%%zu\\n", offsetof(%s, %s));' % (struct, f) for f in fields]
    lines += ['  return 0;', '}']
    src, exe = tmp_path / "probe.c", tmp_path / "probe"
    src.write_text("\n".join(lines))
    subprocess.run([cc, "-I", inc, "-I", cuperm_inc, str(src), "-o", str(exe)], check=True)
    values = [int(v) for v in subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.split()]
    return values[0], values[1:]


def _py_layout(cls):
    return ctypes.sizeof(cls), [getattr(cls, name).offset for name, _ in cls._fields_]


def test_pointer_attributes_matches_cuda_runtime(tmp_path):
    cls = _cudart._PointerAttributes
    fields = [name for name, _ in cls._fields_]
    assert _py_layout(cls) == _c_layout(tmp_path, "struct cudaPointerAttributes", fields, "cuda_runtime_api.h")


def test_plan_info_matches_cuperm_h(tmp_path):
    cls = _lib.PlanInfo
    fields = [name for name, _ in cls._fields_]
    assert _py_layout(cls) == _c_layout(tmp_path, "cupermPlanInfo_t", fields, "cuperm.h")


@pytest.mark.parametrize("cls,struct", [(_lib.TensorDescriptor, "cupermTensorDescriptor_t"),
                                        (_lib.ContractionInfo, "cupermContractionInfo_t")])
def test_contraction_structs_match_cuperm_h(tmp_path, cls, struct):
    fields = [name for name, _ in cls._fields_]
    assert _py_layout(cls) == _c_layout(tmp_path, struct, fields, "cuperm.h")
