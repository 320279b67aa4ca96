"""cuperm.ContractionPlan: a two-operand einsum planned once, executed many times."""

from __future__ import annotations

from typing import Any, Dict, Mapping, NamedTuple, Optional, Sequence, Union

from . import _contract, _cudart, _dtypes, _fast, _frameworks, _ops
from . import _contraction_cplan as _cplan
from ._contraction_layout import contiguous_strides


class TensorSpec(NamedTuple):
    """An operand described without data: shape and strides (in elements) as NumPy/PyTorch spell
    them (row-major), strides None for C-contiguous."""
    shape: Sequence[int]
    dtype: Any = "float32"
    strides: Optional[Sequence[int]] = None


def _describe(x: Any, what: str) -> tuple:
    """(shape, strides, DType, device or None) of an array or a TensorSpec."""
    if isinstance(x, TensorSpec):
        shape = tuple(int(s) for s in x.shape)
        strides = contiguous_strides(shape) if x.strides is None else tuple(int(s) for s in x.strides)
        if len(strides) != len(shape):
            raise ValueError("%s: %d strides for %d dimensions" % (what, len(strides), len(shape)))
        return shape, strides, _dtypes.normalize(x.dtype), None
    adapter = _frameworks.adapter_of(x)
    x = adapter.prepare(x, what)
    device = adapter.device(x, what)
    view, _ = adapter.view(x, 0, what)
    if device is None:
        device = _cudart.pointer_device(view.ptr, what) if view.ptr else None
    return view.shape, view.strides, view.dtype, device


class ContractionPlan:
    """out = opD(alpha * einsum(subscripts, opA(a), opB(b)) + beta * opC(out)) for one description.

        plan = cuperm.ContractionPlan("abc,cd->abd", a, b)            # example arrays, or
        plan = cuperm.ContractionPlan("abc,cd->abd", cuperm.TensorSpec((8, 16, 32), "float16"),
                                      cuperm.TensorSpec((32, 64), "float16"), out=..., compute="32f")
        d = plan(a, b)                          # any arrays of exactly that description
        plan(a, b, out=d, alpha=2, beta=1)      # needs out= described at planning (its strides)

    out: None (a new C-contiguous result), an example array, or a TensorSpec (e.g. for a float32
    result of float16 operands). measure=True times the model's best layouts on the device once.
    algo: None/'default' (the library chooses), 'ttgt' (transposes and cuBLAS only) or 'gett' (the GETT
    kernel: float16/bfloat16 without operators other than negate; cuperm.NotSupportedError otherwise).
    """

    def __init__(self, subscripts: str, a: Any, b: Any, *, out: Any = None, compute: Union[None, str, int] = None,
                 ops: Optional[Mapping[str, _ops.OperatorSpec]] = None, op_a: _ops.OperatorSpec = None,
                 op_b: _ops.OperatorSpec = None, op_c: _ops.OperatorSpec = None, op_d: _ops.OperatorSpec = None,
                 device: Optional[int] = None, measure: bool = False, algo: Optional[str] = None) -> None:
        algo_code = _cplan.algo_code(algo)
        a_shape, a_strides, ab, a_dev = _describe(a, "a")
        b_shape, b_strides, b_type, _ = _describe(b, "b")
        if b_type != ab:
            raise TypeError("a has dtype %s but b has dtype %s" % (ab.name, b_type.name))
        cd, out_strides = ab, None
        if out is not None:
            _, out_strides, cd, _ = _describe(out, "out")
        if device is None:
            device = a_dev if a_dev is not None else _cudart.get_device()
        self.subscripts = subscripts
        self.ops = _ops.operators(ops, op_a=op_a, op_b=op_b, op_c=op_c, op_d=op_d)
        self.compute = _ops.compute_type(compute)
        self.has_out = out is not None
        self._fast_calls: Dict[tuple, tuple] = {}  # see _fast: repeated calls on torch tensors
        self._res = _contract.resolve(subscripts, a_shape, a_strides, b_shape, b_strides, ab, cd, out_strides,
                                      self.ops, self.compute, int(device), measure=measure, algo=algo_code)

    @property
    def out_shape(self) -> tuple:
        return self._res.layout.out_shape

    @property
    def workspace_bytes(self) -> int:
        return self._res.plan.workspace_bytes if self._res.plan is not None else 0

    @property
    def info(self) -> Dict[str, Any]:
        """What the C library chose (GEMM shape, transposes, predicted times, description)."""
        return self._res.plan.info() if self._res.plan is not None else {"description": "nothing to run"}

    def __call__(self, a: Any, b: Any, out: Any = None, *, alpha: Any = 1, beta: Any = 0, stream: Any = None,
                 workspace: str = "framework") -> Any:
        if (out is None) == self.has_out:
            raise ValueError("the plan was made %s out=; call it %s" % (("with", "with out=") if self.has_out
                                                                         else ("without", "without out=")))
        simple = stream is None and workspace == "framework" and (out is not None or beta == 0)
        if simple and type(a) is _fast.tensor_type:
            hit = (_fast.einsum(self.subscripts, a, b, alpha, self.compute, table=self._fast_calls) if out is None
                   else _fast.einsum_into(self.subscripts, a, b, out, alpha, beta, self.compute,
                                          table=self._fast_calls))
            if hit is not None:
                return hit
        result = _contract.contract(self.subscripts, a, b, out=out, alpha=alpha, beta=beta, compute=self.compute,
                                    stream=stream, ops=self.ops, workspace=workspace, expect=self._res)
        if simple and _frameworks.name_of(a) == "torch":  # replayed next time (this plan's own C plan)
            if out is None:
                _fast.remember_einsum(self.subscripts, a, b, alpha, self.compute, False, self._res,
                                      table=self._fast_calls)
            else:
                _fast.remember_einsum_into(self.subscripts, a, b, out, alpha, beta, self.compute, False, self._res,
                                           table=self._fast_calls)
        return result

    execute = __call__

    def __repr__(self) -> str:
        return "cuperm.ContractionPlan(%r, out_shape=%s, device=%d)" % (self.subscripts, self.out_shape,
                                                                        self._res.device)
