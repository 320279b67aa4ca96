"""Per-call fast paths: a repeated call on PyTorch tensors in one dictionary lookup and one C call.

`cuperm.transpose(x, axes[, out=])`, `cuperm.einsum(subscripts, a, b[, out=])` and ContractionPlan calls
on plain `torch.Tensor`s, with no `stream=` (einsum: no operators; beta only with out=), look the
call up by what the tensors' own attributes say (`shape`, `stride()`, `dtype`, `get_device()`: an
int, cheaper than `device`) plus the axes or subscripts, alpha and compute type. An entry holds
everything the general path worked out for that description the first time: the bound C function,
the C plan's address, the packed alpha/beta scalars' addresses, the device, the arguments of the
workspace's `torch.empty` call, and a prototype of the result. A hit then costs the key, a few guards
(torch.compile, autograd, lazy conjugate/negative bits, the current device),
`torch.empty_like(prototype)`, PyTorch's current stream, and one C call with plain ints. No argument
parsing, no layout work.

The prototype is one element of the result's dtype on its device, expanded to the result's shape:
`torch.empty_like(prototype, memory_format=torch.contiguous_format)` is a new row-major tensor, as
`new_empty(shape)` would make, for less of PyTorch's argument parsing (no shape to convert).

The replay runs in the compiled module cuperm._native (python/native/_native.c) when the package
has it, else in Python here (`_py_*`): same tables, keys, entries and guards, so either serves any
entry. The native replay reads the tensors' descriptions, pointers and the current stream through
DLPack's C exchange API where torch.Tensor has it (PyTorch >= 2.10), in one C call a tensor.
CUPERM_NO_NATIVE=1 (read at import) forces the Python replay. The torch.compile guard stays in
Python: under a trace it must be seen by Dynamo, which cannot look inside a native call.

Anything else (a first call, other arrays, other keywords) takes the general path, which fills the
tables (`remember_*`). The tables are bounded and emptied by `cuperm.clear_cache()`. The entries
keep their C plans alive, so a plan evicted from the Context's LRU cache stays valid here.

A contraction's workspace (fp32 plans use cuBLAS's 32 MiB) is not allocated per call: as PyTorch
does for its own cuBLAS workspaces, one uint8 tensor per (device, raw stream) is kept in `workspaces`
and reused by every contraction queued on that stream (stream order makes the reuse safe), replaced
by a bigger one when a plan needs more. While the current stream captures a CUDA graph, the cache is
bypassed (a new tensor per call, as before), so that a graph owns its workspace. At most
MAX_WORKSPACES streams are kept (the oldest goes first); `cuperm.clear_workspace_cache()` empties it.
The general path (_frameworks.Torch.workspace) and both replays share the cache and its decisions
(`workspace`; the native replay does the hit in C and calls `_new_workspace` on a miss).

The general path is what the tests check on the GPU for every feature; this module only replays,
for the same description, exactly the C call the general path made (same plan, same scalars),
against the new tensors' pointers and the current stream.
"""

import ctypes
import os
import sys

from . import _lib

try:
    from . import _native
except ImportError:  # not built (a source checkout, or a build without Python headers): the Python replay
    _native = None
if os.environ.get("CUPERM_NO_NATIVE"):
    _native = None

MAX_ENTRIES = 1024

# Every entry starts (run, plan, alpha, beta, device): the ctypes function, the C plan's address, the
# packed scalars' addresses and the device the plan runs on. Then, per table (python/native/_native.c
# reads them by these positions):
#   transpose:       + (prototype, keep)                      the result: torch.empty_like(prototype)
#   transpose, out=: + ((x_lo, x_hi, out_lo, out_hi), keep)   byte spans for the overlap check
#   einsum:          + (prototype, workspace_bytes, ws_args, ws_kwargs, keep)
#   einsum, out=:    + (byte spans of a, b and out (6 ints), workspace_bytes, ws_args, ws_kwargs, keep)
# The prototype (_prototype) has the input's (einsum: the first operand's) dtype and device; the
# workspace is torch.empty(*ws_args, **ws_kwargs).
# keep: the Python objects the addresses point into.
transposes = {}     # (shape, stride, dtype, device, axes, alpha[, beta, out's shape...]) -> entry
contractions = {}   # (subscripts, a..., b...[, out...], alpha[, beta], compute code, internal) -> entry
tensor_type = None  # torch.Tensor, once a call on one has been remembered
MAX_WORKSPACES = 8
workspaces = {}     # (device, raw stream) -> (bytes, pointer, uint8 tensor): that stream's workspace

