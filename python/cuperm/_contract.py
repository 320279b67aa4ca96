"""Two-operand contractions on arrays: resolve a call once, cache it, run it (behind einsum and
ContractionPlan).

A call is described by its subscripts and the operands' shapes, strides, dtypes,
device, the output's strides (or none), the operators and the compute type.
That description keys a cache of Resolved entries (parsed expression, layout,
C plan, workspace size), so a repeated call parses, maps and plans nothing.
Repeated calls on PyTorch tensors take a shorter path still (_fast): a dictionary lookup
on the tensors' own attributes, one allocation, one C call.
"""

from __future__ import annotations

from typing import Any, Dict, NamedTuple, Optional, Sequence, Tuple

from . import _cudart, _dtypes, _fast, _frameworks, _ops
from ._context import default as _ctx
from ._contraction_cplan import CContractionPlan
from ._contraction_layout import ContractionLayout, build, byte_span
from ._einsum_parse import parse

Extra = Tuple[Tuple[int, int], ...]  # (label, size) of output labels in no operand (gradients)
NO_OPS = (_ops.IDENTITY,) * 4


class Resolved(NamedTuple):
    """A call's description worked out: what to allocate and which C plan runs it."""
    key: tuple
    layout: ContractionLayout
    plan: Optional[CContractionPlan]   # None when there is nothing to run (empty or zero_sum)
    ab: _dtypes.DType
    cd: _dtypes.DType
    device: int
    spans: Tuple[Tuple[int, int], ...]  # byte spans of A, B, D


def check_types(ab: _dtypes.DType, cd: _dtypes.DType) -> None:
    if ab.kind not in "fc" or ab.move_only:
        raise TypeError("cuperm contracts float16, bfloat16, float32, float64, complex64 and complex128 "
                        "arrays, not %s" % ab.name)
    if cd != ab and not (ab.name in ("float16", "bfloat16") and cd.name == "float32"):
        raise TypeError("out has dtype %s but the operands %s: cuperm writes the operands' type, or float32 "
                        "for float16/bfloat16 operands" % (cd.name, ab.name))


def resolve(subscripts: str, a_shape: Sequence[int], a_strides: Sequence[int], b_shape: Sequence[int],
            b_strides: Sequence[int], ab: _dtypes.DType, cd: _dtypes.DType, out_strides: Optional[Tuple[int, ...]],
            ops: Tuple[_ops.Operator, ...], compute: int, device: int, extra: Extra = (), internal: bool = False,
            measure: bool = False, algo: int = 0) -> Resolved:
    """The cached Resolved entry of a call (planned on first use). algo: a cupermContractionAlgo_t."""
    return _ctx.contractions.get(key_of(subscripts, a_shape, a_strides, b_shape, b_strides, ab, cd, out_strides,
                                        ops, compute, device, extra, internal, measure, algo), _make)


def key_of(subscripts: str, a_shape: Sequence[int], a_strides: Sequence[int], b_shape: Sequence[int],
           b_strides: Sequence[int], ab: _dtypes.DType, cd: _dtypes.DType, out_strides: Optional[Tuple[int, ...]],
           ops: Tuple[_ops.Operator, ...], compute: int, device: int, extra: Extra, internal: bool,
           measure: bool, algo: int = 0) -> tuple:
    return (subscripts, tuple(a_shape), tuple(a_strides), tuple(b_shape), tuple(b_strides), ab, cd,
            None if out_strides is None else tuple(out_strides), ops, compute, device, extra, internal, measure,
            algo)


def _make(key: tuple) -> Resolved:
    subscripts, a_shape, a_strides, b_shape, b_strides, ab, cd, out_strides, ops, compute, device, extra, \
        internal, measure, algo = key
    check_types(ab, cd)
    _ops.check_operators_for(ops, ab.kind == "c")
    expr = parse(subscripts, (len(a_shape), len(b_shape)), internal=internal or bool(extra))
    layout = build(expr, (a_shape, b_shape), (a_strides, b_strides), out_strides, dict(extra))
    plan = None
    if not (layout.empty or layout.zero_sum):
        plan_key = (device, layout.a, layout.b, layout.d, ab.code, cd.code, ops, compute, measure, algo)
        plan = _ctx.contraction_plans.get(plan_key, lambda k: CContractionPlan(
            _ctx.handle(device), device, layout, ab.code, cd.code, ops, compute, measure, algo))
    spans = (byte_span(layout.a, ab.itemsize), byte_span(layout.b, ab.itemsize), byte_span(layout.d, cd.itemsize))
    return Resolved(key, layout, plan, ab, cd, device, spans)


_scalar_cache: Dict[tuple, tuple] = {}


def scalars(cd: _dtypes.DType, alpha: Any, beta: Any) -> Tuple[int, int]:
    """Addresses of alpha and beta packed as the C API takes them for output type cd (cached)."""
    key = (cd.name, type(alpha), alpha, type(beta), beta)
    hit = _scalar_cache.get(key)
    if hit is None:
        import ctypes
        a, b = cd.pack_scalar(alpha, "alpha"), cd.pack_scalar(beta, "beta")
        if len(_scalar_cache) > 256:
            _scalar_cache.clear()
        hit = _scalar_cache[key] = (a, b, ctypes.addressof(a), ctypes.addressof(b))
    return hit[2], hit[3]


def _device_of(view: Any, what: str) -> int:
    if view.device is None:
        view.device = _cudart.pointer_device(view.ptr, what)
    return view.device


