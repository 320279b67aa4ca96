"""PyTorch custom ops: cuperm::transpose and cuperm::einsum, with fake (meta) kernels for
torch.compile and autograd formulas. Imported only once a torch tensor is seen (torch is then
loaded already), so `import cuperm` never needs PyTorch.

    cuperm::transpose(Tensor x, int[] axes, float alpha) -> Tensor
    cuperm::einsum(Tensor a, Tensor b, str subscripts, float alpha, str compute, int[] sizes) -> Tensor

`sizes` lists [label, size, ...] for output labels in no operand: only the backward passes use
it (see _gradients), with subscripts that may repeat output labels.
"""

# No `from __future__ import annotations` here: torch.library.custom_op reads the signatures' types.
from typing import Any, List, Mapping, Optional, Sequence

import torch

from . import _contract, _fast, _gradients, _ops, _transpose
from ._einsum_parse import output_shape, parse

Tensor = torch.Tensor


def _extra(sizes: Sequence[int]) -> tuple:
    return tuple(zip((int(x) for x in sizes[::2]), (int(x) for x in sizes[1::2])))


@torch.library.custom_op("cuperm::transpose", mutates_args=())
def transpose_op(x: Tensor, axes: List[int], alpha: float) -> Tensor:
    return _transpose.transpose(x.detach(), tuple(axes), alpha=alpha)


@transpose_op.register_fake
def _transpose_fake(x: Tensor, axes: List[int], alpha: float) -> Tensor:
    return x.new_empty([x.shape[a] for a in axes])


def _transpose_setup(ctx: Any, inputs: tuple, output: Tensor) -> None:
    _, axes, alpha = inputs
    ctx.axes, ctx.alpha = list(axes), alpha


def _transpose_backward(ctx: Any, grad: Tensor) -> tuple:
    inverse = [0] * len(ctx.axes)
    for i, a in enumerate(ctx.axes):
        inverse[a] = i
    return transpose_op(grad, inverse, ctx.alpha), None, None


transpose_op.register_autograd(_transpose_backward, setup_context=_transpose_setup)


@torch.library.custom_op("cuperm::einsum", mutates_args=())
def einsum_op(a: Tensor, b: Tensor, subscripts: str, alpha: float, compute: str, sizes: List[int]) -> Tensor:
    code = _ops.compute_type(compute)
    if not sizes and type(a) is _fast.tensor_type:
        hit = _fast.einsum(subscripts, a, b, alpha, code, internal=True)
        if hit is not None:
            return hit
    return _contract.contract(subscripts, a.detach(), b.detach(), alpha=alpha, compute=code, extra=_extra(sizes),
                              internal=True)


@einsum_op.register_fake
def _einsum_fake(a: Tensor, b: Tensor, subscripts: str, alpha: float, compute: str, sizes: List[int]) -> Tensor:
    extra = _extra(sizes)
    expr = parse(subscripts, (a.dim(), b.dim()), internal=True)
    return a.new_empty(output_shape(expr, (a.shape, b.shape), dict(extra)))


def _einsum_setup(ctx: Any, inputs: tuple, output: Tensor) -> None:
    a, b, subscripts, alpha, compute, sizes = inputs
    ctx.save_for_backward(a, b)
    ctx.subscripts, ctx.alpha, ctx.compute, ctx.sizes = subscripts, alpha, compute, list(sizes)


def _einsum_backward(ctx: Any, grad: Tensor) -> tuple:
    a, b = ctx.saved_tensors
    eqs = _gradients.equations(ctx.subscripts, tuple(a.shape), tuple(b.shape), ctx.sizes)
    ga = gb = None
    if ctx.needs_input_grad[0]:
        ga = einsum_op(grad, b.conj(), eqs.eq_a, ctx.alpha, ctx.compute, eqs.sizes_a)
    if ctx.needs_input_grad[1]:
        gb = einsum_op(grad, a.conj(), eqs.eq_b, ctx.alpha, ctx.compute, eqs.sizes_b)
    return ga, gb, None, None, None, None


einsum_op.register_autograd(_einsum_backward, setup_context=_einsum_setup)


def wants_op(arrays: Sequence[Any]) -> bool:
    """Whether a call on these tensors must go through the custom ops: under torch.compile, or when
    autograd records it."""
    if torch.compiler.is_compiling():
        return True
    return torch.is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in arrays)


def _refuse(what: str) -> None:
    raise NotImplementedError("cuperm: %s is not supported with autograd or torch.compile (the custom op "
                              "computes alpha * einsum(a, b) into a new tensor); call it under "
                              "torch.no_grad(), or apply it with torch operations on the result" % what)


def _alpha(alpha: Any) -> float:
    if isinstance(alpha, complex) and alpha.imag != 0:
        _refuse("a complex alpha")
    return float(alpha.real if isinstance(alpha, complex) else alpha)


def transpose(x: Tensor, axes: Sequence[int], alpha: Any, beta: Any, out: Any, stream: Any) -> Tensor:
    if out is not None or beta != 0 or stream is not None:
        _refuse("transpose with out=, beta or stream=")
    return transpose_op(x, list(axes), _alpha(alpha))


def einsum(subscripts: str, operands: Sequence[Any], *, out: Any, alpha: Any, beta: Any, compute: Any,
           stream: Any, ops: Optional[Mapping[str, Any]], op_a: Any, op_b: Any, op_c: Any, op_d: Any) -> Tensor:
    if out is not None or beta != 0 or stream is not None:
        _refuse("einsum with out=, beta or stream=")
    if ops or op_a is not None or op_b is not None or op_c is not None or op_d is not None:
        _refuse("an elementwise operator (ops=, op_a=...): its backward")
    name = compute if isinstance(compute, str) else _ops.compute_name(_ops.compute_type(compute))
    a = _alpha(alpha)
    if len(operands) == 2:
        return einsum_op(operands[0], operands[1], subscripts, a, name, [])
    if len(operands) == 1:
        from ._einsum import single_as_pair
        x = operands[0]
        one = torch.ones((), dtype=x.dtype, device=x.device)
        return einsum_op(x, one, single_as_pair(subscripts), a, name, [])
    from ._einsum import multi
    return multi(subscripts, operands, None, alpha, 0, _ops.compute_type(compute), None, "framework", "auto")
