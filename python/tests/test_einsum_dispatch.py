"""einsum/tensordot dispatch, keyword validation and the opt_einsum backend, with the GPU engine
replaced by NumPy (no GPU, no library): what reaches the engine is checked, and results are
compared with numpy.einsum."""

import pytest

import cuperm
from cuperm import _contract, _einsum, _ops, _transpose

np = pytest.importorskip("numpy")


@pytest.fixture
def engine(monkeypatch):
    """Replaces the contraction and transpose engines by NumPy, recording the calls."""
    calls = []

    def contract(subscripts, a, b, *, out=None, alpha=1, beta=0, compute=0, stream=None, ops=_contract.NO_OPS,
                 workspace="framework", **kw):
        calls.append(("contract", subscripts, compute, ops, workspace))
        r = alpha * np.einsum(subscripts, a, b)
        if out is not None:
            out[...] = r + beta * out
            return out
        return r

    def transpose(x, axes=None, *, alpha=1, beta=0, out=None, stream=None):
        calls.append(("transpose", tuple(axes)))
        r = alpha * np.transpose(x, axes)
        if out is not None:
            out[...] = r + beta * out
            return out
        return np.ascontiguousarray(r)

    monkeypatch.setattr(_contract, "contract", contract)
    monkeypatch.setattr(_transpose, "transpose", transpose)
    monkeypatch.setattr(_einsum, "ones_like", lambda x: np.ones((), dtype=x.dtype))
    return calls


def test_two_operands_reach_the_engine_with_keywords(engine):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 5))
    out = np.ones((3, 5))
    got = cuperm.einsum("ij,jk->ik", a, b, out=out, alpha=2, beta=0.5, compute="tf32", op_a="relu",
                        ops={"d": ("leaky_relu", 0.2)}, workspace="cuperm")
    assert got is out and np.allclose(got, 2 * a @ b + 0.5)
    _, subscripts, compute, ops, workspace = engine[-1]
    assert subscripts == "ij,jk->ik" and compute == 4 and workspace == "cuperm"
    assert [o.name for o in ops] == ["relu", "identity", "identity", "leaky_relu"] and ops[3].param == 0.2


def test_single_operand_permutation_is_a_transpose(engine):
    x = np.arange(24.0).reshape(2, 3, 4)
    assert np.array_equal(cuperm.einsum("ijk->kij", x), np.einsum("ijk->kij", x))
    assert engine[-1] == ("transpose", (2, 0, 1))


@pytest.mark.parametrize("subscripts", ["ii->i", "ii", "ij->i", "ijk->", "...ii->...i", "iij->ji"])
def test_single_operand_reductions_contract_with_a_one(engine, subscripts):
    ndim = len(subscripts.split("->")[0].replace("...", "x"))
    x = np.random.default_rng(1).standard_normal((3,) * ndim)
    assert np.allclose(cuperm.einsum(subscripts, x), np.einsum(subscripts, x))
    assert engine[-1][0] == "contract" and ",->" in engine[-1][1]


def test_many_operands_follow_opt_einsum_path(engine):
    pytest.importorskip("opt_einsum")
    rng = np.random.default_rng(2)
    ops = [rng.standard_normal(s) for s in [(3, 4), (4, 5), (5, 6), (6, 3)]]
    got = cuperm.einsum("ab,bc,cd,da->", *ops)
    assert np.allclose(got, np.einsum("ab,bc,cd,da->", *ops))
    assert sum(1 for c in engine if c[0] == "contract") == 3


def test_operators_only_for_one_or_two_operands(engine):
    ops = [np.ones((2, 2))] * 3
    with pytest.raises(ValueError, match="two-operand"):
        cuperm.einsum("ab,bc,cd", *ops, op_a="relu")


