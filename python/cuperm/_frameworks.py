"""What differs between PyTorch, CuPy, JAX and Numba: current stream, allocation, export.

Frameworks are recognised by the module of the array's type and reached
through sys.modules, so cuperm never imports one the caller has not.
"""

import sys


def name_of(obj):
    """'torch', 'cupy', 'jax', 'numba' or None, from the module defining type(obj)."""
    root = type(obj).__module__.split(".", 1)[0]
    return {"torch": "torch", "cupy": "cupy", "jax": "jax", "jaxlib": "jax", "numba": "numba",
            "numba_cuda": "numba"}.get(root)


def exportable(framework, obj):
    """obj ready for export: PyTorch refuses DLPack for tensors that require grad, so detach (no copy)."""
    if framework == "torch" and getattr(obj, "requires_grad", False):
        return obj.detach()
    return obj


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


def current_stream(framework, obj):
    """The stream the framework would run the next operation on obj on (0: legacy default)."""
    if framework == "torch":
        torch = sys.modules["torch"]
        return int(torch.cuda.current_stream(obj.device).cuda_stream)
    if framework == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(obj.device.id):
            return int(cupy.cuda.get_current_stream().ptr)
    return 0


def _scratch(shape, dtype_name, device):
    """A fresh contiguous array from PyTorch or CuPy (whichever is loaded), for kinds that cannot allocate."""
    torch = sys.modules.get("torch")
    if torch is not None:
        dt = getattr(torch, dtype_name)
        return torch.empty(shape, dtype=dt, device="cuda:%d" % device)
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        with cupy.cuda.Device(device):
            return cupy.empty(shape, dtype=dtype_name)
    return None


def allocate(framework, x, shape, dtype, device):
    """(target, finish): a new row-major array to write, and finish(target) -> the array to return.

    The result has the kind of x. JAX arrays are immutable, so the result is
    written into a PyTorch or CuPy scratch array first and handed to JAX after.
    """
    def same(a):
        return a
    if framework == "torch":
        return sys.modules["torch"].empty(shape, dtype=x.dtype, device=x.device), same
    if framework == "cupy":
        cupy = sys.modules["cupy"]
        with cupy.cuda.Device(device):
            return cupy.empty(shape, dtype=x.dtype), same
    if framework == "numba":
        cuda = sys.modules["numba.cuda"]
        with cuda.gpus[device]:
            return cuda.device_array(shape, dtype=x.dtype), same
    if framework == "jax":
        scratch = _scratch(shape, dtype.name, device)
        if scratch is not None:
            jnp = sys.modules["jax.numpy"]
            return scratch, jnp.from_dlpack
        raise TypeError("transposing a JAX array without out= needs PyTorch or CuPy loaded to allocate the "
                        "result; import one, or pass out=")
    raise TypeError("cuperm cannot allocate an output like %s; pass out=" % type(x).__qualname__)
