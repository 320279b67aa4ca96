"""The PyTorch and CuPy fast paths, driven with stand-in modules (no GPU, no torch, no cupy needed).

Only what cuperm reads is imitated: attribute names and call signatures of the
real libraries. The GPU tests check the same paths against the real ones.
"""

import contextlib
import types

import pytest

from cuperm import _cudart, _transpose

STRIDED = object()


class FakeDtype:
    def __init__(self, name, itemsize):
        self.name, self.itemsize = name, itemsize

    def __str__(self):
        return "torch." + self.name


class FakeTensor:
    """What cuperm reads of a torch.Tensor."""

    def __init__(self, shape, strides=None, ptr=0x7f0000000000, dtype=FakeDtype("float32", 4), device="cuda",
                 conj=False, layout=STRIDED):
        from cuperm._layout import contiguous_strides
        self.shape = tuple(shape)
        self._strides = tuple(strides) if strides is not None else contiguous_strides(shape)
        self._ptr, self.dtype, self._conj, self.layout = ptr, dtype, conj, layout
        self.device = types.SimpleNamespace(type=device, index=0 if device == "cuda" else None)

    def data_ptr(self):
        return self._ptr

    def stride(self):
        return self._strides

    def is_conj(self):
        return self._conj

    def is_neg(self):
        return False

    def resolve_conj(self):
        return FakeTensor(self.shape, None, self._ptr + 0x1000000, self.dtype)

    def resolve_neg(self):
        return self


FakeTensor.__module__ = "torch"


class FakeCupyArray:
    """What cuperm reads of a cupy.ndarray (strides in bytes)."""

    def __init__(self, shape, byte_strides, ptr=0x7e0000000000, dtype=FakeDtype("float64", 8)):
        self.shape, self.strides, self.dtype = tuple(shape), tuple(byte_strides), dtype
        self.data = types.SimpleNamespace(ptr=ptr)
        self.device = types.SimpleNamespace(id=0)


FakeCupyArray.__module__ = "cupy._core.core"


@pytest.fixture
def fake_torch(monkeypatch):
    torch = types.ModuleType("torch")
    torch.strided = STRIDED
    torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda device: 0xBEEF)
    torch.empty = lambda shape, dtype, device: FakeTensor(shape, ptr=0x7a0000000000, dtype=dtype)
    monkeypatch.setitem(__import__("sys").modules, "torch", torch)
    return torch


@pytest.fixture
def fake_cupy(monkeypatch):
    cupy = types.ModuleType("cupy")
    cupy.cuda = types.SimpleNamespace(get_current_stream=lambda device=-1: types.SimpleNamespace(ptr=0xCAFE),
                                      Device=lambda device: contextlib.nullcontext())
    cupy.empty = lambda shape, dtype: FakeCupyArray(shape, [8 * s for s in _contig(shape)], ptr=0x7b0000000000,
                                                    dtype=dtype)
    monkeypatch.setitem(__import__("sys").modules, "cupy", cupy)
    return cupy


def _contig(shape):
    from cuperm._layout import contiguous_strides
    return contiguous_strides(shape)


@pytest.fixture
def waits(monkeypatch):
    """Records the stream orderings prepare() asks for instead of calling CUDA."""
    calls = []
    monkeypatch.setattr(_cudart, "order_after", lambda producer, consumer, device: calls.append(
        (producer, consumer, device)))
    return calls


def test_torch_view_allocation_and_current_stream(fake_torch, waits):
    x = FakeTensor((2, 3, 4), strides=(24, 8, 1))  # a padded view
    call = _transpose.prepare(x, (2, 0, 1), 1, 0, None, None)
    assert call.stream == 0xBEEF and not waits
    assert (call.x.ptr, call.x.strides, call.x.dtype.name, call.x.device) == (0x7f0000000000, (24, 8, 1),
                                                                             "float32", 0)
    assert isinstance(call.target, FakeTensor) and call.target.shape == (4, 2, 3) and call.finish is None
    assert call.out.ptr == 0x7a0000000000
    assert call.layout.problem == ((4, 3, 2), (1, 2, 0), (1, 8, 24), (1, 3, 6))


