"""Finding and loading libcuperm, its C prototypes, and C errors as exceptions.

The library is looked up, in order, at $CUPERM_LIBRARY (a path to
libcuperm.so, for development against a build tree) and in the package's
_lib/ folder, where `pip install ./python` puts the library it built.
It is loaded on first use, so `import cuperm` works without it.

The packaged library needs the CUDA runtime and cuBLAS of the CUDA major it was built with
(_lib/cuda_version.txt). Its RPATH looks for them in the same site-packages, where the wheels
nvidia-cuda-runtime and nvidia-cublas put them; before loading it, the package also preloads them
from any sys.path entry that has them (a venv with --system-site-packages, say), as PyTorch and
CuPy do, unless a process already has that soname loaded (then that copy serves everyone).
Without them the dynamic loader's usual search applies (LD_LIBRARY_PATH, ld.so.cache).
"""

import ctypes
import os
import sys
import threading

ENV_VAR = "CUPERM_LIBRARY"
_LIB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_lib")
_PACKAGED = os.path.join(_LIB_DIR, "libcuperm.so")


class LibraryNotFoundError(OSError):
    """libcuperm could not be found or loaded."""


class CupermError(RuntimeError):
    """A cuperm C call failed; the message is the library's own."""

    def __init__(self, status, status_name, message):
        super().__init__("%s: %s" % (status_name, message) if message else status_name)
        self.status = status
        self.status_name = status_name
        self.message = message


class InvalidValueError(CupermError, ValueError):
    """CUPERM_STATUS_INVALID_VALUE: an argument broke a documented rule."""


class NotSupportedError(CupermError, NotImplementedError):
    """CUPERM_STATUS_NOT_SUPPORTED: valid, but not implemented for this input."""


_ERROR_CLASSES = {1: InvalidValueError, 2: NotSupportedError}


class PlanInfo(ctypes.Structure):
    """cupermPlanInfo_t."""
    _fields_ = [("kernel", ctypes.c_int), ("kernelName", ctypes.c_char_p), ("fusedRank", ctypes.c_int),
                ("volume", ctypes.c_int64), ("tileA", ctypes.c_int64), ("tileB", ctypes.c_int64),
                ("threadsPerBlock", ctypes.c_int), ("blocks", ctypes.c_int64),
                ("predictedSeconds", ctypes.c_double), ("measured", ctypes.c_int),
                ("movedElementBytes", ctypes.c_int),
                ("tuning", ctypes.c_char_p)]