# PyTorch's functions, bound once (by _bind) when the first entry is made.
_empty = _empty_like = _contiguous = _get_device = _raw_stream = None
_is_compiling = _grad_enabled = _uint8 = _capturing = None
_compute_codes = {None: 0}


def clear():
    transposes.clear()
    contractions.clear()


def clear_workspaces():
    workspaces.clear()


def _address(fn):
    return ctypes.cast(fn, ctypes.c_void_p).value


def _bind():
    """Binds the PyTorch functions the fast paths call; False (no fast path) if any is missing."""
    global tensor_type, _empty, _empty_like, _contiguous, _get_device, _raw_stream, _is_compiling, _grad_enabled
    global _uint8, _capturing
    if tensor_type is not None:
        return True
    torch = sys.modules.get("torch")
    try:
        get_device = getattr(torch._C, "_cuda_getDevice", None) or torch.cuda.current_device
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        if raw is None:
            current_stream = torch.cuda.current_stream
            raw = lambda device: current_stream(device).cuda_stream  # noqa: E731
        # The builtin, not torch.cuda.is_current_stream_capturing (a Python function calling it). A
        # PyTorch with neither cannot say: then every workspace is allocated per call.
        capturing = (getattr(torch._C, "_cuda_isCurrentStreamCapturing", None)
                     or getattr(getattr(torch, "cuda", None), "is_current_stream_capturing", None) or _always)
        _empty, _get_device, _raw_stream, _capturing = torch.empty, get_device, raw, capturing
        _empty_like, _contiguous = torch.empty_like, torch.contiguous_format
        _is_compiling, _grad_enabled, _uint8 = torch.compiler.is_compiling, torch.is_grad_enabled, torch.uint8
    except AttributeError:  # an unusual PyTorch (or a stand-in): the general path serves every call
        return False
    if _native is not None:
        lib = _lib.load()
        # DLPack's C exchange API (PyTorch >= 2.10): the native replay reads tensors through it.
        _native.bind(_empty, _empty_like, {"memory_format": _contiguous}, _get_device, _raw_stream, _grad_enabled,
                     _lib.check, lib.cupermExecute,
                     _address(lib.cupermExecute), lib.cupermContract, _address(lib.cupermContract),
                     _capturing, workspaces, _new_workspace,
                     getattr(torch.Tensor, "__dlpack_c_exchange_api__", None))
    tensor_type = torch.Tensor
    return True


def _always():
    return True


def _store(table, key, entry):
    if len(table) >= MAX_ENTRIES:
        table.clear()
    try:
        table[key] = entry
    except TypeError:  # an unhashable piece (e.g. an exotic alpha): just no fast path
        pass


def _prototype(like, shape):
    """One element of like's dtype on its device, expanded to shape (see the module docstring)."""
    return like.new_empty(()).expand(tuple(shape))


def _new_result(proto):
    return _empty_like(proto, memory_format=_contiguous)


def _failed(status):
    if status:
        _lib.check(status)


# --- transpose --------------------------------------------------------------------------------------

def _plain_number(alpha):
    # Keys hold alpha itself: only immutable numbers (not, say, a tensor whose value may change).
    return isinstance(alpha, (int, float, complex))


def remember_transpose(x, axes, alpha, cplan, alpha_c, beta_c, out_shape):
    """Records a general-path transpose of torch tensor x (no out=, stream=, beta) for replay."""
    if not _plain_number(alpha) or not _bind() or type(x) is not tensor_type:
        return
    if x.is_conj() or x.is_neg():
        return
    proto = _prototype(x, out_shape)
    if type(axes) is list:
        axes = tuple(axes)
    entry = (_lib.load().cupermExecute, cplan.ptr, ctypes.addressof(alpha_c), ctypes.addressof(beta_c),
             cplan.device, proto, (cplan, alpha_c, beta_c))
    _store(transposes, (x.shape, x.stride(), x.dtype, x.get_device(), axes, alpha), entry)


