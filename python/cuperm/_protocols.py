"""Reading CUDA arrays through DLPack and __cuda_array_interface__.

Both protocols reduce to an ArrayView: pointer, shape, strides in elements,
dtype, device and whether the memory may be written. Nothing here touches the
GPU, so it is all testable on a CPU-only machine (NumPy exports DLPack too).
"""

import ctypes

from . import _dtypes
from ._layout import contiguous_strides

# DLPack device types (dlpack.h).
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_CUDA_MANAGED = 1, 2, 3, 13
_DEVICE_NAMES = {DL_CPU: "the CPU", DL_CUDA_HOST: "pinned host memory", 4: "OpenCL", 7: "Vulkan",
                 8: "Metal", 10: "ROCm", 14: "oneAPI"}
_CUDA_DEVICE_TYPES = (DL_CUDA, DL_CUDA_MANAGED)
_DLPACK_READ_ONLY = 1  # DLManagedTensorVersioned.flags bit


class ArrayView:
    """What cuperm needs to know about an array; keepalive holds what owns the memory."""

    __slots__ = ("ptr", "shape", "strides", "dtype", "device", "readonly", "keepalive")

    def __init__(self, ptr, shape, strides, dtype, device, readonly, keepalive):
        self.ptr = ptr            # int: address of element (0, ..., 0)
        self.shape = shape        # tuple of ints, row-major order
        self.strides = strides    # tuple of ints, in elements
        self.dtype = dtype        # _dtypes.DType
        self.device = device      # CUDA device ordinal, or None until asked of the driver
        self.readonly = readonly
        self.keepalive = keepalive

    @property
    def ndim(self):
        return len(self.shape)


# --- DLPack -------------------------------------------------------------------

class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", _DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


class _DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class _DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("version", _DLPackVersion), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = [ctypes.py_object]
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


def read_dlpack_capsule(capsule, what):
    """An ArrayView of a DLPack capsule, legacy ('dltensor') or versioned ('dltensor_versioned').

    The capsule is only read, not consumed: it stays owned by its producer, whose
    destructor releases the tensor once the view (which keeps the capsule) dies.
    """
    name = _capsule_name(capsule)
    readonly = False
    if name == b"dltensor_versioned":
        managed = _DLManagedTensorVersioned.from_address(_capsule_pointer(capsule, name))
        if managed.version.major != 1:
            raise ValueError("%s: DLPack major version %d is not supported (cuperm reads version 1)"
                             % (what, managed.version.major))
        readonly = bool(managed.flags & _DLPACK_READ_ONLY)
    elif name == b"dltensor":
        managed = _DLManagedTensor.from_address(_capsule_pointer(capsule, name))
    else:
        raise ValueError("%s: not a fresh DLPack capsule (its name is %r)" % (what, name))
    t = managed.dl_tensor
    ndim = t.ndim
    shape = tuple(t.shape[i] for i in range(ndim))
    strides = tuple(t.strides[i] for i in range(ndim)) if t.strides else contiguous_strides(shape)
    dtype = _dtypes.from_dlpack(t.dtype.code, t.dtype.bits, t.dtype.lanes)
    device_type = t.device.device_type
    device = t.device.device_id if device_type in _CUDA_DEVICE_TYPES else None
    view = ArrayView((t.data or 0) + t.byte_offset, shape, strides, dtype, device, readonly, capsule)
    return view, device_type


def dlpack_stream_argument(stream):
    """The `stream` to pass to __dlpack__ for a cudaStream_t handle: 0 (legacy default) is spelled 1."""
    return 1 if stream == 0 else stream


def _export_dlpack(obj, stream):
    s = dlpack_stream_argument(stream)
    try:
        return obj.__dlpack__(stream=s, max_version=(1, 0))
    except TypeError:   # producers older than DLPack 1.0 know no max_version
        return obj.__dlpack__(stream=s)


# --- __cuda_array_interface__ -------------------------------------------------

def read_cuda_array_interface(cai, what, owner):
    """An ArrayView of a __cuda_array_interface__ dict (strides there are in bytes).

    The device is left None: the interface does not name it, the driver knows it.
    """
    try:
        shape = tuple(int(s) for s in cai["shape"])
        typestr = cai["typestr"]
        ptr, readonly = cai["data"]
    except (KeyError, TypeError, ValueError):
        raise ValueError("%s: malformed __cuda_array_interface__ %r" % (what, cai)) from None
    if cai.get("mask") is not None:
        raise ValueError("%s: masked arrays (__cuda_array_interface__ 'mask') are not supported" % what)
    dtype = _dtypes.from_typestr(typestr)
    byte_strides = cai.get("strides")
    if byte_strides is None:
        strides = contiguous_strides(shape)
    else:
        if len(byte_strides) != len(shape):
            raise ValueError("%s: __cuda_array_interface__ has %d strides for %d dimensions"
                             % (what, len(byte_strides), len(shape)))
        strides = []
        for axis, b in enumerate(byte_strides):
            if b % dtype.itemsize:
                raise ValueError("%s: stride of %d bytes on axis %d is not a multiple of the %d-byte %s element"
                                 % (what, b, axis, dtype.itemsize, dtype.name))
            strides.append(b // dtype.itemsize)
        strides = tuple(strides)
    return ArrayView(int(ptr or 0), shape, strides, dtype, None, bool(readonly), owner)


def cuda_array_interface_stream(cai):
    """The producer's stream named by the interface (version 3), or None when it names none."""
    return cai.get("stream") if isinstance(cai, dict) else None


# --- either protocol ----------------------------------------------------------

def _not_an_array(obj, what):
    return TypeError("%s must be a CUDA array exposing DLPack (__dlpack__) or __cuda_array_interface__ "
                     "(a PyTorch tensor, CuPy array, JAX array or Numba device array); got %s"
                     % (what, type(obj).__module__ + "." + type(obj).__qualname__))


def device_of(obj, what):
    """The CUDA device ordinal of obj, None if only the driver can tell, TypeError if not a CUDA array."""
    if hasattr(obj, "__dlpack_device__"):
        device_type, device_id = (int(v) for v in obj.__dlpack_device__())
        if device_type not in _CUDA_DEVICE_TYPES:
            where = _DEVICE_NAMES.get(device_type, "DLPack device type %d" % device_type)
            raise TypeError("%s lives on %s; cuperm transposes CUDA device arrays: move it to the GPU first"
                            % (what, where))
        return device_id
    if hasattr(obj, "__cuda_array_interface__"):
        return None
    raise _not_an_array(obj, what)


def view_of(obj, stream, what):
    """An ArrayView of obj, made safe to use on `stream` (a cudaStream_t handle as int).

    DLPack is preferred: the producer then orders its pending work before
    `stream` itself. For the array interface, the caller orders streams
    using cuda_array_interface_stream().
    """
    if hasattr(obj, "__dlpack__"):
        try:
            capsule = _export_dlpack(obj, stream)
        except BufferError:  # a view DLPack cannot carry; the array interface may
            if not hasattr(obj, "__cuda_array_interface__"):
                raise
        else:
            view, device_type = read_dlpack_capsule(capsule, what)
            if device_type not in _CUDA_DEVICE_TYPES:
                raise TypeError("%s is not in CUDA device memory (DLPack device type %d)" % (what, device_type))
            return view, None
    if hasattr(obj, "__cuda_array_interface__"):
        cai = obj.__cuda_array_interface__
        return read_cuda_array_interface(cai, what, obj), cuda_array_interface_stream(cai)
    raise _not_an_array(obj, what)
