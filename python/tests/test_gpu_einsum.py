"""cuperm.einsum / ContractionPlan / autograd / torch.compile on the GPU, against torch.einsum
(and cupy.einsum for CuPy arrays)."""

import os
import random
import sys

import pytest

import cuperm

torch = pytest.importorskip("torch", reason="PyTorch is not installed")
pytestmark = [
    pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU visible to PyTorch"),
    pytest.mark.skipif(cuperm.library_path() is None, reason="libcuperm not built (pip install ./python)"),
]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "bench", "python"))
import tccg  # noqa: E402

TOL = {torch.float32: (2e-3, 1e-3), torch.float64: (1e-10, 1e-10), torch.float16: (3e-2, 1e-2),
       torch.bfloat16: (1e-1, 5e-2), torch.complex64: (2e-3, 1e-3), torch.complex128: (1e-10, 1e-10)}
DTYPES = list(TOL)


def close(got, ref, dtype):
    rtol, atol = TOL[dtype]
    scale = max(1.0, float(ref.abs().max()))
    torch.testing.assert_close(got.to(ref.dtype), ref, rtol=rtol, atol=atol * scale)


def reference(subscripts, *ops):
    """torch.einsum in float64/complex128 (no TF32, no half-precision accumulation)."""
    wide = [o.to(torch.complex128 if o.is_complex() else torch.float64) for o in ops]
    return torch.einsum(subscripts, *wide)


def randn(shape, dtype, gen):
    return torch.randn(shape, dtype=dtype, device="cuda", generator=gen)


RANDOM = ["ij,jk->ik", "bij,bjk->bik", "abc,cd->abd", "ijk,jkl->li", "i,j->ij", "ij,ij->", "ij,j->i",
          "...ij,...jk", "ba,ac", "abcd,dbea->ec", "ii,i->i", "ij,jk->k", "aijb,jkba->ki"]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("seed", range(len(RANDOM)))
def test_random_against_torch(dtype, seed):
    rng = random.Random(seed)
    gen = torch.Generator(device="cuda").manual_seed(seed)
    subscripts = RANDOM[seed]
    sizes = {c: rng.choice([1, 2, 3, 7, 16, 33]) for c in "abcdeijkl"}
    terms = subscripts.split("->")[0].split(",")
    shapes = [tuple(sizes[c] for c in t.replace("...", "")) for t in terms]
    shapes = [((4, 3) if "..." in t else ()) + s for t, s in zip(terms, shapes)]
    ops = [randn(s, dtype, gen) for s in shapes]
    close(cuperm.einsum(subscripts, *ops), reference(subscripts, *ops), dtype)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.float64, torch.complex64], ids=str)
@pytest.mark.parametrize("case", tccg.cases(scale=0.25), ids=lambda c: "tccg%d" % c[0])
def test_tccg48(case, dtype):
    _, subscripts, sizes = case
    gen = torch.Generator(device="cuda").manual_seed(1)
    a, b = (randn(s, dtype, gen) for s in tccg.shapes(subscripts, sizes))
    close(cuperm.einsum(subscripts, a, b), reference(subscripts, a, b), dtype)


def test_non_contiguous_inputs_and_out_with_beta():
    gen = torch.Generator(device="cuda").manual_seed(3)
    a = randn((40, 30, 2), torch.float32, gen)[:, :, 0]            # padded
    b = randn((50, 30), torch.float32, gen).t()                    # transposed
    c = randn((40, 60), torch.float32, gen)[:, :50]                # strided output view
    c0 = c.clone()
    got = cuperm.einsum("ij,jk->ik", a, b, out=c, alpha=0.5, beta=2.0)
    assert got is c
    close(c, 0.5 * reference("ij,jk->ik", a, b).float() + 2.0 * c0, torch.float32)
    bb = randn((1, 30, 5), torch.float32, gen).expand(7, 30, 5)     # broadcast (stride 0)
    aa = randn((7, 4, 30), torch.float32, gen)
    close(cuperm.einsum("bij,bjk->bik", aa, bb), reference("bij,bjk->bik", aa, bb), torch.float32)


def test_half_inputs_into_float32_out_and_compute_types():
    gen = torch.Generator(device="cuda").manual_seed(4)
    a, b = randn((64, 32), torch.float16, gen), randn((32, 48), torch.float16, gen)
    out = torch.empty(64, 48, device="cuda")
    cuperm.einsum("ij,jk->ik", a, b, out=out, compute="32f")
    close(out, reference("ij,jk->ik", a, b).float(), torch.float32)
    x, y = randn((64, 32), torch.float32, gen), randn((32, 48), torch.float32, gen)
    for compute in ("tf32", "fast_16bf", "fast_16f"):
        torch.testing.assert_close(cuperm.einsum("ij,jk->ik", x, y, compute=compute), x @ y, rtol=5e-2, atol=0.2)


