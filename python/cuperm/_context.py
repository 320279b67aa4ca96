"""C handles (one per device) and C plans, with the plan cache behind cuperm.transpose.

A Context is the only mutable state of the package: the default one lives as
long as the process (its handles are never destroyed: plans may outlive any
scope, and the C library frees nothing the process exit would not).
"""

import collections
import ctypes
import os
import sys
import threading
import warnings

from . import _cudart, _layout, _lib


def _c_array(ctype, values):
    return (ctype * len(values))(*values)


class CPlan:
    """One cupermPlan_t for a column-major Problem on one device; destroyed when collected."""

    __slots__ = ("ptr", "device", "problem", "dtype", "__weakref__")

    def __init__(self, handle, device, problem, dtype, measure=None):
        """measure: None, or (in_ptr, out_ptr, stream) to time candidates on those buffers."""
        lib = _lib.load()
        rank = len(problem.extents)
        extents = _c_array(ctypes.c_int64, problem.extents)
        perm = _c_array(ctypes.c_int, problem.perm)
        in_strides = _c_array(ctypes.c_int64, problem.in_strides)
        out_strides = _c_array(ctypes.c_int64, problem.out_strides)
        plan = ctypes.c_void_p()
        self.ptr = None
        with _cudart.on_device(device):
            if measure is None:
                status = lib.cupermPlanTranspose(handle, ctypes.byref(plan), rank, extents, perm, dtype.code,
                                                 in_strides, out_strides)
            else:
                in_ptr, out_ptr, stream = measure
                status = lib.cupermPlanTransposeMeasure(
                    handle, ctypes.byref(plan), rank, extents, perm, dtype.code, in_strides, out_strides,
                    ctypes.c_void_p(in_ptr), ctypes.c_void_p(out_ptr), ctypes.c_void_p(stream))
            _lib.check(status)
        self.ptr = plan.value
        self.device = device
        self.problem = problem
        self.dtype = dtype

    def execute(self, alpha, in_ptr, beta, out_ptr, stream):
        """Enqueues out = alpha * perm(in) + beta * out on stream; alpha, beta are packed ctypes scalars."""
        run = _lib.load().cupermExecute
        args = (self.ptr, ctypes.addressof(alpha), in_ptr, ctypes.addressof(beta), out_ptr, stream)
        previous = _cudart.get_device()  # the hot path: no context manager, one call when already there
        if previous == self.device:
            _lib.check(run(*args))
            return
        _cudart.set_device(self.device)
        try:
            _lib.check(run(*args))
        finally:
            _cudart.set_device(previous)

    def info(self):
        raw = _lib.PlanInfo()
        _lib.check(_lib.load().cupermPlanGetInfo(self.ptr, ctypes.byref(raw)))
        return {"kernel": raw.kernelName.decode() if raw.kernelName else str(raw.kernel),
                "fused_rank": raw.fusedRank, "volume": raw.volume, "tile_a": raw.tileA, "tile_b": raw.tileB,
                "threads_per_block": raw.threadsPerBlock, "blocks": raw.blocks,
                "predicted_seconds": raw.predictedSeconds, "measured": bool(raw.measured)}

    def __del__(self):
        # At interpreter exit the library may be half torn down: the process frees everything anyway.
        if self.ptr is None or sys is None or sys.is_finalizing():
            return
        try:
            _lib.load().cupermPlanDestroy(self.ptr)
        except Exception:
            pass
        self.ptr = None


class LRU:
    """A bounded, thread-safe least-recently-used map; make(key) fills a miss (outside the lock)."""

    def __init__(self, size):
        self.size = size
        self._lock = threading.Lock()
        self._items = collections.OrderedDict()

    def get(self, key, make):
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                return found
        found = make(key)
        with self._lock:
            self._items[key] = found
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return found

    def __len__(self):
        return len(self._items)

    def clear(self):
        with self._lock:
            self._items.clear()


