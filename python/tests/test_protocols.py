"""Reading DLPack capsules and __cuda_array_interface__ dicts (no GPU needed)."""

import pytest

from cuperm import _protocols
from fakes import FakeCudaArray, FakeDLPackArray


def test_cai_contiguous():
    a = FakeCudaArray((2, 3), "<f8", ptr=4096)
    v = _protocols.read_cuda_array_interface(a.__cuda_array_interface__, "x", a)
    assert (v.ptr, v.shape, v.strides, v.dtype.name, v.device, v.readonly) == (4096, (2, 3), (3, 1), "float64",
                                                                              None, False)


def test_cai_byte_strides_become_element_strides():
    a = FakeCudaArray((2, 3), "<i2", byte_strides=(16, 4))
    v = _protocols.read_cuda_array_interface(a.__cuda_array_interface__, "x", a)
    assert v.strides == (8, 2) and v.dtype.name == "int16"


def test_cai_rejects():
    a = FakeCudaArray((2, 3), "<f4", byte_strides=(12, 6))
    with pytest.raises(ValueError, match="not a multiple of the 4-byte"):
        _protocols.read_cuda_array_interface(a.__cuda_array_interface__, "x", a)
    a = FakeCudaArray((2, 3), "<f4", mask=object())
    with pytest.raises(ValueError, match="mask"):
        _protocols.read_cuda_array_interface(a.__cuda_array_interface__, "x", a)
    with pytest.raises(ValueError, match="malformed"):
        _protocols.read_cuda_array_interface({"shape": (2,)}, "x", None)
    a = FakeCudaArray((2, 3), "<f4", byte_strides=(4,))
    with pytest.raises(ValueError, match="1 strides for 2 dimensions"):
        _protocols.read_cuda_array_interface(a.__cuda_array_interface__, "x", a)


def test_cai_stream_is_reported():
    a = FakeCudaArray((2,), stream=1234)
    view, stream = _protocols.view_of(a, 0, "x")
    assert stream == 1234 and view.shape == (2,)


def test_device_of():
    assert _protocols.device_of(FakeCudaArray((1,)), "x") is None
    with pytest.raises(TypeError, match="must be a CUDA array"):
        _protocols.device_of([1, 2, 3], "x")


def test_device_of_host_arrays_names_the_cpu():
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="lives on the CPU"):
        _protocols.device_of(np.zeros(3), "x")


def test_dlpack_capsule_of_a_strided_view():
    np = pytest.importorskip("numpy")
    base = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    a = base[:, ::2, 1:]
    view, device_type = _protocols.read_dlpack_capsule(a.__dlpack__(), "x")
    assert device_type == _protocols.DL_CPU and view.device is None
    assert view.shape == (3, 2, 4) and view.strides == (20, 10, 1) and view.dtype.name == "float32"
    assert view.ptr == a.ctypes.data and not view.readonly


def test_dlpack_versioned_capsule_and_read_only_flag():
    np = pytest.importorskip("numpy")
    a = np.arange(6, dtype=np.int64).reshape(2, 3).T
    a.flags.writeable = False
    try:
        capsule = a.__dlpack__(max_version=(1, 0))
    except TypeError:
        pytest.skip("this NumPy exports no versioned DLPack capsules")
    view, _ = _protocols.read_dlpack_capsule(capsule, "x")
    assert view.readonly and view.shape == (3, 2) and view.strides == (1, 3) and view.dtype.name == "int64"


def test_dlpack_contiguous_strides_may_be_null_and_capsule_stays_alive():
    np = pytest.importorskip("numpy")
    a = np.ones((2, 2), dtype=np.complex128)
    capsule = a.__dlpack__()
    view, _ = _protocols.read_dlpack_capsule(capsule, "x")
    assert view.strides == (2, 1) and view.keepalive is capsule and view.dtype.name == "complex128"


def test_dlpack_rejects_a_consumed_capsule():
    with pytest.raises((ValueError, TypeError)):
        _protocols.read_dlpack_capsule(object(), "x")


def test_view_of_passes_the_stream_and_checks_the_capsule_device():
    np = pytest.importorskip("numpy")
    fake = FakeDLPackArray(np.zeros(4, dtype=np.float32))
    with pytest.raises(TypeError, match="not in CUDA device memory"):
        _protocols.view_of(fake, 0, "x")
    with pytest.raises(TypeError, match="not in CUDA device memory"):
        _protocols.view_of(fake, 0xabc, "x")
    # The legacy default stream (handle 0) is spelled 1 in the DLPack protocol.
    assert fake.streams_asked == [1, 0xabc]