def test_operators():
    gen = torch.Generator(device="cuda").manual_seed(5)
    a, b = randn((16, 8), torch.float32, gen), randn((8, 12), torch.float32, gen)
    got = cuperm.einsum("ij,jk->ik", a, b, op_a="relu", op_d=("leaky_relu", 0.1))
    close(got, torch.nn.functional.leaky_relu(torch.relu(a) @ b, 0.1), torch.float32)


def test_single_operand_and_many_operands():
    gen = torch.Generator(device="cuda").manual_seed(6)
    x = randn((5, 5, 3), torch.float64, gen)
    for s in ("iij->j", "ijk->kji", "ijk->", "iij->ji"):
        close(cuperm.einsum(s, x), torch.einsum(s, x), torch.float64)
    ops = [randn(s, torch.float64, gen) for s in [(6, 7), (7, 8), (8, 9), (9, 6)]]
    close(cuperm.einsum("ab,bc,cd,da->", *ops), torch.einsum("ab,bc,cd,da->", *ops), torch.float64)


def test_contraction_plan_reuse_and_mismatch():
    gen = torch.Generator(device="cuda").manual_seed(7)
    a, b = randn((8, 16, 32), torch.float32, gen), randn((32, 24), torch.float32, gen)
    plan = cuperm.ContractionPlan("abc,cd->abd", a, b)
    assert plan.out_shape == (8, 16, 24) and "description" in plan.info
    for _ in range(3):
        a, b = randn((8, 16, 32), torch.float32, gen), randn((32, 24), torch.float32, gen)
        close(plan(a, b), reference("abc,cd->abd", a, b).float(), torch.float32)
    with pytest.raises(ValueError, match="do not match"):
        plan(a.transpose(0, 1), b)
    spec = cuperm.ContractionPlan("abc,cd->abd", cuperm.TensorSpec((8, 16, 32)), cuperm.TensorSpec((32, 24)),
                                  out=cuperm.TensorSpec((8, 16, 24)))
    out = torch.zeros(8, 16, 24, device="cuda")
    spec(a, b, out, beta=1.0)
    close(out, reference("abc,cd->abd", a, b).float(), torch.float32)


def test_cupy_against_cupy_einsum():
    cupy = pytest.importorskip("cupy")
    rng = cupy.random.default_rng(8)
    for subscripts, sa, sb in [("ij,jk->ik", (30, 20), (20, 10)), ("abc,cad->bd", (4, 5, 6), (6, 4, 3)),
                               ("...ij,...jk", (3, 4, 5), (3, 5, 2))]:
        a = rng.standard_normal(sa, dtype=cupy.float32)
        b = rng.standard_normal(sb, dtype=cupy.float32)
        got = cuperm.einsum(subscripts, a, b)
        assert isinstance(got, cupy.ndarray)
        cupy.testing.assert_allclose(got, cupy.einsum(subscripts, a, b), rtol=2e-3, atol=1e-3)
    a = rng.standard_normal((20, 30), dtype=cupy.float64)[:, ::2]
    b = rng.standard_normal((15, 4), dtype=cupy.float64)
    cupy.testing.assert_allclose(cuperm.einsum("ij,jk", a, b), cupy.einsum("ij,jk", a, b), rtol=1e-10)


def test_opt_einsum_backend():
    oe = pytest.importorskip("opt_einsum")
    gen = torch.Generator(device="cuda").manual_seed(9)
    ops = [randn(s, torch.float64, gen) for s in [(5, 6), (6, 7, 2), (7, 8)]]
    close(oe.contract("ab,bcd,ce->dae", *ops, backend="cuperm"), torch.einsum("ab,bcd,ce->dae", *ops),
          torch.float64)


GRAD = ["ij,jk->ik", "bij,bjk->bik", "ij,jk->k", "ii,j->ij", "...ij,...jk", "abc,cad->bd", "ij->ji", "iij->j"]


@pytest.mark.parametrize("dtype", [torch.float64, torch.complex128], ids=str)
@pytest.mark.parametrize("subscripts", GRAD)
def test_gradients_match_torch(subscripts, dtype):
    gen = torch.Generator(device="cuda").manual_seed(len(subscripts))
    terms = subscripts.split("->")[0].split(",")
    sizes = {c: 3 + i for i, c in enumerate("abcdijk")}
    sizes["i"] = sizes["j"] if "ii" in subscripts else sizes["i"]
    shapes = [((1, 4) if "..." in t and k == 0 else (3, 4) if "..." in t else ())
              + tuple(sizes[c] for c in t.replace("...", "")) for k, t in enumerate(terms)]
    ops = [randn(s, dtype, gen).requires_grad_() for s in shapes]
    got = cuperm.einsum(subscripts, *ops, alpha=1.5)
    ref = 1.5 * torch.einsum(subscripts, *ops)
    torch.testing.assert_close(got, ref)
    g = torch.randn_like(ref)
    grads = torch.autograd.grad(got, ops, g)
    refs = torch.autograd.grad(ref, ops, g)
    for x, y in zip(grads, refs):
        torch.testing.assert_close(x, y)


