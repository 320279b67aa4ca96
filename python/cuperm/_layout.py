"""From NumPy's view of a transpose to cuperm's (pure Python, no GPU needed).

NumPy: arrays are row-major (the last axis varies fastest) and
    out.shape[i] == x.shape[axes[i]],  out[j] == x[i] with i[axes[k]] == j[k].
cuperm: tensors are column-major (dimension 0 varies fastest) and
    out_extent[r] == in_extent[perm[r]].

Reading a row-major array's dimensions backwards gives the same memory as a
column-major tensor: NumPy axis a is cuperm dimension n-1-a. Output cuperm
dimension r is output NumPy axis n-1-r, which is input NumPy axis axes[n-1-r],
which is input cuperm dimension n-1-axes[n-1-r]. Hence

    perm[r] = n - 1 - axes[n - 1 - r].

Strides (in elements) travel with their dimensions, so they are reversed too.
"""

import collections
import operator

Problem = collections.namedtuple("Problem", "extents perm in_strides out_strides")
Problem.__doc__ = """A transpose in the C API's terms: column-major, strides in elements."""


def normalize_axes(axes, ndim):
    """axes as a tuple of non-negative ints, NumPy rules: None reverses, negatives count from the end."""
    if axes is None:
        return tuple(range(ndim - 1, -1, -1))
    try:
        axes = tuple(operator.index(a) for a in axes)
    except TypeError:
        raise TypeError("axes must be a sequence of integers, got %r" % (axes,)) from None
    if len(axes) != ndim:
        raise ValueError("axes %r has %d entries but the array has %d dimensions" % (axes, len(axes), ndim))
    norm = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError("axis %d in axes %r is out of range for an array of %d dimensions" % (a, axes, ndim))
        norm.append(a + ndim if a < 0 else a)
    if sorted(norm) != list(range(ndim)):
        raise ValueError("axes %r is not a permutation of 0..%d (an axis repeats)" % (axes, ndim - 1))
    return tuple(norm)


def permuted_shape(shape, axes):
    """The output shape of x.transpose(axes)."""
    return tuple(shape[a] for a in axes)


def contiguous_strides(shape):
    """Row-major (C-contiguous) strides in elements."""
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


def volume(shape):
    v = 1
    for extent in shape:
        v *= extent
    return v


def check_strides(shape, strides, what, *, output):
    """Rejects strides cuperm cannot take: negative ones, and zero ones in an output.

    Strides of extent-1 dimensions never move anything and are not checked.
    """
    for axis, (extent, stride) in enumerate(zip(shape, strides)):
        if extent == 1:
            continue
        if stride < 0:
            raise ValueError("%s has a negative stride (%d) on axis %d: cuperm needs non-negative strides; "
                             "pass a copy instead" % (what, stride, axis))
        if output and stride == 0:
            raise ValueError("%s has stride 0 on axis %d (extent %d): output elements would overlap"
                             % (what, axis, extent))


def byte_span(shape, strides, itemsize):
    """(first, last + 1) byte offsets that a strided view touches, relative to its pointer."""
    lo = hi = 0
    for extent, stride in zip(shape, strides):
        reach = (extent - 1) * stride * itemsize
        if reach < 0:
            lo += reach
        else:
            hi += reach
    return lo, hi + itemsize


def to_cuperm(shape, in_strides, axes, out_strides):
    """The column-major Problem for out = x.transpose(axes), dropping extent-1 dimensions.

    shape and in_strides describe x (row-major, element strides); out_strides
    describe out, indexed by output axis. Dropping extent-1 dimensions keeps the
    plan cache small and leaves strides the C library would otherwise check for
    nothing. A tensor of all ones becomes rank 1, extent 1.
    """
    ndim = len(shape)
    kept = [a for a in range(ndim) if shape[a] != 1]
    if not kept:
        return Problem((1,), (0,), (1,), (1,))
    renumber = {a: k for k, a in enumerate(kept)}
    kept_out = [i for i in range(ndim) if shape[axes[i]] != 1]
    axes_k = [renumber[axes[i]] for i in kept_out]
    n = len(kept)
    extents = tuple(shape[a] for a in reversed(kept))
    in_cm = tuple(in_strides[a] for a in reversed(kept))
    out_cm = tuple(out_strides[i] for i in reversed(kept_out))
    perm = tuple(n - 1 - axes_k[n - 1 - r] for r in range(n))
    return Problem(extents, perm, in_cm, out_cm)


def from_cuperm(extents, perm):
    """(shape, axes) in NumPy terms for a dense column-major transpose given cuperm's way.

    The inverse of to_cuperm for dense tensors: shape is extents reversed, and
    axes[k] = n - 1 - perm[n - 1 - k]. Used to read case lists written
    cuTT/TTC-style (column-major extents, out dim r = in dim perm[r]).
    """
    n = len(extents)
    return tuple(reversed(extents)), tuple(n - 1 - perm[n - 1 - k] for k in range(n))