class TensorDescriptor(ctypes.Structure):
    """cupermTensorDescriptor_t."""
    _fields_ = [("rank", ctypes.c_int), ("modes", ctypes.POINTER(ctypes.c_int32)),
                ("extents", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("type", ctypes.c_int), ("op", ctypes.c_int), ("opParam", ctypes.c_double)]


class ContractionInfo(ctypes.Structure):
    """cupermContractionInfo_t."""
    _fields_ = [("m", ctypes.c_int64), ("n", ctypes.c_int64), ("k", ctypes.c_int64), ("batch", ctypes.c_int64),
                ("calls", ctypes.c_int64), ("swapped", ctypes.c_int), ("opFirst", ctypes.c_char),
                ("opSecond", ctypes.c_char), ("transposedA", ctypes.c_int), ("transposedB", ctypes.c_int),
                ("transposedD", ctypes.c_int), ("elementwiseKernels", ctypes.c_int), ("flops", ctypes.c_double),
                ("predictedTransposeSeconds", ctypes.c_double), ("predictedGemmSeconds", ctypes.c_double),
                ("workspaceBytes", ctypes.c_size_t), ("description", ctypes.c_char_p), ("measured", ctypes.c_int),
                ("measuredSeconds", ctypes.c_double),
                ("tuning", ctypes.c_char_p), ("kind", ctypes.c_int)]


def _declare(lib):
    P, I, I64, VP = ctypes.POINTER, ctypes.c_int, ctypes.c_int64, ctypes.c_void_p
    plan_args = [VP, P(VP), I, P(I64), P(I), I, P(I64), P(I64)]
    protos = {
        "cupermGetErrorString": (ctypes.c_char_p, [I]),
        "cupermGetLastErrorMessage": (ctypes.c_char_p, []),
        "cupermGetVersion": (I, []),
        "cupermDataTypeSize": (ctypes.c_size_t, [I]),
        "cupermCreate": (I, [P(VP)]),
        "cupermDestroy": (I, [VP]),
        "cupermHandleWritePlanCache": (I, [VP, ctypes.c_char_p, P(I)]),
        "cupermHandleReadPlanCache": (I, [VP, ctypes.c_char_p, P(I)]),
        "cupermPlanTranspose": (I, plan_args),
        "cupermPlanTransposeMeasure": (I, plan_args + [VP, VP, VP]),
        "cupermPredictTransposeTime": (I, [VP, I, P(I64), P(I), I, P(I64), P(I64), P(ctypes.c_double)]),
        "cupermExecute": (I, [VP, VP, VP, VP, VP, VP]),
        "cupermPlanDestroy": (I, [VP]),
        "cupermPlanGetInfo": (I, [VP, P(PlanInfo)]),
        "cupermPlanContraction": (I, [VP, P(VP)] + [P(TensorDescriptor)] * 4 + [I, I]),
        "cupermPlanContractionAlgo": (I, [VP, P(VP)] + [P(TensorDescriptor)] * 4 + [I, I, I]),
        "cupermContractionGetWorkspaceSize": (I, [VP, P(ctypes.c_size_t)]),
        "cupermContract": (I, [VP, VP, VP, VP, VP, VP, VP, VP, ctypes.c_size_t, VP]),
        "cupermContractionPlanDestroy": (I, [VP]),
        "cupermContractionPlanGetInfo": (I, [VP, P(ContractionInfo)]),
    }
    for name, (restype, argtypes) in protos.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes


_load_lock = threading.Lock()
_loaded = []  # the one CDLL, once loaded (written once, under _load_lock)


def library_path():
    """The path libcuperm will be (or was) loaded from, or None when there is none."""
    explicit = os.environ.get(ENV_VAR)
    if explicit:
        return explicit
    return _PACKAGED if os.path.exists(_PACKAGED) else None


def load():
    """The loaded libcuperm (ctypes.CDLL); LibraryNotFoundError says where it was looked for."""
    if _loaded:
        return _loaded[0]
    with _load_lock:
        if not _loaded:
            path = library_path()
            if path is None:
                raise LibraryNotFoundError(
                    "libcuperm not found: it was looked for at $%s (unset) and %s. Install the package with "
                    "`pip install cuperm-cu13` (a wheel), or `pip install ./python` from the cuperm "
                    "repository (this builds the library), or set %s to the path of libcuperm.so" % (ENV_VAR, _PACKAGED, ENV_VAR))
            if path == _PACKAGED:
                preload_cuda_libraries()
            try:
                lib = ctypes.CDLL(path)
            except OSError as e:
                raise LibraryNotFoundError("cannot load libcuperm from %s: %s" % (path, e)) from None
            _declare(lib)
            _loaded.append(lib)
    return _loaded[0]


def built_cuda_version():
    """The CUDA toolkit version the packaged library was built with, e.g. '13.0.88'; None if unknown."""
    try:
        with open(os.path.join(_LIB_DIR, "cuda_version.txt")) as f:
            return f.read().strip() or None
    except OSError:
        return None


def _nvidia_lib_dirs(major):
    """Where NVIDIA's wheels put the runtime libraries of a CUDA major, under each sys.path entry."""
    subdirs = [os.path.join("nvidia", "cu%d" % major, "lib")]
    if major <= 12:
        subdirs += [os.path.join("nvidia", "cuda_runtime", "lib"), os.path.join("nvidia", "cublas", "lib")]
    for entry in sys.path:
        for sub in subdirs:
            d = os.path.join(entry or os.getcwd(), sub)
            if os.path.isdir(d):
                yield d


preloaded = []  # paths of the libraries preload_cuda_libraries() loaded


def preload_cuda_libraries():
    """Loads the CUDA runtime, cuBLASLt and cuBLAS of the packaged library's CUDA major from NVIDIA's
    wheels (found on sys.path), so that its NEEDED sonames resolve to them. A soname some library
    already loaded (e.g. PyTorch's) is left alone. Silently does nothing where there are none."""
    version = built_cuda_version()
    if not version or os.environ.get("CUPERM_NO_PRELOAD"):
        return
    try:
        major = int(version.split(".")[0])
    except ValueError:
        return
    dirs = list(_nvidia_lib_dirs(major))
    for name in ("libcudart.so.%d", "libcublasLt.so.%d", "libcublas.so.%d"):
        soname = name % major
        try:
            ctypes.CDLL(soname, mode=os.RTLD_NOLOAD | ctypes.RTLD_GLOBAL)
            continue  # already in the process
        except OSError:
            pass
        for d in dirs:
            candidate = os.path.join(d, soname)
            if os.path.exists(candidate):
                try:
                    ctypes.CDLL(candidate, mode=ctypes.RTLD_GLOBAL)
                    preloaded.append(candidate)
                except OSError:
                    continue
                break


def check(status):
    """Raises the CupermError for a failed status, with the C library's message for this thread."""
    if status == 0:
        return
    lib = load()
    name = (lib.cupermGetErrorString(status) or b"CUPERM_STATUS_%d" % status).decode()
    message = (lib.cupermGetLastErrorMessage() or b"").decode(errors="replace")
    raise _ERROR_CLASSES.get(status, CupermError)(status, name, message)


def version():
    """The linked library's version as (major, minor, patch)."""
    v = load().cupermGetVersion()
    return v // 10000, v // 100 % 100, v % 100
