"""Keyword spellings of cupermOperator_t and cupermComputeType_t, validated (pure Python)."""

from __future__ import annotations

import numbers
from typing import Any, Dict, Mapping, NamedTuple, Optional, Tuple, Union

# cupermOperator_t, include/cuperm.h
OPERATORS: Dict[str, int] = {
    "identity": 0, "negate": 1, "abs": 2, "relu": 3, "leaky_relu": 4, "elu": 5, "sigmoid": 6,
    "tanh": 7, "exp": 8, "sqrt": 9, "conj": 10,
}
_OPERATOR_ALIASES = {"none": "identity", "neg": "negate", "-": "negate", "leakyrelu": "leaky_relu",
                     "conjugate": "conj"}
COMPLEX_OPERATORS = ("identity", "negate", "conj")

# cupermComputeType_t
COMPUTE: Dict[str, int] = {"default": 0, "16f": 1, "32f": 2, "64f": 3, "tf32": 4, "fast_16f": 5, "fast_16bf": 6}
_COMPUTE_ALIASES = {
    "fp16": "16f", "f16": "16f", "float16": "16f", "half": "16f",
    "fp32": "32f", "f32": "32f", "float32": "32f", "strict": "32f",
    "fp64": "64f", "f64": "64f", "float64": "64f", "double": "64f",
    "32f_fast_tf32": "tf32", "fast_tf32": "tf32",
    "32f_fast_16f": "fast_16f", "fast_fp16": "fast_16f",
    "32f_fast_16bf": "fast_16bf", "fast_bf16": "fast_16bf", "bf16": "fast_16bf",
}

OperatorSpec = Union[None, str, Tuple[str, float]]


class Operator(NamedTuple):
    """An operator as the descriptor takes it: code and opParam."""
    name: str
    code: int
    param: float


IDENTITY = Operator("identity", 0, 0.0)


def operator(spec: OperatorSpec, what: str) -> Operator:
    """None, a name ('relu'), or (name, param) such as ('leaky_relu', 0.01)."""
    if spec is None:
        return IDENTITY
    if isinstance(spec, Operator):
        return spec
    param: Any = 0.0
    given = isinstance(spec, tuple)
    if given:
        if len(spec) != 2:
            raise ValueError("%s=%r: give an operator name or (name, param)" % (what, spec))
        spec, param = spec
    if not isinstance(spec, str):
        raise TypeError("%s must be an operator name such as 'relu', got %r" % (what, spec))
    if not isinstance(param, numbers.Real) or isinstance(param, bool):
        raise TypeError("%s: the operator parameter must be a real number, got %r" % (what, param))
    name = spec.strip().lower()
    name = _OPERATOR_ALIASES.get(name, name)
    code = OPERATORS.get(name)
    if code is None:
        raise ValueError("%s=%r is not an operator; choose from %s" % (what, spec, ", ".join(OPERATORS)))
    if param and name not in ("leaky_relu", "elu"):
        raise ValueError("%s: operator %r takes no parameter (only leaky_relu and elu do)" % (what, name))
    if name in ("leaky_relu", "elu") and not given:
        param = 0.01 if name == "leaky_relu" else 1.0  # PyTorch's defaults
    return Operator(name, code, float(param))


def operators(ops: Optional[Mapping[str, OperatorSpec]], **keywords: OperatorSpec) -> Tuple[Operator, ...]:
    """(opA, opB, opC, opD) from ops={'a': ..., 'd': ...} and/or op_a=..., op_d=... keywords."""
    merged: Dict[str, OperatorSpec] = {}
    if ops is not None:
        if not isinstance(ops, Mapping):
            raise TypeError("ops must be a dict such as {'a': 'relu', 'd': ('leaky_relu', 0.1)}")
        for key, spec in ops.items():
            k = str(key).lower()
            if k not in ("a", "b", "c", "d"):
                raise ValueError("ops key %r is not one of 'a', 'b', 'c', 'd'" % (key,))
            merged[k] = spec
    for key, spec in keywords.items():
        if spec is not None:
            k = key[-1]
            if k in merged:
                raise ValueError("operator for %s given both in ops= and as %s=" % (k.upper(), key))
            merged[k] = spec
    return tuple(operator(merged.get(k), "op_" + k) for k in "abcd")


def check_operators_for(ops: Tuple[Operator, ...], complex_type: bool) -> None:
    if complex_type:
        for k, op in zip("abcd", ops):
            if op.name not in COMPLEX_OPERATORS:
                raise ValueError("op_%s=%r is for real types; complex operands take %s"
                                 % (k, op.name, ", ".join(COMPLEX_OPERATORS)))


def compute_type(spec: Union[None, str, int]) -> int:
    """cupermComputeType_t from None/'default', '32f', 'tf32', 'fast_16f', ... or the int itself."""
    if spec is None:
        return 0
    if isinstance(spec, bool):
        raise TypeError("compute must be a name such as 'tf32', got a bool")
    if isinstance(spec, int):
        if spec not in COMPUTE.values():
            raise ValueError("compute=%d is not a cupermComputeType_t value (0..6)" % spec)
        return spec
    if not isinstance(spec, str):
        raise TypeError("compute must be a name such as 'tf32', got %r" % (spec,))
    name = spec.strip().lower().replace("-", "_")
    name = _COMPUTE_ALIASES.get(name, name)
    if name not in COMPUTE:
        raise ValueError("compute=%r is not a compute type; choose from %s"
                         % (spec, ", ".join(sorted(set(COMPUTE) | set(_COMPUTE_ALIASES)))))
    return COMPUTE[name]


def compute_name(code: int) -> str:
    for name, c in COMPUTE.items():
        if c == code:
            return name
    raise ValueError(code)