def test_torch_explicit_stream_waits_for_torchs_current_stream(fake_torch, waits):
    x, out = FakeTensor((2, 3)), FakeTensor((3, 2), ptr=0x7c0000000000)
    call = _transpose.prepare(x, None, 1, 0, out, 0x1234)
    assert call.stream == 0x1234 and call.target is out
    assert waits == [(0xBEEF, 0x1234, 0), (0xBEEF, 0x1234, 0)]


def test_torch_rejections(fake_torch, waits):
    with pytest.raises(TypeError, match="x lives on the CPU"):
        _transpose.prepare(FakeTensor((2, 3), device="cpu"), None, 1, 0, None, None)
    with pytest.raises(TypeError, match="layout"):
        _transpose.prepare(FakeTensor((2, 3), layout=object()), None, 1, 0, None, None)
    with pytest.raises(ValueError, match="conjugate"):
        _transpose.prepare(FakeTensor((2, 3)), None, 1, 0, FakeTensor((3, 2), ptr=1 << 40, conj=True), None)
    with pytest.raises(TypeError, match="does not support"):
        _transpose.prepare(FakeTensor((2, 3), dtype=FakeDtype("float8_e4m3fn", 1)), None, 1, 0, None, None)
    with pytest.raises(ValueError, match="overlaps"):
        _transpose.prepare(FakeTensor((4, 4)), None, 1, 0, FakeTensor((4, 4), ptr=0x7f0000000010), None)


def test_torch_conjugate_input_is_resolved_first(fake_torch, waits):
    call = _transpose.prepare(FakeTensor((2, 3), conj=True), None, 1, 0, None, None)
    assert call.x.ptr == 0x7f0000000000 + 0x1000000


def test_cupy_view_in_elements_and_current_stream(fake_cupy, waits):
    a = FakeCupyArray((3, 5), (80, 16))                 # float64, every other column
    call = _transpose.prepare(a, (1, 0), 2.0, 0, None, None)
    assert call.stream == 0xCAFE and not waits
    assert call.x.strides == (10, 2) and call.x.dtype.name == "float64"
    assert call.target.shape == (5, 3) and call.out.strides == (3, 1)
    with pytest.raises(ValueError, match="not a multiple"):
        _transpose.prepare(FakeCupyArray((3, 5), (80, 12)), None, 1, 0, None, None)
    with pytest.raises(ValueError, match="negative stride"):
        _transpose.prepare(FakeCupyArray((3, 5), (-40, 8), ptr=0x7e0000001000), None, 1, 0, None, None)


def test_layouts_are_checked_once_and_cached(fake_torch, waits):
    from cuperm._context import default
    x = FakeTensor((6, 7))
    first = _transpose.prepare(x, None, 1, 0, None, None).layout
    again = _transpose.prepare(x, None, 1, 0, None, None).layout
    assert first is again
    default.clear()
    assert _transpose.prepare(x, None, 1, 0, None, None).layout is not first


class FakeNumbaArray:
    """A Numba device array: __cuda_array_interface__, and a DLPack export cuperm must not use."""

    def __init__(self, shape, typestr="<i4", ptr=0x7d0000000000, stream=None):
        from fakes import FakeCudaArray
        self.__cuda_array_interface__ = FakeCudaArray(shape, typestr, ptr=ptr, stream=stream).__cuda_array_interface__

    def __dlpack__(self, **kwargs):
        raise AssertionError("Numba arrays are read through __cuda_array_interface__")

    def __dlpack_device__(self):
        raise AssertionError("Numba arrays are read through __cuda_array_interface__")


FakeNumbaArray.__module__ = "numba.cuda.cudadrv.devicearray"


def test_numba_arrays_are_read_through_the_array_interface(monkeypatch, waits):
    monkeypatch.setattr(_cudart, "pointer_device", lambda ptr, what: 0)
    x = FakeNumbaArray((2, 3), stream=0x77)
    out = FakeNumbaArray((3, 2), ptr=0x7d1000000000)
    call = _transpose.prepare(x, None, 1, 0, out, None)
    assert call.stream == 0 and call.x.dtype.name == "int32" and call.x.device == 0
    assert waits == [(0x77, 0, 0)]   # the interface named the producer's stream: ours waits for it