def contract(subscripts: str, a: Any, b: Any, *, out: Any = None, alpha: Any = 1, beta: Any = 0,
             compute: int = 0, stream: Any = None, ops: Tuple[_ops.Operator, ...] = NO_OPS,
             workspace: str = "framework", extra: Extra = (), internal: bool = False,
             expect: Optional[Resolved] = None) -> Any:
    """out = opD(alpha * einsum(subscripts, opA(a), opB(b)) + beta * opC(out)) on a's device and stream.

    expect: a ContractionPlan's entry; the call must resolve to the same one.
    """
    aa, ba = _frameworks.adapter_of(a), _frameworks.adapter_of(b)
    a0, b0 = a, b
    a, b = aa.prepare(a, "a"), ba.prepare(b, "b")
    device = aa.device(a, "a")
    ba.device(b, "b")
    s = _frameworks.stream_handle(stream) if stream is not None else aa.current_stream(a, device)
    av, a_producer = aa.view(a, s, "a")
    bv, b_producer = ba.view(b, s, "b")
    if device is None:
        device = _device_of(av, "a") if av.ptr else _cudart.get_device()
    av.device = device if av.device is None else av.device
    if av.dtype != bv.dtype:
        raise TypeError("a has dtype %s but b has dtype %s: cuperm does not convert types"
                        % (av.dtype.name, bv.dtype.name))

    out_view = out_producer = oa = None
    if out is not None:
        oa = _frameworks.adapter_of(out)
        out = oa.prepare(out, "out")
        oa.device(out, "out")
        out_view, out_producer = oa.view(out, s, "out")
        if out_view.readonly:
            raise ValueError("out is read-only")
    elif beta != 0:
        raise ValueError("beta=%r reads the output, so it needs out=" % (beta,))
    cd = out_view.dtype if out_view is not None else av.dtype
    args = (subscripts, av.shape, av.strides, bv.shape, bv.strides, av.dtype, cd,
            out_view.strides if out_view is not None else None, ops, compute, device, extra, internal)
    if expect is None:
        res = resolve(*args)
    else:
        res = expect
        if key_of(*args, measure=expect.key[-2], algo=expect.key[-1]) != expect.key:
            raise ValueError("the arrays do not match the plan: it was made for a of shape %s strides %s, b of "
                             "shape %s strides %s, dtype %s, out strides %s, device %d; got %s"
                             % (expect.key[1], expect.key[2], expect.key[3], expect.key[4], expect.key[5].name,
                                expect.key[7], expect.device, args[1:8] + (device,)))
    layout = res.layout
    if out_view is None:
        if aa is _frameworks.GENERIC:
            raise TypeError("cuperm cannot allocate an output like %s; pass out=" % type(a).__qualname__)
        target, finish = aa.allocate(a, layout.out_shape, cd, device)
        oa = _frameworks.adapter_of(target)
        out_view, out_producer = oa.view(target, s, "out")
    else:
        target, finish = out, None
        if out_view.shape != layout.out_shape:
            raise ValueError("out has shape %s but the result has shape %s" % (out_view.shape, layout.out_shape))
    if layout.empty:
        return _finish(target, finish)
    if layout.zero_sum:
        if beta == 0:
            oa.zero(target)
        else:
            oa.scale(target, beta)
        return _finish(target, finish)
    if layout.zero_fill:
        oa.zero(target)

    views = (av, bv, out_view)
    for v, what in zip(views[1:], ("b", "out")):
        if _device_of(v, what) != device:
            raise ValueError("a is on device %d but %s is on device %d" % (device, what, v.device))
    (o_lo, o_hi) = res.spans[2]
    for v, (lo, hi), what in ((av, res.spans[0], "a"), (bv, res.spans[1], "b")):
        if v.ptr + lo < out_view.ptr + o_hi and out_view.ptr + o_lo < v.ptr + hi:
            raise ValueError("out overlaps %s in memory: cuperm contracts out of place" % what)
    for producer in (a_producer, b_producer, out_producer):
        if producer is not None and not _cudart.same_stream(producer, s):
            _cudart.order_after(producer, s, device)
    keep, ws = (None, 0)
    nbytes = res.plan.workspace_bytes
    if nbytes and workspace == "framework":
        keep, ws = aa.workspace(a, nbytes, device, s if stream is None else None)
    alpha_p, beta_p = scalars(cd, alpha, beta)
    _run(res, alpha_p, av.ptr, bv.ptr, beta_p, out_view.ptr, ws, nbytes if ws else 0, s)
    del keep  # uncached: the allocator reuses it only after the work queued on s (stream-ordered frameworks)
    if (stream is None and workspace == "framework" and aa is _frameworks.TORCH and ba is _frameworks.TORCH
            and ops == NO_OPS and not layout.zero_fill and not extra and expect is None):
        if out is None:
            _fast.remember_einsum(subscripts, a0, b0, alpha, compute, internal, res)
        elif oa is _frameworks.TORCH:
            _fast.remember_einsum_into(subscripts, a0, b0, out, alpha, beta, compute, internal, res)
    return _finish(target, finish)


def _finish(target: Any, finish: Any) -> Any:
    return target if finish is None else finish(target)


def _run(res: Resolved, alpha: int, a: int, b: int, beta: int, d: int, ws: int, nbytes: int, stream: int) -> None:
    previous = _cudart.get_device()
    if previous == res.device:
        res.plan.contract(alpha, a, b, beta, d, d, ws, nbytes, stream)
        return
    _cudart.set_device(res.device)
    try:
        res.plan.contract(alpha, a, b, beta, d, d, ws, nbytes, stream)
    finally:
        _cudart.set_device(previous)