def transpose(x, axes, alpha):
    """x.transpose(axes) * alpha as a new tensor, or None when the general path must take the call."""
    if _is_compiling():
        return None
    if _native is not None:
        return _native.transpose(transposes, x, axes, alpha)
    return _py_transpose(x, axes, alpha)


def _py_transpose(x, axes, alpha):
    if type(axes) is list:
        axes = tuple(axes)
    try:
        hit = transposes.get((x.shape, x.stride(), x.dtype, x.get_device(), axes, alpha))
    except TypeError:
        return None
    if hit is None:
        return None
    run, plan, alpha_p, beta_p, device, proto, _ = hit
    if (x.requires_grad and _grad_enabled()) or x.is_conj() or x.is_neg() or _get_device() != device:
        return None
    out = _new_result(proto)
    _failed(run(plan, alpha_p, x.data_ptr(), beta_p, out.data_ptr(), _raw_stream(device)))
    return out


def remember_transpose_into(x, axes, alpha, beta, out, cplan, alpha_c, beta_c, layout):
    """Records a general-path transpose of torch tensor x into torch tensor out (no stream=)."""
    if (not _plain_number(alpha) or not _plain_number(beta) or not _bind() or type(x) is not tensor_type
            or type(out) is not tensor_type):
        return
    if x.is_conj() or x.is_neg() or out.is_conj() or out.is_neg():
        return
    if type(axes) is list:
        axes = tuple(axes)
    (x_lo, x_hi), (o_lo, o_hi) = layout.x_span, layout.out_span
    entry = (_lib.load().cupermExecute, cplan.ptr, ctypes.addressof(alpha_c), ctypes.addressof(beta_c),
             cplan.device, (x_lo, x_hi, o_lo, o_hi), (cplan, alpha_c, beta_c))
    _store(transposes, (x.shape, x.stride(), x.dtype, x.get_device(), axes, alpha, beta, out.shape, out.stride(),
                        out.dtype, out.get_device()), entry)


def transpose_into(x, axes, alpha, beta, out):
    """out = alpha * x.transpose(axes) + beta * out, returning out; None for the general path."""
    if _is_compiling():
        return None
    if _native is not None:
        return _native.transpose_into(transposes, x, axes, alpha, beta, out)
    return _py_transpose_into(x, axes, alpha, beta, out)


def _py_transpose_into(x, axes, alpha, beta, out):
    if type(axes) is list:
        axes = tuple(axes)
    try:
        hit = transposes.get((x.shape, x.stride(), x.dtype, x.get_device(), axes, alpha, beta, out.shape,
                              out.stride(), out.dtype, out.get_device()))
    except (TypeError, AttributeError):
        return None
    if hit is None:
        return None
    run, plan, alpha_p, beta_p, device, (x_lo, x_hi, o_lo, o_hi), _ = hit
    if ((x.requires_grad and _grad_enabled()) or x.is_conj() or x.is_neg() or out.is_conj() or out.is_neg()
            or _get_device() != device):
        return None
    xp, op = x.data_ptr(), out.data_ptr()
    if xp + x_lo < op + o_hi and op + o_lo < xp + x_hi:
        return None  # overlapping: the general path says so
    _failed(run(plan, alpha_p, xp, beta_p, op, _raw_stream(device)))
    return out


# --- einsum (two operands) --------------------------------------------------------------------------

def _compute_code(compute):
    code = _compute_codes.get(compute)
    if code is None:
        from ._ops import compute_type
        code = compute_type(compute)
        if len(_compute_codes) < 64:
            _compute_codes[compute] = code
    return code


def _code_or_none(compute):
    """The compute type's code, or None for an unhashable or bad one (the general path says why)."""
    try:
        code = _compute_codes.get(compute)
        return code if code is not None else _compute_code(compute)
    except (TypeError, ValueError):
        return None


