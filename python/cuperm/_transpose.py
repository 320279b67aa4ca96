"""cuperm.transpose: NumPy's transpose, computed by cuperm on the array's device and stream."""

import collections

from . import _cudart, _frameworks, _layout, _protocols
from ._context import default as _default_context

# Everything one call has resolved: views of both arrays, what to return, and where to run.
Call = collections.namedtuple("Call", "x out result stream alpha beta axes")


def _resolve_device(view, what):
    if view.device is None:  # __cuda_array_interface__ names no device: ask the driver
        view.device = _cudart.pointer_device(view.ptr, what)
    return view.device


def prepare(x, axes, alpha, beta, out, stream):
    """Validates a call and resolves both arrays; raises TypeError/ValueError naming the culprit."""
    framework = _frameworks.name_of(x)
    x = _frameworks.exportable(framework, x)
    device = _protocols.device_of(x, "x")
    s = _frameworks.stream_handle(stream) if stream is not None else _frameworks.current_stream(framework, x)
    xv, x_stream = _protocols.view_of(x, s, "x")
    axes = _layout.normalize_axes(axes, xv.ndim)
    shape = _layout.permuted_shape(xv.shape, axes)
    alpha_c = xv.dtype.pack_scalar(alpha, "alpha")
    beta_c = xv.dtype.pack_scalar(beta, "beta")

    if out is None:
        if beta != 0:
            raise ValueError("beta=%r reads the output, so it needs out=" % (beta,))
        if framework is None:
            raise TypeError("cuperm cannot allocate an output like %s; pass out=" % type(x).__qualname__)
        if device is None and xv.ptr:
            device = _resolve_device(xv, "x")
        target, finish = _frameworks.allocate(framework, x, shape, xv.dtype,
                                              device if device is not None else _cudart.get_device())
    else:
        target, finish = _frameworks.exportable(_frameworks.name_of(out), out), (lambda a: out)
        _protocols.device_of(target, "out")
    ov, out_stream = _protocols.view_of(target, s, "out")

    if ov.readonly:
        raise ValueError("out is read-only")
    if ov.shape != shape:
        raise ValueError("out has shape %s but x.transpose(%s) has shape %s" % (ov.shape, list(axes), shape))
    if ov.dtype != xv.dtype:
        raise TypeError("out has dtype %s but x has dtype %s: cuperm does not convert types"
                        % (ov.dtype.name, xv.dtype.name))
    _layout.check_strides(xv.shape, xv.strides, "x", output=False)
    _layout.check_strides(ov.shape, ov.strides, "out", output=True)

    call = Call(xv, ov, (target, finish), s, alpha_c, beta_c, axes)
    if _layout.volume(shape) == 0:
        return call
    x_lo, x_hi = _layout.byte_span(xv.shape, xv.strides, xv.dtype.itemsize)
    o_lo, o_hi = _layout.byte_span(ov.shape, ov.strides, ov.dtype.itemsize)
    if xv.ptr + x_lo < ov.ptr + o_hi and ov.ptr + o_lo < xv.ptr + x_hi:
        raise ValueError("out overlaps x in memory: cuperm transposes out of place")
    if _resolve_device(xv, "x") != _resolve_device(ov, "out"):
        raise ValueError("x is on device %d but out is on device %d" % (xv.device, ov.device))
    # Arrays exported through __cuda_array_interface__ may still be written on their own stream.
    for producer in (x_stream, out_stream):
        if producer is not None:
            with _cudart.on_device(xv.device):
                _cudart.order_after(producer, s)
    return call


def problem_of(call):
    """The column-major problem of a prepared call."""
    return _layout.to_cuperm(call.x.shape, call.x.strides, call.axes, call.out.strides)


def finish(call):
    target, finish_fn = call.result
    return finish_fn(target)


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
    call = prepare(x, axes, alpha, beta, out, stream)
    if _layout.volume(call.out.shape) == 0:
        return finish(call)
    plan = _default_context.plan(call.x.device, problem_of(call), call.x.dtype)
    plan.execute(call.alpha, call.x.ptr, call.beta, call.out.ptr, call.stream)
    return finish(call)
