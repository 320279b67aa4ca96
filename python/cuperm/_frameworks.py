"""What differs between PyTorch, CuPy, JAX and Numba: views, current stream, allocation.

PyTorch tensors and CuPy arrays are read through their own attributes (a few
hundred nanoseconds) instead of a DLPack export (tens of microseconds); the
stream ordering DLPack would give is kept: see Adapter.view. Every other
array goes through DLPack or __cuda_array_interface__ (_protocols).
Frameworks are reached through sys.modules: cuperm imports none itself.
"""

import sys

from . import _dtypes, _fast, _protocols


def name_of(obj):
    """'torch', 'cupy', 'jax', 'numba' or None, from the module defining type(obj)."""
    root = type(obj).__module__.split(".", 1)[0]
    return {"torch": "torch", "cupy": "cupy", "jax": "jax", "jaxlib": "jax", "numba": "numba",
            "numba_cuda": "numba"}.get(root)


def stream_handle(stream):
    """A cudaStream_t handle (int) from an int or a stream object of any framework."""
    if isinstance(stream, bool):
        raise TypeError("stream must be a CUDA stream or its handle, got a bool")
    if isinstance(stream, int):
        if stream < 0:
            raise ValueError("stream handle must be >= 0, got %d" % stream)
        return stream
    if hasattr(stream, "__cuda_stream__"):          # CUDA Python's protocol: (version, handle)
        return int(stream.__cuda_stream__()[1])
    if hasattr(stream, "cuda_stream"):              # torch.cuda.Stream
        return int(stream.cuda_stream)
    if hasattr(stream, "ptr"):                      # cupy.cuda.Stream
        return int(stream.ptr)
    handle = getattr(stream, "handle", None)        # numba.cuda stream: a ctypes c_void_p
    if handle is not None:
        return int(getattr(handle, "value", handle) or 0)
    raise TypeError("stream must be an int handle or a PyTorch, CuPy, Numba or CUDA Python stream; got %r"
                    % type(stream).__name__)


class Generic:
    """Any array with DLPack or __cuda_array_interface__; the legacy default stream by default."""

    def prepare(self, obj, what):
        """obj ready to be read (e.g. lazy PyTorch views resolved)."""
        return obj

    def device(self, obj, what):
        """CUDA ordinal, None when only the driver knows, TypeError when not a CUDA array."""
        return _protocols.device_of(obj, what)

    def current_stream(self, obj, device):
        return 0

    def view(self, obj, stream, what):
        """(ArrayView, producer stream or None): the caller makes `stream` wait for the producer's."""
        return _protocols.view_of(obj, stream, what)

    def allocate(self, like, shape, dtype, device):
        """(target, finish): a new C-contiguous array to write, and finish(target) -> what to return."""
        raise TypeError("cuperm cannot allocate an output like %s; pass out=" % type(like).__qualname__)

    def workspace(self, like, nbytes, device, stream=None):
        """(keepalive, pointer) of nbytes of scratch device memory from the framework's allocator,
        or (None, 0): cuperm then takes it stream-ordered from its handle's memory pool. stream: the
        framework's current stream for device, when the work runs there (None otherwise)."""
        return None, 0

    def zero(self, target):
        target[...] = 0

    def scale(self, target, factor):
        target *= factor


class Torch(Generic):
    def __init__(self):
        self._dtypes = {}

    def prepare(self, t, what):
        if t.is_conj() or t.is_neg():
            if what == "out":
                raise ValueError("out has PyTorch's lazy conjugate/negative bit set: it cannot be written "
                                 "in place; pass a tensor without it")
            t = t.resolve_conj().resolve_neg()
        return t

    def device(self, t, what):
        if t.device.type != "cuda":
            raise TypeError("%s lives on %s; cuperm transposes CUDA device arrays: move it to the GPU first"
                            % (what, "the CPU" if t.device.type == "cpu" else "device type " + t.device.type))
        return t.device.index

    def current_stream(self, t, device):
        torch = sys.modules["torch"]
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        return int(raw(device)) if raw is not None else int(torch.cuda.current_stream(device).cuda_stream)

    def view(self, t, stream, what):
        torch = sys.modules["torch"]
        if t.layout != torch.strided:
            raise TypeError("%s has PyTorch layout %s; cuperm reads strided tensors only" % (what, t.layout))
        dtype = self._dtypes.get(t.dtype)
        if dtype is None:
            try:
                dtype = self._dtypes[t.dtype] = _dtypes.normalize(t.dtype)
            except TypeError:
                raise TypeError("%s has dtype %s, which cuperm does not support" % (what, t.dtype)) from None
        device = t.device.index
        view = _protocols.ArrayView(t.data_ptr(), tuple(t.shape), tuple(t.stride()), dtype, device, False, t)
        # As DLPack would: work queued on PyTorch's current stream comes first.
        return view, self.current_stream(t, device)

    def allocate(self, like, shape, dtype, device):
        torch = sys.modules["torch"]
        return torch.empty(shape, dtype=like.dtype, device=like.device), None

    def workspace(self, like, nbytes, device, stream=None):
        torch = sys.modules["torch"]
        args, kwargs = (nbytes,), {"dtype": torch.uint8, "device": like.device}
        if stream is not None and _fast._bind() and _fast._get_device() == device:
            return _fast.workspace(device, stream, nbytes, args, kwargs)  # the stream's, shared with the replays
        w = torch.empty(*args, **kwargs)
        return w, w.data_ptr()

    def zero(self, target):
        target.zero_()

    def scale(self, target, factor):
        target.mul_(factor)


