"""cuperm.einsum and cuperm.tensordot: NumPy's semantics, computed by cuperm's contractions.

One operand: a permutation is a transpose; diagonals and sums are a contraction
with a one-element array of ones (broadcast along every summed label).
Two operands: one contraction (see _contract, _contraction_layout).
More: opt_einsum's path optimiser picks the pairwise order, each pair is one
contraction. PyTorch tensors that need autograd, or code under torch.compile,
go through the `cuperm::einsum` custom op (_torch_ops).
"""

from __future__ import annotations

import operator as _operator
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

from . import _contract, _fast, _frameworks, _ops, _transpose
from ._einsum_parse import canonical, parse

Axes = Union[int, Tuple[Sequence[int], Sequence[int]]]


def einsum(subscripts: str, *operands: Any, out: Any = None, alpha: Any = 1, beta: Any = 0,
           compute: Union[None, str, int] = None, stream: Any = None,
           ops: Optional[Mapping[str, _ops.OperatorSpec]] = None, op_a: _ops.OperatorSpec = None,
           op_b: _ops.OperatorSpec = None, op_c: _ops.OperatorSpec = None, op_d: _ops.OperatorSpec = None,
           workspace: str = "framework", optimize: Any = "auto") -> Any:
    """out = opD(alpha * einsum(subscripts, opA(a), opB(b)) + beta * opC(out)), on the operands' device.

    subscripts: NumPy's grammar ("ij,jk->ik", implicit "ij,jk", ellipsis "...ij,...jk",
        repeated input labels for diagonals "ii->i").
    out: optional output array; with beta != 0 it is read as C (C and D are one array).
    alpha, beta: scalars (float for float16/bfloat16/float32 results, complex for complex ones).
    compute: None/'default', '32f', '16f', '64f', 'tf32', 'fast_16f', 'fast_16bf' (cupermComputeType_t).
    ops / op_a..op_d: elementwise operators on A, B, C and the result: 'relu', 'abs', 'negate',
        'sigmoid', 'tanh', 'exp', 'sqrt', 'conj', ('leaky_relu', slope), ('elu', alpha).
    stream: a stream object or cudaStream_t; by default the framework's current stream.
    workspace: 'framework' takes scratch memory from PyTorch's/CuPy's allocator, 'cuperm' lets the
        library take it stream-ordered from the memory pool its handle keeps on the device.
    optimize: opt_einsum's path strategy for three operands or more.
    """
    if not operands:
        raise ValueError("einsum needs at least one operand")
    if (type(operands[0]) is _fast.tensor_type and len(operands) == 2 and stream is None
            and (out is not None or beta == 0) and ops is None and op_a is None and op_b is None and op_c is None
            and op_d is None and workspace == "framework"):
        a, b = operands  # a repeated call (see _fast)
        hit = (_fast.einsum(subscripts, a, b, alpha, compute) if out is None
               else _fast.einsum_into(subscripts, a, b, out, alpha, beta, compute))
        if hit is not None:
            return hit
    if workspace not in ("framework", "cuperm"):
        raise ValueError("workspace must be 'framework' or 'cuperm', got %r" % (workspace,))
    if _frameworks.name_of(operands[0]) == "torch":
        from . import _torch_ops
        if _torch_ops.wants_op(operands):
            return _torch_ops.einsum(subscripts, operands, out=out, alpha=alpha, beta=beta, compute=compute,
                                     stream=stream, ops=ops, op_a=op_a, op_b=op_b, op_c=op_c, op_d=op_d)
    opset = _ops.operators(ops, op_a=op_a, op_b=op_b, op_c=op_c, op_d=op_d)
    code = _ops.compute_type(compute)
    if len(operands) == 2:
        a, b = operands
        return _contract.contract(subscripts, a, b, out=out, alpha=alpha, beta=beta, compute=code, stream=stream,
                                  ops=opset, workspace=workspace)
    if opset != _contract.NO_OPS:
        raise ValueError("operators (ops=, op_a=...) apply to one- or two-operand einsums only")
    if len(operands) == 1:
        return _single(subscripts, operands[0], out, alpha, beta, code, stream, workspace)
    return multi(subscripts, operands, out, alpha, beta, code, stream, workspace, optimize)


def single_as_pair(subscripts: str) -> str:
    """'X->Y' as the two-operand 'X,->Y' (the second operand: a scalar one)."""
    s = subscripts.replace(" ", "")
    if "->" in s:
        lhs, rhs = s.split("->", 1)
        return lhs + ",->" + rhs
    return s + ","


