"""The einsum-to-cuperm descriptor mapping, executed on the CPU (no GPU).

`emulate` runs a ContractionLayout the way the C library reads it: each
descriptor becomes a NumPy strided view (column-major modes, element strides)
of its operand's memory, and the modes are contracted by label with
numpy.einsum. Comparing with numpy.einsum on the original arrays checks the
whole mapping: reversing to column-major, strides, diagonal views, stride-0
sums and broadcasts, repeated output labels, and the gradients' equations.
"""

import itertools
import random

import pytest

from cuperm import _gradients
from cuperm._contraction_layout import build
from cuperm._einsum_parse import parse

np = pytest.importorskip("numpy")
ast = np.lib.stride_tricks.as_strided


def _view(base, arr, op):
    """The strided view the C library sees of arr (a view into base) under descriptor op."""
    offset = (arr.__array_interface__["data"][0] - base.__array_interface__["data"][0])
    item = base.itemsize
    flat = base.reshape(-1)
    return ast(flat[offset // item:], shape=op.extents, strides=[s * item for s in op.strides], writeable=True)


def emulate(subscripts, a, b, out=None, extra=None, internal=False):
    """Runs the mapping of einsum(subscripts, a, b) with NumPy; a, b: views of their .base arrays."""
    expr = parse(subscripts, (a.ndim, b.ndim), internal=internal or bool(extra))
    layout = build(expr, (a.shape, b.shape), (_elems(a), _elems(b)), None if out is None else _elems(out),
                   extra)
    if out is None:
        out = np.full(layout.out_shape, np.nan, dtype=a.dtype)
    if layout.zero_fill:
        out[...] = 0
    if layout.empty:
        return out
    if layout.zero_sum:
        out[...] = 0
        return out
    av = _view(_root(a), a, layout.a)
    bv = _view(_root(b), b, layout.b)
    dv = _view(_root(out), out, layout.d)
    dv[...] = np.einsum(av, list(layout.a.modes), bv, list(layout.b.modes), list(layout.d.modes))
    return out


def _root(x):
    while x.base is not None and isinstance(x.base, np.ndarray):
        x = x.base
    return x


def _elems(x):
    return tuple(s // x.itemsize for s in x.strides)


def test_matmul_is_reversed_to_column_major():
    a, b = np.zeros((2, 3)), np.zeros((3, 4))
    layout = build(parse("ij,jk->ik", (2, 2)), (a.shape, b.shape), ((3, 1), (4, 1)))
    # modes renumbered by first appearance: i=0, j=1, k=2; listed column-major (last axis first)
    assert layout.a == ((1, 0), (3, 2), (1, 3))
    assert layout.b == ((2, 1), (4, 3), (1, 4))
    assert layout.d == ((2, 0), (4, 2), (1, 4))
    assert layout.out_shape == (2, 4) and not layout.zero_fill


def test_diagonal_is_one_mode_with_summed_strides():
    layout = build(parse("ii,i->i", (2, 1)), ((5, 5), (5,)), ((7, 1), (1,)))
    assert layout.a.modes == (0,) and layout.a.strides == (8,)


def test_summed_in_one_input_becomes_stride_zero_in_the_other():
    layout = build(parse("ij,jk->k", (2, 2)), ((2, 3), (3, 4)), ((3, 1), (4, 1)))
    i = layout.a.modes[-1]
    assert i in layout.b.modes and layout.b.strides[layout.b.modes.index(i)] == 0


def test_broadcast_extent_one_takes_stride_zero_and_unit_modes_are_dropped():
    layout = build(parse("...ij,...jk", (3, 3)), ((1, 2, 3), (5, 3, 4)), ((6, 3, 1), (12, 4, 1)))
    assert layout.out_shape == (5, 2, 4)
    batch = layout.b.modes[-1]
    assert layout.a.strides[layout.a.modes.index(batch)] == 0
    layout = build(parse("ij,jk", (2, 2)), ((1, 3), (3, 1)), ((3, 1), (1, 1)))
    assert layout.d.modes == () and layout.a.extents == (3,)


def test_negative_and_overlapping_strides_are_refused():
    with pytest.raises(ValueError, match="negative"):
        build(parse("ij,jk", (2, 2)), ((2, 3), (3, 4)), ((3, -1), (4, 1)))
    with pytest.raises(ValueError, match="overlap"):
        build(parse("ij,jk", (2, 2)), ((2, 3), (3, 4)), ((3, 1), (4, 1)), out_strides=(0, 1))


def test_zero_extents():
    layout = build(parse("ij,jk", (2, 2)), ((2, 0), (0, 4)), ((1, 1), (1, 1)))
    assert layout.zero_sum and not layout.empty
    assert build(parse("ij,jk", (2, 2)), ((0, 3), (3, 4)), ((3, 1), (4, 1))).empty


CASES = [
    "ij,jk->ik", "ij,jk->ki", "ijk,jkl->il", "bij,bjk->bik", "ij,ij->", "ij,ij->ij", "i,j->ij", "ij,j->i",
    "abc,cd->abd", "ii,i->i", "iij,jk->ik", "ij,jk->k", "ijk,k->", "ab,->ab", "ii,->", "ii,->i", "ij,->ji",
    "...ij,...jk->...ik", "...i,...i->...", "abcd,dbea->ec",
]


def _strided(rng, shape):
    """A random non-contiguous view of the given shape: padded, permuted or both."""
    kind = rng.integers(3)
    if kind == 0:
        return rng.standard_normal(shape)
    if kind == 1:
        big = rng.standard_normal(tuple(s + 1 for s in shape) + (2,))
        return big[tuple(slice(0, s) for s in shape) + (0,)]
    perm = rng.permutation(len(shape))
    inv = np.argsort(perm)
    return np.ascontiguousarray(rng.standard_normal(shape).transpose(perm)).transpose(inv)


def _shapes(subscripts, rng, ndims):
    sizes = {}
    expr_terms = subscripts.split("->")[0].split(",")
    shapes = []
    for term, nd in zip(expr_terms, ndims):
        letters = term.replace("...", "")
        shape = [sizes.setdefault(c, int(rng.integers(1, 5))) for c in letters]
        if "..." in term:
            ell = [2, 3][: nd - len(letters)]
            pos = term.index("...")
            shape = shape[:pos] + ell + shape[pos:]
        shapes.append(tuple(shape))
    return shapes


@pytest.mark.parametrize("subscripts", CASES)
@pytest.mark.parametrize("seed", range(3))
def test_mapping_matches_numpy_einsum(subscripts, seed):
    rng = np.random.default_rng(seed)
    ndims = [len(t.replace("...", "")) + (2 if "..." in t else 0) for t in subscripts.split("->")[0].split(",")]
    sa, sb = _shapes(subscripts, rng, ndims)
    a, b = _strided(rng, sa), _strided(rng, sb)
    got = emulate(subscripts, a, b)
    assert np.allclose(got, np.einsum(subscripts, a, b))


def test_ellipsis_broadcast_of_extent_one():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((1, 2, 3)), rng.standard_normal((4, 3, 5))
    assert np.allclose(emulate("...ij,...jk", a, b), np.einsum("...ij,...jk", a, b))


def test_out_view_with_repeated_output_labels_writes_the_diagonal():
    a = np.arange(3.0)
    got = emulate("i,->ii", a, np.ones(()), internal=True)
    assert np.array_equal(got, np.diag(a))


def test_output_label_in_no_operand_is_broadcast():
    a, b = np.arange(3.0), np.ones(())
    got = emulate("i,->ij", a, b, extra={ord("j"): 4})
    assert np.array_equal(got, np.repeat(a[:, None], 4, axis=1))


def _numeric_grad(subscripts, a, b, g, which):
    """dL/dx for L = sum(g * einsum(a, b)), x = a or b: the function is linear in x, so the gradient's
    element at idx is L evaluated at the unit tensor e_idx."""
    x = a if which == 0 else b
    grad = np.zeros_like(x)
    for idx in itertools.product(*(range(s) for s in x.shape)):
        e = np.zeros_like(x)
        e[idx] = 1
        args = (e, b) if which == 0 else (a, e)
        grad[idx] = np.sum(g * np.einsum(subscripts, *args))
    return grad


GRAD_CASES = ["ij,jk->ik", "ij,jk->k", "ii,j->ij", "ii,->", "iij,jk->ik", "...ij,...jk", "ij,ij->", "i,j->ij",
              "abc,cad->bd", "ijk,k->", "ba,ac"]


@pytest.mark.parametrize("subscripts", GRAD_CASES)
def test_gradient_equations_give_the_gradients(subscripts):
    rng = np.random.default_rng(len(subscripts))
    if subscripts == "...ij,...jk":
        sa, sb = (1, 2, 3), (4, 3, 2)     # a broadcast along the batch: its gradient sums over it
    else:
        sa, sb = _shapes(subscripts, rng, [len(t) for t in subscripts.split("->")[0].split(",")])
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    g = rng.standard_normal(np.einsum(subscripts, a, b).shape)
    eqs = _gradients.equations(subscripts, sa, sb)
    ga = emulate(eqs.eq_a, g, b, extra=dict(zip(eqs.sizes_a[::2], eqs.sizes_a[1::2])), internal=True)
    gb = emulate(eqs.eq_b, g, a, extra=dict(zip(eqs.sizes_b[::2], eqs.sizes_b[1::2])), internal=True)
    assert ga.shape == a.shape and gb.shape == b.shape
    assert np.allclose(ga, _numeric_grad(subscripts, a, b, g, 0))
    assert np.allclose(gb, _numeric_grad(subscripts, a, b, g, 1))


def test_random_expressions_against_numpy():
    rng = random.Random(5)
    nrng = np.random.default_rng(5)
    for _ in range(150):
        letters = "abcdefg"[: rng.randint(1, 6)]
        ta = "".join(rng.choice(letters) for _ in range(rng.randint(0, 4)))
        tb = "".join(rng.choice(letters) for _ in range(rng.randint(0, 4)))
        pool = sorted(set(ta + tb))
        to = "".join(rng.sample(pool, rng.randint(0, len(pool))))
        subscripts = "%s,%s->%s" % (ta, tb, to)
        sizes = {c: nrng.integers(1, 4) for c in letters}
        a = _strided(nrng, tuple(int(sizes[c]) for c in ta)) if ta else nrng.standard_normal(())
        b = _strided(nrng, tuple(int(sizes[c]) for c in tb)) if tb else nrng.standard_normal(())
        assert np.allclose(emulate(subscripts, a, b), np.einsum(subscripts, a, b)), subscripts
