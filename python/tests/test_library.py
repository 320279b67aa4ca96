"""The shared library itself: found, loaded, versioned, and its errors raised as exceptions.

These need libcuperm (installed package, or $CUPERM_LIBRARY) but no GPU.
"""

import ctypes

import pytest

import cuperm
from cuperm import _lib

pytestmark = pytest.mark.skipif(
    cuperm.library_path() is None,
    reason="libcuperm not built: pip install ./python, or set CUPERM_LIBRARY=path/to/libcuperm.so")


def test_version_matches_the_package():
    major, minor, _ = cuperm.library_version()
    assert (major, minor) == tuple(int(v) for v in cuperm.__version__.split(".")[:2])


def test_c_errors_carry_the_c_message():
    lib = _lib.load()
    with pytest.raises(cuperm.InvalidValueError, match="CUPERM_STATUS_INVALID_VALUE: plan is NULL") as e:
        _lib.check(lib.cupermPlanDestroy(None))
    assert e.value.status == 1 and isinstance(e.value, ValueError) and isinstance(e.value, cuperm.CupermError)

    plan = ctypes.c_void_p()
    extents = (ctypes.c_int64 * 2)(2, 3)
    perm = (ctypes.c_int * 2)(1, 0)
    with pytest.raises(cuperm.InvalidValueError, match="handle is NULL"):
        _lib.check(lib.cupermPlanTranspose(None, ctypes.byref(plan), 2, extents, perm, 0, None, None))


def test_library_not_found_is_explained(monkeypatch, tmp_path):
    monkeypatch.setattr(_lib, "_loaded", [])
    monkeypatch.setenv(_lib.ENV_VAR, str(tmp_path / "missing.so"))
    with pytest.raises(cuperm.LibraryNotFoundError, match="cannot load libcuperm from"):
        _lib.load()