def _single(subscripts: str, x: Any, out: Any, alpha: Any, beta: Any, code: int, stream: Any,
            workspace: str) -> Any:
    ndim = len(x.shape)
    expr = parse(subscripts, (ndim,))
    (labels,) = expr.inputs
    if len(set(labels)) == len(labels) and sorted(labels) == sorted(expr.output):
        axes = tuple(labels.index(label) for label in expr.output)
        return _transpose.transpose(x, axes, alpha=alpha, beta=beta, out=out, stream=stream)
    equation, _ = canonical(expr)
    return _contract.contract(single_as_pair(equation), x, ones_like(x), out=out, alpha=alpha, beta=beta,
                              compute=code, stream=stream, workspace=workspace)


_ones: Dict[tuple, Any] = {}


def ones_like(x: Any) -> Any:
    """A cached one-element array holding 1 of x's kind, dtype and device (the partner of reductions)."""
    adapter = _frameworks.adapter_of(x)
    device = adapter.device(x, "x")
    key = (type(x), str(getattr(x, "dtype", None)), device)
    one = _ones.get(key)
    if one is None:
        if _frameworks.name_of(x) == "torch":
            import sys
            one = sys.modules["torch"].ones((), dtype=x.dtype, device=x.device)
        else:
            dtype = _frameworks.adapter_of(x).view(x, 0, "x")[0].dtype
            one, finish = adapter.allocate(x, (), dtype, device)
            one[...] = 1
            one = one if finish is None else finish(one)
        _ones[key] = one
    return one


def multi(subscripts: str, operands: Sequence[Any], out: Any, alpha: Any, beta: Any, code: int, stream: Any,
           workspace: str, optimize: Any) -> Any:
    try:
        import opt_einsum
    except ImportError:
        raise ImportError("einsum with more than two operands needs opt_einsum (pip install opt_einsum) for "
                          "its contraction order") from None
    shapes = [tuple(op.shape) for op in operands]
    _, steps = opt_einsum.contract_path(subscripts, *shapes, shapes=True, optimize=optimize, einsum_call=True)
    pending = list(operands)
    for number, step in enumerate(steps):
        indices, equation = step[0], step[2]
        args = [pending.pop(i) for i in indices]
        last = number == len(steps) - 1
        kwargs = dict(out=out, alpha=alpha, beta=beta) if last else {}
        pending.append(einsum(equation, *args, compute=code, stream=stream, workspace=workspace, **kwargs))
    return pending[0]


def tensordot(a: Any, b: Any, axes: Axes = 2, **kwargs: Any) -> Any:
    """numpy.tensordot by cuperm; kwargs (out, alpha, beta, compute, stream, ops...) as for einsum."""
    na, nb = len(a.shape), len(b.shape)
    if isinstance(axes, int) or hasattr(axes, "__index__") and not isinstance(axes, (tuple, list)):
        n = _operator.index(axes)
        if n < 0 or n > min(na, nb):
            raise ValueError("tensordot: axes=%d is out of range for operands of %d and %d dimensions" % (n, na, nb))
        axes_a, axes_b = list(range(na - n, na)), list(range(n))
    else:
        try:
            axes_a, axes_b = ([_operator.index(x) for x in (v if isinstance(v, (list, tuple)) else [v])]
                              for v in axes)
        except (TypeError, ValueError):
            raise TypeError("tensordot: axes must be an int or a pair of sequences of ints, got %r"
                            % (axes,)) from None
        if len(axes_a) != len(axes_b):
            raise ValueError("tensordot: axes %r pair %d with %d dimensions" % (axes, len(axes_a), len(axes_b)))
    return einsum(tensordot_subscripts(na, nb, axes_a, axes_b), a, b, **kwargs)


def tensordot_subscripts(na: int, nb: int, axes_a: Sequence[int], axes_b: Sequence[int]) -> str:
    """The einsum subscripts of numpy.tensordot(a, b, (axes_a, axes_b))."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if na + nb > len(letters):
        raise ValueError("tensordot: more than %d dimensions" % len(letters))
    axes_a = [x % na if na else x for x in axes_a]
    axes_b = [x % nb if nb else x for x in axes_b]
    if len(set(axes_a)) != len(axes_a) or len(set(axes_b)) != len(axes_b):
        raise ValueError("tensordot: an axis is repeated")
    sa = list(letters[:na])
    sb = list(letters[na:na + nb])
    for i, j in zip(axes_a, axes_b):
        sb[j] = sa[i]
    out = [c for k, c in enumerate(sa) if k not in axes_a] + [c for k, c in enumerate(sb) if k not in axes_b]
    return "%s,%s->%s" % ("".join(sa), "".join(sb), "".join(out))
