"""cuperm: fast tensor transposes and contractions on NVIDIA GPUs, for any CUDA array.

    import torch, cuperm
    x = torch.randn(64, 32, 128, device="cuda")
    y = cuperm.transpose(x, (2, 0, 1))          # == x.permute(2, 0, 1).contiguous()

Works with PyTorch, CuPy, JAX and Numba arrays (DLPack or
__cuda_array_interface__), strided views included, on the array's device
and current stream. cuperm.Plan gives explicit reuse; transpose() caches plans.

    z = cuperm.einsum("abc,cd->abd", x, w)     # == torch.einsum, by cuperm's contractions
    plan = cuperm.ContractionPlan("abc,cd->abd", x, w); z = plan(x, w)

cuperm.einsum, tensordot and transpose make the module an opt_einsum backend
(opt_einsum.contract(..., backend="cuperm")). PyTorch tensors that need
gradients, and code under torch.compile, go through the custom ops
cuperm::transpose and cuperm::einsum.
"""

import sys as _sys

from . import _fast
from ._context import default as _default_context
from ._dtypes import DType, normalize as dtype
from ._lib import CupermError, InvalidValueError, LibraryNotFoundError, NotSupportedError, library_path
from ._lib import version as library_version
from ._contraction_plan import ContractionPlan, TensorSpec
from ._einsum import einsum, tensordot
from ._plan import Plan
from ._transpose import transpose

__version__ = "0.1.0"

__all__ = ["transpose", "Plan", "einsum", "tensordot", "ContractionPlan", "TensorSpec", "CupermError", "InvalidValueError", "NotSupportedError",
           "LibraryNotFoundError", "DType", "dtype", "clear_cache", "cached_plans", "clear_workspace_cache",
           "library_path", "library_version", "save_plan_cache", "load_plan_cache"]


def clear_cache() -> None:
    """Drops every plan cached by transpose() and einsum()."""
    _default_context.clear()
    _fast.clear()


def clear_workspace_cache() -> None:
    """Gives back the contraction workspaces kept for PyTorch streams (one per device and stream; see
    docs/python.md), as torch._C._cuda_clearCublasWorkspaces() does PyTorch's own. The next contraction
    on a stream makes its workspace again."""
    _fast.clear_workspaces()


def save_plan_cache(path, device=None) -> int:
    """Writes the measured planning decisions of cuperm's handle for device (default: the current
    CUDA device) to path: transposes planned by Plan.for_arrays(..., measure=True) and contractions by
    ContractionPlan(..., measure=True) (cupermHandleWritePlanCache). Returns how many."""
    from . import _cudart
    return _default_context.save_plan_cache(path, _cudart.get_device() if device is None else device)


def load_plan_cache(path, device=None) -> int:
    """Adds decisions saved by save_plan_cache (in this process or another) to cuperm's handle for
    device: measuring those problems again returns the stored choice at once
    (cupermHandleReadPlanCache). Returns how many; a file written by another cuperm build or for
    another kind of device, or a damaged one, is ignored with a RuntimeWarning (0)."""
    from . import _cudart
    return _default_context.load_plan_cache(path, _cudart.get_device() if device is None else device)


def cached_plans() -> int:
    """How many plans transpose() and einsum() hold in their caches."""
    return _default_context.cached_plans()


if "torch" in _sys.modules:  # register the custom ops now, outside any torch.compile trace
    try:
        from . import _torch_ops  # noqa: F401
    except Exception:  # a PyTorch without torch.library.custom_op: einsum without autograd still works
        pass
