"""One cupermContractionPlan_t: planned from a ContractionLayout, executed with raw pointers."""

from __future__ import annotations

import ctypes
import sys
from typing import Any, Dict, Sequence

from . import _cudart, _lib
from ._contraction_layout import ContractionLayout, Operand
from ._ops import Operator

PLAN_MODEL, PLAN_MEASURE = 0, 1
# cupermContractionAlgo_t: which kinds of plan a contraction may get.
ALGOS = {"default": 0, "ttgt": 1, "gett": 2}


def algo_code(algo: object) -> int:
    """The cupermContractionAlgo_t of None / 'default', 'ttgt' or 'gett'."""
    name = "default" if algo is None else algo
    if name not in ALGOS:
        raise ValueError("algo must be None, 'default', 'ttgt' or 'gett', got %r" % (algo,))
    return ALGOS[name]


def _descriptor(op: Operand, type_code: int, operator: Operator, keep: list) -> _lib.TensorDescriptor:
    n = len(op.modes)
    modes = (ctypes.c_int32 * max(n, 1))(*op.modes)
    extents = (ctypes.c_int64 * max(n, 1))(*op.extents)
    strides = (ctypes.c_int64 * max(n, 1))(*op.strides)
    keep += [modes, extents, strides]
    return _lib.TensorDescriptor(n, modes, extents, strides, type_code, operator.code, operator.param)


class CContractionPlan:
    """A C contraction plan on one device; destroyed when collected."""

    __slots__ = ("ptr", "device", "workspace_bytes", "_run", "__weakref__")

    def __init__(self, handle: int, device: int, layout: ContractionLayout, type_ab: int, type_cd: int,
                 ops: Sequence[Operator], compute: int, measure: bool = False, algo: int = 0) -> None:
        lib = _lib.load()
        self.ptr = None
        keep: list = []
        a = _descriptor(layout.a, type_ab, ops[0], keep)
        b = _descriptor(layout.b, type_ab, ops[1], keep)
        c = _descriptor(layout.d, type_cd, ops[2], keep)
        d = _descriptor(layout.d, type_cd, ops[3], keep)
        plan = ctypes.c_void_p()
        with _cudart.on_device(device):
            _lib.check(lib.cupermPlanContractionAlgo(handle, ctypes.byref(plan), ctypes.byref(a), ctypes.byref(b),
                                                     ctypes.byref(c), ctypes.byref(d), compute,
                                                     PLAN_MEASURE if measure else PLAN_MODEL, algo))
        self.ptr = plan.value
        self.device = device
        size = ctypes.c_size_t()
        _lib.check(lib.cupermContractionGetWorkspaceSize(self.ptr, ctypes.byref(size)))
        self.workspace_bytes = size.value
        self._run = lib.cupermContract

    def contract(self, alpha: int, a: int, b: int, beta: int, c: int, d: int, workspace: int,
                 workspace_bytes: int, stream: int) -> None:
        """Enqueues the contraction; alpha and beta are addresses of packed host scalars.
        The plan's device must be current (the callers switch when it is not)."""
        status = self._run(self.ptr, alpha, a, b, beta, c, d, workspace, workspace_bytes, stream)
        if status:
            _lib.check(status)

    def info(self) -> Dict[str, Any]:
        raw = _lib.ContractionInfo()
        _lib.check(_lib.load().cupermContractionPlanGetInfo(self.ptr, ctypes.byref(raw)))
        out: Dict[str, Any] = {}
        for name, _ in raw._fields_:
            value = getattr(raw, name)
            out[name] = value.decode() if isinstance(value, bytes) else value
        return out

    def __del__(self) -> None:
        if self.ptr is None or sys is None or sys.is_finalizing():
            return
        try:
            _lib.load().cupermContractionPlanDestroy(self.ptr)
        except Exception:
            pass
        self.ptr = None
