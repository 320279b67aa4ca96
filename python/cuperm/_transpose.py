"""cuperm.transpose: NumPy's transpose, computed by cuperm on the array's device and stream."""

import collections

from . import _cudart, _fast, _frameworks, _layout
from ._context import default as _default_context

# Everything one call has resolved: views of both arrays, what to return, where to run, and the
# checked layout (column-major problem and byte spans of both arrays).
Call = collections.namedtuple("Call", "x out target finish stream alpha beta axes layout")


def _resolve_device(view, what):
    if view.device is None:  # __cuda_array_interface__ names no device: ask the driver
        view.device = _cudart.pointer_device(view.ptr, what)
    return view.device


def prepare(x, axes, alpha, beta, out, stream):
    """Validates a call and resolves both arrays; raises TypeError/ValueError naming the culprit."""
    xa = _frameworks.adapter_of(x)
    x = xa.prepare(x, "x")
    device = xa.device(x, "x")
    s = _frameworks.stream_handle(stream) if stream is not None else xa.current_stream(x, device)
    xv, x_producer = xa.view(x, s, "x")
    axes = _layout.normalize_axes(axes, len(xv.shape))
    shape = _layout.permuted_shape(xv.shape, axes)
    alpha_c = xv.dtype.pack_scalar(alpha, "alpha")
    beta_c = xv.dtype.pack_scalar(beta, "beta")

    if out is None:
        if beta != 0:
            raise ValueError("beta=%r reads the output, so it needs out=" % (beta,))
        if xa is _frameworks.GENERIC:
            raise TypeError("cuperm cannot allocate an output like %s; pass out=" % type(x).__qualname__)
        if device is None:
            device = _resolve_device(xv, "x") if xv.ptr else _cudart.get_device()
        target, finish = xa.allocate(x, shape, xv.dtype, device)
    else:
        target, finish = out, None
    oa = _frameworks.adapter_of(target)
    target = oa.prepare(target, "out")
    oa.device(target, "out")
    ov, out_producer = oa.view(target, s, "out")

    if ov.readonly:
        raise ValueError("out is read-only")
    if ov.shape != shape:
        raise ValueError("out has shape %s but x.transpose(%s) has shape %s" % (ov.shape, list(axes), shape))
    if ov.dtype != xv.dtype:
        raise TypeError("out has dtype %s but x has dtype %s: cuperm does not convert types"
                        % (ov.dtype.name, xv.dtype.name))
    layout = _default_context.layout(xv.shape, xv.strides, axes, ov.strides, xv.dtype.itemsize)
    call = Call(xv, ov, target, finish, s, alpha_c, beta_c, axes, layout)
    if layout.empty:
        return call
    (x_lo, x_hi), (o_lo, o_hi) = layout.x_span, layout.out_span
    if xv.ptr + x_lo < ov.ptr + o_hi and ov.ptr + o_lo < xv.ptr + x_hi:
        raise ValueError("out overlaps x in memory: cuperm transposes out of place")
    if _resolve_device(xv, "x") != _resolve_device(ov, "out"):
        raise ValueError("x is on device %d but out is on device %d" % (xv.device, ov.device))
    # Work its producer queued on another stream must finish before ours reads or writes the array.
    for producer in (x_producer, out_producer):
        if producer is not None and not _cudart.same_stream(producer, s):
            _cudart.order_after(producer, s, xv.device)
    return call


def finish(call):
    return call.target if call.finish is None else call.finish(call.target)


def transpose(x, axes=None, *, alpha=1, beta=0, out=None, stream=None):
    """out = alpha * x.transpose(axes) + beta * out, computed on x's device.

    x:      a CUDA array exposing DLPack or __cuda_array_interface__ (PyTorch,
            CuPy, JAX, Numba), any strides >= 0 (stride 0 broadcasts).
    axes:   as numpy.transpose: out.shape[i] == x.shape[axes[i]]; None reverses.
    alpha, beta: scalars; beta != 0 reads `out`, which must then be given.
    out:    optional output array (same dtype and device, shape of the result,
            strides > 0 that do not overlap). Returned as is.
    stream: a stream object or cudaStream_t handle; by default PyTorch's or
            CuPy's current stream for their arrays, the legacy default stream
            otherwise. The call is asynchronous on it.

    Returns out, or a new row-major array of x's kind. Plans are cached per
    (device, dtype, shape, strides, axes); see cuperm.clear_cache().
    """
    if type(x) is _fast.tensor_type and stream is None:  # a repeated call: one lookup, one C call (see _fast)
        y = _fast.transpose(x, axes, alpha) if out is None and beta == 0 else _fast.transpose_into(
            x, axes, alpha, beta, out)
        if y is not None:
            return y
    torch_input = _frameworks.name_of(x) == "torch"
    if torch_input:
        from . import _torch_ops
        if _torch_ops.wants_op((x,)):
            return _torch_ops.transpose(x, _layout.normalize_axes(axes, x.dim()), alpha, beta, out, stream)
    call = prepare(x, axes, alpha, beta, out, stream)
    if not call.layout.empty:
        plan = _default_context.plan(call.x.device, call.layout.problem, call.x.dtype)
        plan.execute(call.alpha, call.x.ptr, call.beta, call.out.ptr, call.stream)
        if torch_input and stream is None:
            if out is None and beta == 0 and call.finish is None:
                _fast.remember_transpose(x, axes, alpha, plan, call.alpha, call.beta, call.out.shape)
            elif out is not None:
                _fast.remember_transpose_into(x, axes, alpha, beta, out, plan, call.alpha, call.beta, call.layout)
    return finish(call)