def remember_einsum(subscripts, a, b, alpha, compute_code, internal, res, table=None):
    """Records a general-path contraction of torch tensors a, b (no out=, stream=, beta, framework
    workspace; for einsum() no operators either) that resolved to `res`, for replay. table: a
    ContractionPlan's own (its C plan may differ from einsum's for the same description)."""
    if not _plain_number(alpha) or not _bind() or type(a) is not tensor_type or type(b) is not tensor_type:
        return
    if res.plan is None or res.layout.zero_fill or a.is_conj() or a.is_neg() or b.is_conj() or b.is_neg():
        return
    proto = _prototype(a, res.layout.out_shape)  # without out=, the result has a's dtype
    plan = res.plan
    alpha_c, beta_c = res.cd.pack_scalar(alpha, "alpha"), res.cd.pack_scalar(0, "beta")
    nbytes = plan.workspace_bytes
    entry = (plan._run, plan.ptr, ctypes.addressof(alpha_c), ctypes.addressof(beta_c), res.device, proto,
             nbytes, (nbytes,), {"dtype": _uint8, "device": a.device}, (plan, alpha_c, beta_c))
    _store(contractions if table is None else table, (subscripts, a.shape, a.stride(), a.dtype, a.get_device(),
                                                      b.shape, b.stride(), b.dtype, b.get_device(), alpha,
                                                      compute_code, internal), entry)


def einsum(subscripts, a, b, alpha, compute, internal=False, table=None):
    """einsum(subscripts, a, b) * alpha as a new tensor, or None when the general path must take it.
    compute: as einsum's keyword (None, a name or a code). internal: called by the custom op, whose
    inputs may require gradients (the op's autograd formula covers them)."""
    if _is_compiling():
        return None
    code = _code_or_none(compute)
    if code is None:
        return None
    if _native is not None:
        return _native.einsum(contractions if table is None else table, subscripts, a, b, alpha, code, internal)
    return _py_einsum(contractions if table is None else table, subscripts, a, b, alpha, code, internal)


def _py_einsum(table, subscripts, a, b, alpha, code, internal):
    try:
        hit = table.get((subscripts, a.shape, a.stride(), a.dtype, a.get_device(), b.shape, b.stride(), b.dtype,
                         b.get_device(), alpha, code, internal))
    except (TypeError, ValueError, AttributeError):  # unhashable
        return None
    if hit is None:
        return None
    run, plan, alpha_p, beta_p, device, proto, nbytes, ws_args, ws_kwargs, _ = hit
    if ((not internal and (a.requires_grad or b.requires_grad) and _grad_enabled()) or a.is_conj() or a.is_neg()
            or b.is_conj() or b.is_neg() or _get_device() != device):
        return None
    d = _new_result(proto)
    dp, stream = d.data_ptr(), _raw_stream(device)
    if nbytes:
        w, wp = workspace(device, stream, nbytes, ws_args, ws_kwargs)
        status = run(plan, alpha_p, a.data_ptr(), b.data_ptr(), beta_p, dp, dp, wp, nbytes, stream)
        del w  # uncached (capture): PyTorch's allocator reuses it only after the work queued on this stream
    else:
        status = run(plan, alpha_p, a.data_ptr(), b.data_ptr(), beta_p, dp, dp, 0, 0, stream)
    _failed(status)
    return d


# --- einsum into out= (two operands) ------------------------------------------------------------------

def remember_einsum_into(subscripts, a, b, out, alpha, beta, compute_code, internal, res, table=None):
    """Records a general-path contraction of torch tensors a, b into torch tensor out (no stream=, framework
    workspace; for einsum() no operators either) that resolved to `res`, for replay. As remember_einsum,
    with out's description and beta in the key and the operands' byte spans in the entry (the overlap check)."""
    if (not _plain_number(alpha) or not _plain_number(beta) or not _bind() or type(a) is not tensor_type
            or type(b) is not tensor_type or type(out) is not tensor_type):
        return
    if res.plan is None or res.layout.zero_fill or any(t.is_conj() or t.is_neg() for t in (a, b, out)):
        return
    plan = res.plan
    alpha_c, beta_c = res.cd.pack_scalar(alpha, "alpha"), res.cd.pack_scalar(beta, "beta")
    spans = tuple(int(v) for span in res.spans for v in span)  # a_lo, a_hi, b_lo, b_hi, out_lo, out_hi
    nbytes = plan.workspace_bytes
    entry = (plan._run, plan.ptr, ctypes.addressof(alpha_c), ctypes.addressof(beta_c), res.device, spans,
             nbytes, (nbytes,), {"dtype": _uint8, "device": a.device}, (plan, alpha_c, beta_c))
    _store(contractions if table is None else table,
           (subscripts, a.shape, a.stride(), a.dtype, a.get_device(), b.shape, b.stride(), b.dtype, b.get_device(),
            out.shape, out.stride(), out.dtype, out.get_device(), alpha, beta, compute_code, internal), entry)