def test_transpose_gradient_flows():
    x = torch.randn(4, 5, 6, device="cuda", dtype=torch.float64, requires_grad=True)
    y = cuperm.transpose(x, (2, 0, 1), alpha=2.0)
    assert y.requires_grad
    (g,) = torch.autograd.grad((y * torch.arange(120.0, device="cuda").reshape(6, 4, 5)).sum(), x)
    (r,) = torch.autograd.grad((2 * x.permute(2, 0, 1) * torch.arange(120.0, device="cuda").reshape(6, 4, 5)).sum(),
                               x)
    torch.testing.assert_close(g, r)


def test_operators_refuse_autograd():
    a = torch.randn(4, 4, device="cuda", requires_grad=True)
    with pytest.raises(NotImplementedError, match="operator"):
        cuperm.einsum("ij,jk", a, a, op_a="relu")


def test_torch_compile_fullgraph():
    def f(a, b, c):
        return torch.relu(cuperm.einsum("bij,bjk->bik", a, b)) + cuperm.transpose(c, (0, 2, 1))

    gen = torch.Generator(device="cuda").manual_seed(10)
    a, b, c = randn((2, 8, 16), torch.float32, gen), randn((2, 16, 8), torch.float32, gen), \
        randn((2, 8, 8), torch.float32, gen)
    compiled = torch.compile(f, fullgraph=True)
    close(compiled(a, b, c), torch.relu(torch.einsum("bij,bjk->bik", a.double(), b.double())).float()
          + c.transpose(1, 2), torch.float32)
    a.requires_grad_()
    compiled(a, b, c).sum().backward()
    assert a.grad is not None and a.grad.shape == a.shape


def test_cuda_graph_capture():
    gen = torch.Generator(device="cuda").manual_seed(11)
    a, b = randn((32, 64), torch.float32, gen), randn((64, 16), torch.float32, gen)
    out = torch.empty(32, 16, device="cuda")
    x = randn((16, 32), torch.float32, gen)
    tout = torch.empty(32, 16, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):  # warm-up: plans made outside the capture
        cuperm.einsum("ij,jk->ik", a, b, out=out)
        cuperm.transpose(x, (1, 0), out=tout)
    torch.cuda.current_stream().wait_stream(s)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        cuperm.einsum("ij,jk->ik", a, b, out=out)
        cuperm.transpose(x, (1, 0), out=tout)
    a.copy_(randn((32, 64), torch.float32, gen))
    x.copy_(randn((16, 32), torch.float32, gen))
    graph.replay()
    torch.cuda.synchronize()
    close(out, reference("ij,jk->ik", a, b).float(), torch.float32)
    torch.testing.assert_close(tout, x.t())


def test_workspace_cached_per_stream_and_bypassed_under_capture():
    from cuperm import _fast
    gen = torch.Generator(device="cuda").manual_seed(12)
    a, b = randn((256, 128), torch.float32, gen), randn((128, 192), torch.float32, gen)
    plan = cuperm.ContractionPlan("ij,jk->ik", a, b)
    if not plan.workspace_bytes:
        pytest.skip("this fp32 plan needs no workspace")
    cuperm.clear_workspace_cache()
    main, side = torch.cuda.current_stream(), torch.cuda.Stream()
    key, side_key = (a.device.index, main.cuda_stream), (a.device.index, side.cuda_stream)
    ref = reference("ij,jk->ik", a, b)
    for _ in range(3):  # the general path, then the replays: one workspace for the stream
        close(cuperm.einsum("ij,jk->ik", a, b), ref, torch.float32)
        close(plan(a, b), ref, torch.float32)
    assert list(_fast.workspaces) == [key] and _fast.workspaces[key][0] >= plan.workspace_bytes
    cached = _fast.workspaces[key]
    side.wait_stream(main)
    with torch.cuda.stream(side):  # another stream, concurrently: its own
        d_side = [cuperm.einsum("ij,jk->ik", a, b) for _ in range(4)]
    d_main = [plan(a, b) for _ in range(4)]
    main.wait_stream(side)
    for d in d_side + d_main:
        close(d, ref, torch.float32)
    assert set(_fast.workspaces) == {key, side_key} and _fast.workspaces[key] is cached
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):  # the capture allocates its own workspaces: the cache is untouched
        d = cuperm.einsum("ij,jk->ik", a, b)
        out = plan(a, b)
    assert set(_fast.workspaces) == {key, side_key} and _fast.workspaces[key] is cached
    cuperm.clear_workspace_cache()
    assert not _fast.workspaces
    torch.cuda.empty_cache()
    junk = torch.full((1 << 24,), float("nan"), device="cuda")  # memory the cache gave back, reused
    a.copy_(randn((256, 128), torch.float32, gen))
    graph.replay()
    torch.cuda.synchronize()
    ref = reference("ij,jk->ik", a, b)
    close(d, ref, torch.float32)
    close(out, ref, torch.float32)
    assert torch.isnan(junk).all()
