"""The few CUDA runtime calls the package needs, from the runtime libcuperm uses.

Symbols are looked up through libcuperm's handle, which searches the
library and its dependencies: we get the very CUDA runtime the library was
linked with (no second copy, no path guessing).
"""

import contextlib
import ctypes

from . import _lib

_MEMORY_TYPE_DEVICE, _MEMORY_TYPE_MANAGED = 2, 3
_EVENT_DISABLE_TIMING = 0x2


class _PointerAttributes(ctypes.Structure):
    """struct cudaPointerAttributes. CUDA 13 appended `long reserved[8]`, which the runtime
    writes: without it the call overwrites 64 bytes past the structure. Older runtimes
    write less, so the larger structure is safe with them too."""
    _fields_ = [("type", ctypes.c_int), ("device", ctypes.c_int),
                ("devicePointer", ctypes.c_void_p), ("hostPointer", ctypes.c_void_p),
                ("reserved", ctypes.c_long * 8)]


_fns = {}


def _fn(name, argtypes):
    fn = _fns.get(name)
    if fn is None:
        lib = _lib.load()
        try:
            fn = getattr(lib, name)
        except AttributeError:
            raise _lib.LibraryNotFoundError(
                "the CUDA runtime symbol %s is not reachable through libcuperm" % name) from None
        fn.restype, fn.argtypes = ctypes.c_int, argtypes
        _fns[name] = fn
    return fn


def _check(err, call):
    if err != 0:
        es = _fn("cudaGetErrorString", [ctypes.c_int])
        es.restype = ctypes.c_char_p
        raise _lib.CupermError(4, "CUPERM_STATUS_CUDA_ERROR", "%s failed: %s" % (call, es(err).decode()))


def get_device():
    d = ctypes.c_int()
    _check(_fn("cudaGetDevice", [ctypes.POINTER(ctypes.c_int)])(ctypes.byref(d)), "cudaGetDevice")
    return d.value


def set_device(device):
    _check(_fn("cudaSetDevice", [ctypes.c_int])(device), "cudaSetDevice(%d)" % device)


@contextlib.contextmanager
def on_device(device):
    """Makes `device` current for the block, restoring the previous one after."""
    previous = get_device()
    if previous == device:
        yield
        return
    set_device(device)
    try:
        yield
    finally:
        set_device(previous)


def pointer_device(ptr, what):
    """The device ordinal owning device or managed memory at ptr."""
    attrs = _PointerAttributes()
    fn = _fn("cudaPointerGetAttributes", [ctypes.POINTER(_PointerAttributes), ctypes.c_void_p])
    _check(fn(ctypes.byref(attrs), ctypes.c_void_p(ptr)), "cudaPointerGetAttributes(%s)" % what)
    if attrs.type not in (_MEMORY_TYPE_DEVICE, _MEMORY_TYPE_MANAGED):
        raise TypeError("%s does not point to CUDA device or managed memory" % what)
    if attrs.type == _MEMORY_TYPE_MANAGED and attrs.device < 0:
        return get_device()
    return attrs.device


def same_stream(a, b):
    """Whether two cudaStream_t handles name one stream (0 and 1 both mean the legacy default)."""
    return (1 if a == 0 else a) == (1 if b == 0 else b)


def order_after(producer, consumer, device):
    """Makes stream `consumer` wait for the work queued so far on stream `producer` (both on device)."""
    if same_stream(producer, consumer):
        return
    producer = 0 if producer == 1 else producer
    event = ctypes.c_void_p()
    with on_device(device):
        create = _fn("cudaEventCreateWithFlags", [ctypes.POINTER(ctypes.c_void_p), ctypes.c_uint])
        _check(create(ctypes.byref(event), _EVENT_DISABLE_TIMING), "cudaEventCreateWithFlags")
        try:
            _check(_fn("cudaEventRecord", [ctypes.c_void_p, ctypes.c_void_p])(event, ctypes.c_void_p(producer)),
                   "cudaEventRecord")
            _check(_fn("cudaStreamWaitEvent", [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint])(
                ctypes.c_void_p(consumer), event, 0), "cudaStreamWaitEvent")
        finally:
            _fn("cudaEventDestroy", [ctypes.c_void_p])(event)