class CuPy(Generic):
    def __init__(self):
        self._dtypes = {}

    def device(self, a, what):
        return a.device.id

    def current_stream(self, a, device):
        cupy = sys.modules["cupy"]
        try:
            return int(cupy.cuda.get_current_stream(device).ptr)
        except TypeError:  # CuPy before 10 takes no device argument
            with cupy.cuda.Device(device):
                return int(cupy.cuda.get_current_stream().ptr)

    def view(self, a, stream, what):
        dtype = self._dtypes.get(a.dtype)
        if dtype is None:
            try:
                dtype = self._dtypes[a.dtype] = _dtypes.normalize(a.dtype)
            except TypeError:
                raise TypeError("%s has dtype %s, which cuperm does not support" % (what, a.dtype)) from None
        item = dtype.itemsize
        strides = []
        for axis, b in enumerate(a.strides):
            if b % item:
                raise ValueError("%s: stride of %d bytes on axis %d is not a multiple of the %d-byte %s element"
                                 % (what, b, axis, item, dtype.name))
            strides.append(b // item)
        device = a.device.id
        view = _protocols.ArrayView(a.data.ptr, tuple(a.shape), tuple(strides), dtype, device, False, a)
        return view, self.current_stream(a, device)

    def allocate(self, like, shape, dtype, device):
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device):
            return cupy.empty(shape, dtype=like.dtype), None

    def workspace(self, like, nbytes, device, stream=None):
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device):
            w = cupy.empty(nbytes, dtype=cupy.uint8)
        return w, w.data.ptr

    def zero(self, target):
        target.fill(0)


class Numba(Generic):
    """Numba device arrays are read through __cuda_array_interface__, Numba's own protocol."""

    def device(self, a, what):
        return None  # the driver tells, from the pointer

    def view(self, a, stream, what):
        cai = a.__cuda_array_interface__
        return (_protocols.read_cuda_array_interface(cai, what, a),
                _protocols.cuda_array_interface_stream(cai))

    def allocate(self, like, shape, dtype, device):
        cuda = sys.modules["numba.cuda"]
        # Switching contexts through numba (cuda.gpus[...]) is avoided when already on the device.
        if cuda.get_current_device().id == device:
            return cuda.device_array(shape, dtype=like.dtype), None
        with cuda.gpus[device]:
            return cuda.device_array(shape, dtype=like.dtype), None


class Jax(Generic):
    """JAX arrays are immutable: the result is written into a PyTorch or CuPy array, then handed to JAX."""

    def allocate(self, like, shape, dtype, device):
        jnp = sys.modules["jax.numpy"]
        for name in ("torch", "cupy"):
            if name in sys.modules:
                return _scratch(name, shape, dtype, device), jnp.from_dlpack
        raise TypeError("transposing a JAX array without out= needs PyTorch or CuPy loaded to allocate the "
                        "result; import one, or pass out=")


def _scratch(name, shape, dtype, device):
    if name == "torch":
        torch = sys.modules["torch"]
        return torch.empty(shape, dtype=getattr(torch, dtype.name), device="cuda:%d" % device)
    cupy = sys.modules["cupy"]
    with cupy.cuda.Device(device):
        return cupy.empty(shape, dtype=dtype.name)


GENERIC, TORCH, CUPY = Generic(), Torch(), CuPy()
_ADAPTERS = {"torch": TORCH, "cupy": CUPY, "numba": Numba(), "jax": Jax()}


def adapter_of(obj):
    return _ADAPTERS.get(name_of(obj), GENERIC)