@pytest.mark.parametrize("axes", [2, 1, 0, ([1, 0], [0, 2]), ([2], [1]), (1, 0)])
def test_tensordot_matches_numpy(engine, axes):
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((3, 4, 5)), rng.standard_normal((4, 5, 6))
    if axes == ([1, 0], [0, 2]):
        b = rng.standard_normal((4, 2, 3))
    if axes == ([2], [1]):
        b = rng.standard_normal((2, 5))
    if axes == (1, 0):
        b = rng.standard_normal((4, 2))
    if axes == 1:
        b = rng.standard_normal((5, 6))
    assert np.allclose(cuperm.tensordot(a, b, axes=axes), np.tensordot(a, b, axes=axes))


def test_tensordot_errors():
    with pytest.raises(ValueError, match="out of range"):
        cuperm.tensordot(np.ones((2, 2)), np.ones((2, 2)), axes=3)
    with pytest.raises(ValueError, match="pair"):
        cuperm.tensordot(np.ones((2, 2)), np.ones((2, 2)), axes=([0, 1], [0]))


def test_opt_einsum_backend_dispatches_to_cuperm(engine):
    oe = pytest.importorskip("opt_einsum")
    rng = np.random.default_rng(4)
    x, y, z = rng.standard_normal((5, 6)), rng.standard_normal((6, 7, 2)), rng.standard_normal((7, 8))
    got = oe.contract("ab,bcd,ce->dae", x, y, z, backend="cuperm")
    assert np.allclose(got, np.einsum("ab,bcd,ce->dae", x, y, z))
    assert any(c[0] == "contract" for c in engine)
    from opt_einsum import backends
    assert backends.get_func("tensordot", "cuperm") is cuperm.tensordot
    assert backends.get_func("transpose", "cuperm") is cuperm.transpose
    assert backends.get_func("einsum", "cuperm") is cuperm.einsum


def test_keyword_validation():
    assert _ops.compute_type(None) == 0 and _ops.compute_type("TF32") == 4 and _ops.compute_type("fp16") == 1
    assert _ops.compute_type("fast-bf16") == 6 and _ops.compute_type(3) == 3
    for bad, exc in [("fp8", ValueError), (9, ValueError), (True, TypeError), (1.5, TypeError)]:
        with pytest.raises(exc):
            _ops.compute_type(bad)
    assert _ops.operator("ReLU", "op_a").code == 3
    assert _ops.operator("leaky_relu", "op_a").param == 0.01
    assert _ops.operator(("elu", 0.5), "op_a") == ("elu", 5, 0.5)
    for bad, exc in [("gelu", ValueError), (("relu", 2.0), ValueError), (3, TypeError), (("elu",), ValueError)]:
        with pytest.raises(exc):
            _ops.operator(bad, "op_a")
    with pytest.raises(ValueError, match="both"):
        _ops.operators({"a": "relu"}, op_a="abs")
    with pytest.raises(ValueError, match="not one of"):
        _ops.operators({"x": "relu"})
    with pytest.raises(ValueError, match="complex"):
        _ops.check_operators_for(_ops.operators(None, op_a="relu"), complex_type=True)
    _ops.check_operators_for(_ops.operators(None, op_a="conj"), complex_type=True)


def test_einsum_argument_errors():
    with pytest.raises(ValueError, match="at least one"):
        cuperm.einsum("ij")
    with pytest.raises(ValueError, match="workspace"):
        cuperm.einsum("ij,jk", np.ones((2, 2)), np.ones((2, 2)), workspace="mine")


def test_types_are_checked_before_planning():
    from cuperm import _dtypes
    f16, f32, i32 = (_dtypes.normalize(n) for n in ("float16", "float32", "int32"))
    _contract.check_types(f16, f32)
    with pytest.raises(TypeError, match="float16, bfloat16"):
        _contract.check_types(i32, i32)
    with pytest.raises(TypeError, match="out has dtype"):
        _contract.check_types(f32, f16)


def test_import_needs_no_torch():
    import subprocess
    import sys
    code = "import sys, cuperm; cuperm.einsum; assert 'torch' not in sys.modules and 'opt_einsum' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, env={"PYTHONPATH": cuperm.__path__[0] + "/.."})
