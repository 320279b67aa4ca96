"""cuperm.Plan: a transpose planned once, for explicit reuse."""

from . import _cudart, _dtypes, _layout, _transpose
from ._context import CPlan, default as _default_context


class Plan:
    """out = alpha * x.transpose(axes) + beta * out for one shape, dtype, layout and device.

    Plan(shape, axes=None, dtype="float32", *, x_strides=None, out_strides=None, device=None)

    shape, axes: as numpy.transpose (row-major); x_strides, out_strides: in
    elements (like torch's .stride()), indexed by x's and out's axes; None
    means C-contiguous. device: CUDA ordinal, default the current one.
    Call the plan with arrays of exactly that description:
        plan(x, out=None, *, alpha=1, beta=0, stream=None) -> out
    """

    def __init__(self, shape, axes=None, dtype="float32", *, x_strides=None, out_strides=None, device=None,
                 _measure=None):
        self.shape = tuple(int(s) for s in shape)
        if any(s < 0 for s in self.shape):
            raise ValueError("shape %s has a negative extent" % (self.shape,))
        self.axes = _layout.normalize_axes(axes, len(self.shape))
        self.dtype = _dtypes.normalize(dtype)
        self.out_shape = _layout.permuted_shape(self.shape, self.axes)
        self.x_strides = self._strides(x_strides, self.shape, "x_strides")
        self.out_strides = self._strides(out_strides, self.out_shape, "out_strides")
        _layout.check_strides(self.shape, self.x_strides, "x_strides", output=False)
        _layout.check_strides(self.out_shape, self.out_strides, "out_strides", output=True)
        self.device = _cudart.get_device() if device is None else int(device)
        self._problem = _layout.to_cuperm(self.shape, self.x_strides, self.axes, self.out_strides)
        self._cplan = None
        if _layout.volume(self.shape) > 0:  # an empty transpose moves nothing and needs no C plan
            self._cplan = CPlan(_default_context.handle(self.device), self.device, self._problem, self.dtype,
                                measure=_measure)

    @staticmethod
    def _strides(strides, shape, what):
        if strides is None:
            return _layout.contiguous_strides(shape)
        strides = tuple(int(s) for s in strides)
        if len(strides) != len(shape):
            raise ValueError("%s has %d entries for %d dimensions" % (what, len(strides), len(shape)))
        return strides

    @classmethod
    def for_arrays(cls, x, out, axes=None, *, measure=False, stream=None):
        """A plan fitting x and out as they are (their strides included).

        measure=True times the candidate kernels on x and out (overwriting out)
        and keeps the fastest, synchronizing the stream; otherwise a model picks.
        """
        call = _transpose.prepare(x, axes, 1, 0, out, stream)
        measure_args = None
        if measure and not call.layout.empty:
            measure_args = (call.x.ptr, call.out.ptr, call.stream)
        return cls(call.x.shape, call.axes, call.x.dtype, x_strides=call.x.strides,
                   out_strides=call.out.strides, device=call.x.device, _measure=measure_args)

    def __call__(self, x, out=None, *, alpha=1, beta=0, stream=None):
        call = _transpose.prepare(x, self.axes, alpha, beta, out, stream)
        self._check_matches(call)
        if self._cplan is not None:
            self._cplan.execute(call.alpha, call.x.ptr, call.beta, call.out.ptr, call.stream)
        return _transpose.finish(call)

    execute = __call__

    def _check_matches(self, call):
        x, out = call.x, call.out
        if x.shape != self.shape:
            raise ValueError("x has shape %s but the plan was made for %s" % (x.shape, self.shape))
        if x.dtype != self.dtype:
            raise TypeError("x has dtype %s but the plan was made for %s" % (x.dtype.name, self.dtype.name))
        if call.layout.empty:
            return
        # Strides of extent-1 axes are irrelevant, so compare the plan's problem, not raw strides.
        if call.layout.problem != self._problem:
            raise ValueError("x strides %s / out strides %s differ from the plan's %s / %s"
                             % (x.strides, out.strides, self.x_strides, self.out_strides))
        if x.device != self.device:
            raise ValueError("x is on device %d but the plan was made for device %d" % (x.device, self.device))

    @property
    def info(self):
        """What the C library chose: kernel, tiles, launch shape, predicted time (dict)."""
        if self._cplan is None:
            return {"kernel": None, "volume": 0}
        return self._cplan.info()

    def __repr__(self):
        return "cuperm.Plan(shape=%s, axes=%s, dtype=%s, device=%d)" % (
            self.shape, self.axes, self.dtype.name, self.device)
