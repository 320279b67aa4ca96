"""Element types: protocol spellings, C codes and scalar packing."""

import ctypes

import pytest

from cuperm import _dtypes


def test_codes_match_the_header():
    # Values of cupermDataType_t in include/cuperm.h (equal to cudaDataType_t's).
    expected = {"float16": 2, "bfloat16": 14, "float32": 0, "float64": 1, "complex64": 4, "complex128": 5,
                "int8": 3, "uint8": 8, "int16": 20, "int32": 10, "uint32": 12, "int64": 24, "uint64": 26}
    for name, code in expected.items():
        assert _dtypes.BY_NAME[name].code == code, name
    assert _dtypes.BY_NAME["bool"].move_only and _dtypes.BY_NAME["uint16"].move_only


def test_itemsize_matches_scalar_for_non_half_types():
    for d in _dtypes.BY_NAME.values():
        if d.name not in ("float16", "bfloat16"):
            assert ctypes.sizeof(d.scalar) == d.itemsize, d.name


@pytest.mark.parametrize("code,bits,name", [(2, 16, "float16"), (4, 16, "bfloat16"), (2, 32, "float32"),
                                            (5, 128, "complex128"), (1, 16, "uint16"), (6, 8, "bool"),
                                            (0, 64, "int64")])
def test_from_dlpack(code, bits, name):
    assert _dtypes.from_dlpack(code, bits, 1).name == name


def test_from_dlpack_rejects():
    with pytest.raises(ValueError, match="lanes"):
        _dtypes.from_dlpack(2, 32, 4)
    with pytest.raises(ValueError, match="not supported"):
        _dtypes.from_dlpack(2, 8, 1)  # float8
    with pytest.raises(ValueError, match="not supported"):
        _dtypes.from_dlpack(3, 64, 1)  # opaque handle


@pytest.mark.parametrize("typestr,name", [("<f4", "float32"), ("<f2", "float16"), ("|b1", "bool"),
                                          ("<c8", "complex64"), ("<u2", "uint16"), ("|i1", "int8"),
                                          ("=u8", "uint64")])
def test_from_typestr(typestr, name):
    assert _dtypes.from_typestr(typestr).name == name


@pytest.mark.parametrize("typestr", [">f4", "<f16", "<V2", "f4", "<x4", 4])
def test_from_typestr_rejects(typestr):
    with pytest.raises(ValueError):
        _dtypes.from_typestr(typestr)


def test_normalize():
    assert _dtypes.normalize("float32").name == "float32"
    assert _dtypes.normalize(_dtypes.BY_NAME["int8"]).name == "int8"

    class TorchLike:
        def __str__(self):
            return "torch.bfloat16"
    assert _dtypes.normalize(TorchLike()).name == "bfloat16"
    with pytest.raises(TypeError, match="not supported"):
        _dtypes.normalize("float128")


def test_normalize_numpy_dtypes():
    np = pytest.importorskip("numpy")
    assert _dtypes.normalize(np.dtype("complex64")).name == "complex64"
    assert _dtypes.normalize(np.float64).name == "float64"
    assert _dtypes.normalize(np.bool_).name == "bool"


def test_pack_scalar_types():
    assert _dtypes.BY_NAME["float16"].pack_scalar(2, "alpha").value == 2.0
    assert isinstance(_dtypes.BY_NAME["float16"].pack_scalar(2, "alpha"), ctypes.c_float)
    z = _dtypes.BY_NAME["complex128"].pack_scalar(1 + 2j, "alpha")
    assert (z.re, z.im) == (1.0, 2.0)
    assert _dtypes.BY_NAME["int32"].pack_scalar(3.0, "beta").value == 3
    assert _dtypes.BY_NAME["uint64"].pack_scalar(2 ** 64 - 1, "alpha").value == 2 ** 64 - 1
    assert _dtypes.BY_NAME["float64"].pack_scalar(True, "alpha").value == 1.0
    assert _dtypes.BY_NAME["float32"].pack_scalar(3 + 0j, "alpha").value == 3.0


def test_pack_scalar_rejects():
    with pytest.raises(ValueError, match="integer"):
        _dtypes.BY_NAME["int32"].pack_scalar(0.5, "alpha")
    with pytest.raises(ValueError, match="does not fit"):
        _dtypes.BY_NAME["int8"].pack_scalar(200, "alpha")
    with pytest.raises(ValueError, match="does not fit"):
        _dtypes.BY_NAME["uint32"].pack_scalar(-1, "beta")
    with pytest.raises(TypeError, match="complex"):
        _dtypes.BY_NAME["float32"].pack_scalar(1j, "alpha")
    with pytest.raises(TypeError, match="number"):
        _dtypes.BY_NAME["float32"].pack_scalar("1", "alpha")
    with pytest.raises(ValueError, match="plain move"):
        _dtypes.BY_NAME["bool"].pack_scalar(2, "alpha")
    with pytest.raises(ValueError, match="plain move"):
        _dtypes.BY_NAME["uint16"].pack_scalar(1, "beta")
    assert _dtypes.BY_NAME["bool"].pack_scalar(1, "alpha").value == 1
