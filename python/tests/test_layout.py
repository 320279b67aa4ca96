"""The NumPy-to-cuperm mapping, checked by running both conventions on plain Python memory."""

import itertools
import random

import pytest

from cuperm import _layout


def numpy_transpose_into(memory_in, shape, in_strides, axes, memory_out, out_strides):
    """NumPy semantics on flat memory: out[j] = x[i] where i[axes[k]] = j[k]."""
    out_shape = [shape[a] for a in axes]
    for j in itertools.product(*(range(e) for e in out_shape)):
        i = [0] * len(shape)
        for k, a in enumerate(axes):
            i[a] = j[k]
        src = sum(ii * s for ii, s in zip(i, in_strides))
        dst = sum(jj * s for jj, s in zip(j, out_strides))
        memory_out[dst] = memory_in[src]


def cuperm_contract_into(memory_in, problem, memory_out):
    """include/cuperm.h's contract: column-major, out dim r = in dim perm[r]."""
    extents, perm, in_strides, out_strides = problem
    out_extents = [extents[p] for p in perm]
    for j in itertools.product(*(range(e) for e in out_extents)):
        i = [0] * len(extents)
        for r, p in enumerate(perm):
            i[p] = j[r]
        src = sum(ii * s for ii, s in zip(i, in_strides))
        dst = sum(jj * s for jj, s in zip(j, out_strides))
        memory_out[dst] = memory_in[src]


def padded_strides(shape, rng):
    """Row-major strides with random padding after each dimension (a sub-tensor view)."""
    strides, step = [0] * len(shape), 1
    for a in reversed(range(len(shape))):
        strides[a] = step
        step *= shape[a] + rng.randint(0, 2)
    return tuple(strides), step


def span(shape, strides):
    return 1 + sum((e - 1) * s for e, s in zip(shape, strides))


@pytest.mark.parametrize("seed", range(300))
def test_to_cuperm_matches_numpy_semantics(seed):
    rng = random.Random(seed)
    ndim = rng.randint(0, 5)
    shape = tuple(rng.choice([1, 1, 2, 3, 4]) for _ in range(ndim))
    axes = list(range(ndim))
    rng.shuffle(axes)
    axes = tuple(axes)
    if rng.random() < 0.5:
        in_strides, in_size = padded_strides(shape, rng)
    else:
        in_strides = _layout.contiguous_strides(shape)
        in_size = span(shape, in_strides)
    if ndim and rng.random() < 0.2:  # broadcast one input axis
        b = rng.randrange(ndim)
        in_strides = tuple(0 if a == b else s for a, s in enumerate(in_strides))
    out_shape = _layout.permuted_shape(shape, axes)
    out_strides, out_size = padded_strides(out_shape, rng)
    memory_in = [rng.random() for _ in range(max(in_size, 1))]

    expected = [None] * max(out_size, 1)
    numpy_transpose_into(memory_in, shape, in_strides, axes, expected, out_strides)
    got = [None] * max(out_size, 1)
    problem = _layout.to_cuperm(shape, in_strides, axes, out_strides)
    cuperm_contract_into(memory_in, problem, got)
    assert got == expected
    assert sorted(problem.perm) == list(range(len(problem.extents)))
    assert all(e > 1 for e in problem.extents) or problem.extents == (1,)


def test_to_cuperm_small_example_by_hand():
    # (2, 3) row-major transposed: cuperm sees extents (3, 2) column-major and swaps them.
    p = _layout.to_cuperm((2, 3), (3, 1), (1, 0), (2, 1))
    assert p == _layout.Problem((3, 2), (1, 0), (1, 3), (1, 2))


def test_to_cuperm_drops_unit_dims_and_keeps_rank_one_for_all_ones():
    p = _layout.to_cuperm((1, 5, 1, 7), (35, 7, 7, 1), (3, 2, 1, 0), (5, 5, 1, 1))
    assert p.extents == (7, 5) and p.perm == (1, 0)
    assert p.in_strides == (1, 7) and p.out_strides == (1, 5)
    assert _layout.to_cuperm((1, 1), (1, 1), (1, 0), (1, 1)) == _layout.Problem((1,), (0,), (1,), (1,))
    assert _layout.to_cuperm((), (), (), ()) == _layout.Problem((1,), (0,), (1,), (1,))


@pytest.mark.parametrize("seed", range(50))
def test_from_cuperm_inverts_to_cuperm(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 6)
    extents = tuple(rng.randint(2, 9) for _ in range(n))
    perm = list(range(n))
    rng.shuffle(perm)
    shape, axes = _layout.from_cuperm(extents, tuple(perm))
    p = _layout.to_cuperm(shape, _layout.contiguous_strides(shape), axes,
                          _layout.contiguous_strides(_layout.permuted_shape(shape, axes)))
    assert p.extents == extents and p.perm == tuple(perm)


def test_normalize_axes_follows_numpy():
    assert _layout.normalize_axes(None, 3) == (2, 1, 0)
    assert _layout.normalize_axes((-1, 0, 1), 3) == (2, 0, 1)
    assert _layout.normalize_axes([], 0) == ()
    with pytest.raises(ValueError, match="repeats"):
        _layout.normalize_axes((0, 0), 2)
    with pytest.raises(ValueError, match="out of range"):
        _layout.normalize_axes((0, 2), 2)
    with pytest.raises(ValueError, match="3 entries"):
        _layout.normalize_axes((0, 1, 2), 2)
    with pytest.raises(TypeError, match="integers"):
        _layout.normalize_axes((0.0, 1), 2)
    with pytest.raises(TypeError, match="integers"):
        _layout.normalize_axes(3, 1)


def test_contiguous_strides_and_volume():
    assert _layout.contiguous_strides((2, 3, 4)) == (12, 4, 1)
    assert _layout.contiguous_strides(()) == ()
    assert _layout.contiguous_strides((0, 3)) == (3, 1)
    assert _layout.volume((2, 3, 4)) == 24 and _layout.volume(()) == 1 and _layout.volume((3, 0)) == 0


def test_check_strides():
    _layout.check_strides((4, 1), (0, -5), "x", output=False)  # broadcast and unit axes are fine
    with pytest.raises(ValueError, match="negative stride"):
        _layout.check_strides((4, 2), (1, -4), "x", output=False)
    with pytest.raises(ValueError, match="stride 0 on axis 0"):
        _layout.check_strides((4, 2), (0, 1), "out", output=True)
    _layout.check_strides((1, 2), (0, 1), "out", output=True)


def test_byte_span():
    assert _layout.byte_span((2, 3), (3, 1), 4) == (0, 24)
    assert _layout.byte_span((2, 3), (-3, 1), 8) == (-24, 24)
    assert _layout.byte_span((5,), (0,), 2) == (0, 2)
