"""Einsum subscripts: NumPy's grammar, implicit outputs, ellipses and errors (no GPU)."""

import pytest

from cuperm._einsum_parse import ELLIPSIS_BASE, canonical, output_shape, parse

np = pytest.importorskip("numpy")


def L(s):
    return tuple(ord(c) for c in s)


def test_explicit_and_implicit():
    assert parse("ij,jk->ik", (2, 2)) == ((L("ij"), L("jk")), L("ik"))
    assert parse("ij,jk", (2, 2)) == ((L("ij"), L("jk")), L("ik"))
    assert parse("ba,ac", (2, 2)).output == L("bc")          # alphabetical, like NumPy
    assert parse("cb,bA", (2, 2)).output == L("Ac")          # upper case sorts first
    assert parse(" i j , j k -> i k ", (2, 2)).output == L("ik")
    assert parse("ij,ij->", (2, 2)).output == ()
    assert parse("ii->i", (2,)).inputs == (L("ii"),)


def test_ellipsis_aligns_right_like_numpy():
    e = parse("...ij,...jk->...ik", (4, 3))
    E = [ELLIPSIS_BASE + k for k in range(2)]
    assert e.inputs == (tuple(E) + L("ij"), (E[1],) + L("jk"))
    assert e.output == tuple(E) + L("ik")
    assert parse("...ij,...jk", (3, 3)).output == (ELLIPSIS_BASE,) + L("ik")   # implicit: ellipsis first
    assert parse("i...,i...->i", (3, 1)).output == L("i")                    # explicit without ...: summed
    assert parse("...,...", (0, 0)) == (((), ()), ())


@pytest.mark.parametrize("subscripts,ndims,match", [
    ("ij,jk->ik", (2,), "name 2 operand"),
    ("ij,jk->ik", (3, 2), "3 dimension"),
    ("ij,jk->ii", (2, 2), "more than once"),
    ("ij,jk->iz", (2, 2), "appears in no operand"),
    ("i1,jk", (2, 2), "letters"),
    ("......i", (3,), "more than one ellipsis"),
    ("ij->i->j", (2,), "more than one"),
    ("ij-,jk", (2, 2), "stray"),
])
def test_errors(subscripts, ndims, match):
    with pytest.raises(ValueError, match=match):
        parse(subscripts, ndims)


def test_not_a_string():
    with pytest.raises(TypeError):
        parse(["ij"], (2,))


def test_internal_allows_repeated_and_unknown_outputs():
    e = parse("i,->ii", (1, 0), internal=True)
    assert e.output == L("ii")
    assert parse("k,jk->ij", (1, 2), internal=True).output == L("ij")


def test_output_shape_and_broadcast():
    e = parse("...ij,...jk->...ik", (3, 3))
    assert output_shape(e, [(1, 2, 3), (5, 3, 4)]) == (5, 2, 4)
    with pytest.raises(ValueError, match="extent 4"):
        output_shape(parse("ij,jk", (2, 2)), [(2, 3), (4, 5)])
    with pytest.raises(ValueError, match="diagonal"):
        output_shape(parse("ii->i", (2,)), [(2, 3)])


@pytest.mark.parametrize("subscripts,ndims", [("...ij,...jk", (4, 3)), ("ab,bc->ca", (2, 2)), ("ii,i", (2, 1))])
def test_canonical_spelling_is_equivalent(subscripts, ndims):
    equation, _ = canonical(parse(subscripts, ndims))
    assert "..." not in equation and "->" in equation
    assert parse(equation, ndims).output.__len__() == parse(subscripts, ndims).output.__len__()
    rng = np.random.default_rng(0)
    shapes = [(2,) * n for n in ndims]
    ops = [rng.standard_normal(s) for s in shapes]
    assert np.allclose(np.einsum(subscripts, *ops), np.einsum(equation, *ops))