def einsum_into(subscripts, a, b, out, alpha, beta, compute, internal=False, table=None):
    """out = alpha * einsum(subscripts, a, b) + beta * out, returning out; None for the general path."""
    if _is_compiling():
        return None
    code = _code_or_none(compute)
    if code is None:
        return None
    table = contractions if table is None else table
    if _native is not None:
        return _native.einsum_into(table, subscripts, a, b, out, alpha, beta, code, internal)
    return _py_einsum_into(table, subscripts, a, b, out, alpha, beta, code, internal)


def _overlaps(p, lo, hi, q, q_lo, q_hi):
    return p + lo < q + q_hi and q + q_lo < p + hi


def _py_einsum_into(table, subscripts, a, b, out, alpha, beta, code, internal):
    try:
        hit = table.get((subscripts, a.shape, a.stride(), a.dtype, a.get_device(), b.shape, b.stride(), b.dtype,
                         b.get_device(), out.shape, out.stride(), out.dtype, out.get_device(), alpha, beta, code,
                         internal))
    except (TypeError, ValueError, AttributeError):
        return None
    if hit is None:
        return None
    run, plan, alpha_p, beta_p, device, (a_lo, a_hi, b_lo, b_hi, o_lo, o_hi), nbytes, ws_args, ws_kwargs, _ = hit
    if ((not internal and (a.requires_grad or b.requires_grad) and _grad_enabled()) or out.requires_grad
            or a.is_conj() or a.is_neg() or b.is_conj() or b.is_neg() or out.is_conj() or out.is_neg()
            or _get_device() != device):
        return None
    ap, bp, dp = a.data_ptr(), b.data_ptr(), out.data_ptr()
    if _overlaps(ap, a_lo, a_hi, dp, o_lo, o_hi) or _overlaps(bp, b_lo, b_hi, dp, o_lo, o_hi):
        return None  # the general path says so
    stream = _raw_stream(device)
    if nbytes:
        w, wp = workspace(device, stream, nbytes, ws_args, ws_kwargs)
        status = run(plan, alpha_p, ap, bp, beta_p, dp, dp, wp, nbytes, stream)
        del w
    else:
        status = run(plan, alpha_p, ap, bp, beta_p, dp, dp, 0, 0, stream)
    _failed(status)
    return out


# --- workspaces ---------------------------------------------------------------------------------------

def workspace(device, stream, nbytes, args, kwargs):
    """(keepalive, pointer) of at least nbytes of workspace for work queued on `stream`, the current
    stream of `device`, the current device; torch.empty(*args, **kwargs) makes nbytes of it. Reused per
    stream (module docstring) unless the stream is capturing a graph. python/native/_native.c
    (workspace) makes the same decisions."""
    if _capturing():
        w = _empty(*args, **kwargs)
        return w, w.data_ptr()
    key = (device, stream)
    hit = workspaces.get(key)
    if hit is None or hit[0] < nbytes:
        hit = _new_workspace(key, nbytes, args, kwargs)
    return hit[2], hit[1]


def _new_workspace(key, nbytes, args, kwargs):
    """A miss: the stream's workspace made or grown (the smaller one dropped first), the oldest
    stream's dropped when MAX_WORKSPACES are kept. Returns the cache's new entry."""
    if workspaces.pop(key, None) is None and len(workspaces) >= MAX_WORKSPACES:
        workspaces.pop(next(iter(workspaces), None), None)  # the oldest (safe against another thread)
    w = _empty(*args, **kwargs)
    hit = workspaces[key] = (nbytes, w.data_ptr(), w)
    return hit
