"""cuperm: fast tensor transposes on NVIDIA GPUs, for any CUDA array.

    import torch, cuperm
    x = torch.randn(64, 32, 128, device="cuda")
    y = cuperm.transpose(x, (2, 0, 1))          # == x.permute(2, 0, 1).contiguous()

Works with PyTorch, CuPy, JAX and Numba arrays (DLPack or
__cuda_array_interface__), strided views included, on the array's device
and current stream. cuperm.Plan gives explicit reuse; transpose() caches plans.
"""

from ._context import default as _default_context
from ._dtypes import DType, normalize as dtype
from ._lib import CupermError, InvalidValueError, LibraryNotFoundError, NotSupportedError, library_path
from ._lib import version as library_version
from ._plan import Plan
from ._transpose import transpose

__version__ = "0.1.0"

__all__ = ["transpose", "Plan", "CupermError", "InvalidValueError", "NotSupportedError",
           "LibraryNotFoundError", "DType", "dtype", "clear_cache", "cached_plans", "library_path",
           "library_version"]


def clear_cache():
    """Drops every plan cached by transpose()."""
    _default_context.clear()


def cached_plans():
    """How many plans transpose() holds in its cache."""
    return _default_context.cached_plans()