# A checked layout: the column-major problem (None when empty) and the byte spans of x and out.
Layout = collections.namedtuple("Layout", "problem x_span out_span empty")


class Context:
    """Handles per device, a bounded LRU cache of plans keyed by (device, dtype, problem), and of
    checked layouts, so that a repeated call re-derives nothing."""

    def __init__(self, max_plans=256, max_layouts=1024):
        self.max_plans = max_plans
        self.max_layouts = max_layouts
        self._lock = threading.Lock()
        self._handles = {}
        self._plans = collections.OrderedDict()
        self._layouts = collections.OrderedDict()
        # Contractions: C plans by (device, layout, types, operators, compute), and the einsum calls
        # resolved down to one of them (see _contract), by the calls' full descriptions.
        self.contraction_plans = LRU(max_plans)
        self.contractions = LRU(max_layouts)

    def layout(self, shape, x_strides, axes, out_strides, itemsize):
        """The checked Layout of out = x.transpose(axes); ValueError for strides cuperm cannot take."""
        key = (shape, x_strides, axes, out_strides, itemsize)
        with self._lock:
            found = self._layouts.get(key)
            if found is not None:
                self._layouts.move_to_end(key)
                return found
        out_shape = _layout.permuted_shape(shape, axes)
        _layout.check_strides(shape, x_strides, "x", output=False)
        _layout.check_strides(out_shape, out_strides, "out", output=True)
        empty = _layout.volume(shape) == 0
        found = Layout(None if empty else _layout.to_cuperm(shape, x_strides, axes, out_strides),
                       _layout.byte_span(shape, x_strides, itemsize),
                       _layout.byte_span(out_shape, out_strides, itemsize), empty)
        with self._lock:
            self._layouts[key] = found
            while len(self._layouts) > self.max_layouts:
                self._layouts.popitem(last=False)
        return found

    def handle(self, device):
        with self._lock:
            return self._handle_locked(device)

    def _handle_locked(self, device):
        h = self._handles.get(device)
        if h is None:
            raw = ctypes.c_void_p()
            with _cudart.on_device(device):
                _lib.check(_lib.load().cupermCreate(ctypes.byref(raw)))
            h = self._handles[device] = raw.value
        return h

    def plan(self, device, problem, dtype):
        """A cached CPlan for the problem, planned on first use."""
        key = (device, dtype.code, problem)
        with self._lock:
            plan = self._plans.get(key)
            if plan is not None:
                self._plans.move_to_end(key)
                return plan
            plan = CPlan(self._handle_locked(device), device, problem, dtype)
            self._plans[key] = plan
            while len(self._plans) > self.max_plans:
                # Dropping the reference is enough: a thread still executing it holds its own.
                self._plans.popitem(last=False)
            return plan

    def save_plan_cache(self, path, device):
        """Writes the measured decisions of the device's handle to path; returns how many."""
        n = ctypes.c_int(0)
        with self._lock:
            h = self._handle_locked(device)
        _lib.check(_lib.load().cupermHandleWritePlanCache(h, os.fsencode(path), ctypes.byref(n)))
        return n.value

    def load_plan_cache(self, path, device):
        """Adds the decisions of path to the device's handle; returns how many (0 and a warning
        for a file of another build or device, or a damaged one)."""
        n = ctypes.c_int(0)
        with self._lock:
            h = self._handle_locked(device)
        lib = _lib.load()
        _lib.check(lib.cupermHandleReadPlanCache(h, os.fsencode(path), ctypes.byref(n)))
        if n.value == 0:
            why = (lib.cupermGetLastErrorMessage() or b"").decode(errors="replace")
            if "ignored" in why:
                warnings.warn("cuperm: " + why, RuntimeWarning, stacklevel=3)
        return n.value

    def cached_plans(self):
        with self._lock:
            return len(self._plans) + len(self.contraction_plans)

    def clear(self):
        with self._lock:
            self._plans.clear()
            self._layouts.clear()
        self.contraction_plans.clear()
        self.contractions.clear()


default = Context()
