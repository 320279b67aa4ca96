"""cuperm.transpose and cuperm.Plan on PyTorch tensors, checked against NumPy on the host.

References are computed on raw bytes (every dtype, bfloat16 included, compares
bit for bit): numpy.transpose of the input's bytes with the byte axis kept last.
"""

import random

import pytest

import cuperm

torch = pytest.importorskip("torch", reason="PyTorch is not installed")
np = pytest.importorskip("numpy", reason="NumPy is not installed")
pytestmark = [
    pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU visible to PyTorch"),
    pytest.mark.skipif(cuperm.library_path() is None, reason="libcuperm not built (pip install ./python)"),
]

FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128]
INTS = [torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64]
UNSIGNED_WIDE = [getattr(torch, n) for n in ("uint16", "uint32", "uint64") if hasattr(torch, n)]
ALL = FLOATS + INTS + [torch.bool] + UNSIGNED_WIDE


def random_tensor(shape, dtype, gen):
    """Random values (never all zeros); integers take random bit patterns."""
    if dtype.is_floating_point or dtype.is_complex:
        return torch.randn(shape, dtype=dtype, device="cuda", generator=gen)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, device="cuda", generator=gen).bool()
    itemsize = torch.empty((), dtype=dtype).element_size()
    raw = torch.randint(0, 256, (*shape, itemsize), dtype=torch.uint8, device="cuda", generator=gen)
    return raw.view(dtype).reshape(shape)


def host_bytes(t):
    """t's elements as a NumPy uint8 array of shape t.shape + (itemsize,)."""
    return t.contiguous().reshape(-1).view(torch.uint8).cpu().numpy().reshape(*t.shape, t.element_size())


def expected_bytes(x, axes):
    return np.transpose(host_bytes(x), tuple(axes) + (x.dim(),))


def random_case(rng):
    ndim = rng.randint(1, 6)
    budget = 40000
    shape = []
    for _ in range(ndim):
        e = rng.choice([1, 2, 3, 5, 7, 8, 16, 31, 33, 64])
        e = max(1, min(e, budget // max(1, int(np.prod(shape or [1])))))
        shape.append(e)
    axes = list(range(ndim))
    rng.shuffle(axes)
    return tuple(shape), tuple(axes)


@pytest.mark.parametrize("seed", range(60))
def test_random_shapes_and_dtypes_match_numpy(seed):
    rng = random.Random(seed)
    gen = torch.Generator(device="cuda").manual_seed(seed)
    dtype = ALL[seed % len(ALL)]
    shape, axes = random_case(rng)
    x = random_tensor(shape, dtype, gen)
    y = cuperm.transpose(x, axes)
    assert isinstance(y, torch.Tensor) and y.dtype == dtype and y.device == x.device and y.is_contiguous()
    assert y.shape == tuple(shape[a] for a in axes)
    torch.cuda.synchronize()
    assert np.array_equal(host_bytes(y), expected_bytes(x, axes))
    if dtype in FLOATS + INTS:
        assert torch.equal(y, x.permute(axes).contiguous())


@pytest.mark.parametrize("dtype", ALL, ids=str)
def test_every_dtype_on_a_tiled_case(dtype):
    gen = torch.Generator(device="cuda").manual_seed(7)
    x = random_tensor((33, 65, 17), dtype, gen)
    y = cuperm.transpose(x, (2, 0, 1))
    torch.cuda.synchronize()
    assert np.array_equal(host_bytes(y), expected_bytes(x, (2, 0, 1)))


def test_default_axes_reverse_like_numpy():
    x = torch.randn(3, 4, 5, device="cuda")
    assert torch.equal(cuperm.transpose(x), x.permute(2, 1, 0).contiguous())
    assert torch.equal(cuperm.transpose(x, (-1, 0, -2)), x.permute(2, 0, 1).contiguous())


def test_strided_input_views():
    base = torch.randn(10, 12, 14, device="cuda")
    views = [base[::2, 1:, 3:11], base.permute(2, 0, 1), base[:, 5], base.transpose(0, 2)[1::3],
             torch.randn(1, 6, 1, device="cuda").expand(4, 6, 5)]  # the last broadcasts (stride 0)
    for v in views:
        axes = tuple(reversed(range(v.dim())))
        y = cuperm.transpose(v, axes)
        torch.cuda.synchronize()
        assert torch.equal(y, v.permute(axes).contiguous())


def test_strided_output_view_leaves_the_rest_untouched():
    x = torch.randn(6, 7, 8, device="cuda", dtype=torch.float64)
    big = torch.full((9, 10, 20), float("nan"), device="cuda", dtype=torch.float64)
    out = big[1:9, 2:9, 3:15:2]                                # shape (8, 7, 6), padded and strided
    res = cuperm.transpose(x, (2, 1, 0), out=out)
    assert res is out
    expected = big.clone()
    expected[1:9, 2:9, 3:15:2] = x.permute(2, 1, 0)
    torch.cuda.synchronize()
    assert torch.equal(torch.nan_to_num(big, nan=-1.0), torch.nan_to_num(expected, nan=-1.0))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.complex64, torch.int32, torch.float16])
def test_alpha_beta(dtype):
    gen = torch.Generator(device="cuda").manual_seed(3)
    if dtype.is_floating_point or dtype.is_complex:
        x = random_tensor((17, 9, 33), dtype, gen)
        out0 = random_tensor((33, 17, 9), dtype, gen)
        alpha, beta = (0.5 - 2j, 1.5 + 0.25j) if dtype.is_complex else (-1.75, 0.5)
    else:
        x = torch.randint(-100, 100, (17, 9, 33), dtype=dtype, device="cuda", generator=gen)
        out0 = torch.randint(-100, 100, (33, 17, 9), dtype=dtype, device="cuda", generator=gen)
        alpha, beta = 3, -2
    expected = alpha * x.cpu().numpy().astype(np.complex128 if dtype.is_complex else np.float64).transpose(
        2, 0, 1) + beta * out0.cpu().numpy()
    out = out0.clone()
    cuperm.transpose(x, (2, 0, 1), alpha=alpha, beta=beta, out=out)
    got = out.cpu().numpy()
    if dtype == torch.int32:
        assert np.array_equal(got, expected.astype(np.int32))
    else:
        tol = {torch.float16: 4e-3, torch.float32: 1e-5, torch.complex64: 1e-5}.get(dtype, 1e-12)
        assert np.allclose(got, expected, rtol=tol, atol=tol)


def test_beta_zero_never_reads_nans():
    x = torch.randn(8, 9, device="cuda")
    out = torch.full((9, 8), float("nan"), device="cuda")
    cuperm.transpose(x, out=out, alpha=2.0, beta=0)
    torch.cuda.synchronize()
    assert torch.equal(out, 2 * x.t())


def test_requires_grad_zero_size_and_scalars():
    x = torch.randn(4, 5, device="cuda", requires_grad=True)
    assert torch.equal(cuperm.transpose(x), x.detach().t().contiguous())
    e = cuperm.transpose(torch.empty(3, 0, 2, device="cuda"), (2, 1, 0))
    assert e.shape == (2, 0, 3)
    s = torch.tensor(2.5, device="cuda")
    assert cuperm.transpose(s).item() == 2.5


def test_current_and_explicit_streams():
    x = torch.randn(64, 48, 40, device="cuda")
    expected = x.permute(1, 2, 0).contiguous()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        y = cuperm.transpose(x, (1, 2, 0))     # torch's current stream is s here
    s.synchronize()
    assert torch.equal(y, expected)
    out = torch.empty_like(expected)
    cuperm.transpose(x, (1, 2, 0), out=out, stream=s)
    s.synchronize()
    assert torch.equal(out, expected)
    out2 = torch.empty_like(expected)
    cuperm.transpose(x, (1, 2, 0), out=out2, stream=s.cuda_stream)
    s.synchronize()
    assert torch.equal(out2, expected)


def test_plan_reuse_info_and_cache():
    plan = cuperm.Plan((8, 16, 32), (2, 0, 1), torch.float32)
    for _ in range(3):
        x = torch.randn(8, 16, 32, device="cuda")
        assert torch.equal(plan(x), x.permute(2, 0, 1).contiguous())
    info = plan.info
    assert info["kernel"] in ("copy", "tiled", "rows", "whole-dims", "row-tiles") and info["volume"] == 8 * 16 * 32
    assert not info["measured"]
    with pytest.raises(ValueError, match="shape"):
        plan(torch.randn(8, 16, 31, device="cuda"))
    with pytest.raises(TypeError, match="dtype"):
        plan(torch.randn(8, 16, 32, device="cuda", dtype=torch.float64))
    with pytest.raises(ValueError, match="strides"):
        plan(torch.randn(8, 32, 16, device="cuda").transpose(1, 2))

    cuperm.clear_cache()
    x = torch.randn(5, 6, 7, device="cuda")
    for _ in range(3):
        cuperm.transpose(x, (1, 2, 0))
    assert cuperm.cached_plans() == 1


def test_plan_for_strided_arrays_and_measured_plan():
    base = torch.randn(8, 16, 64, device="cuda")
    x = base[:, :, ::2]
    out = torch.empty(32, 8, 16, device="cuda")
    plan = cuperm.Plan.for_arrays(x, out, (2, 0, 1), measure=True)
    assert plan.info["measured"]
    plan(x, out)
    torch.cuda.synchronize()
    assert torch.equal(out, x.permute(2, 0, 1))
    explicit = cuperm.Plan((8, 16, 32), (2, 0, 1), "float32", x_strides=x.stride())
    assert torch.equal(explicit(x), out)


def test_c_errors_surface_with_the_c_message():
    with pytest.raises(cuperm.InvalidValueError, match="rank = 33"):
        cuperm.Plan((2,) * 33, dtype="int8")
    x = torch.randn(4, 4, device="cuda")
    overlapping = torch.empty(16, device="cuda").as_strided((4, 4), (2, 1))
    with pytest.raises(cuperm.InvalidValueError, match="output elements overlap"):
        cuperm.transpose(x, out=overlapping)
    with pytest.raises(ValueError, match="overlaps x"):
        cuperm.transpose(x, out=x)


def test_device_mismatch_and_host_tensors():
    with pytest.raises(TypeError, match="lives on the CPU"):
        cuperm.transpose(torch.randn(3, 3))
    with pytest.raises(TypeError, match="dtype"):
        cuperm.transpose(torch.randn(3, 3, device="cuda"), out=torch.empty(3, 3, device="cuda",
                                                                           dtype=torch.float64))


def test_replays_of_every_dtype_match_the_reference():
    """Repeated calls take the fast path (cuperm._fast; with PyTorch >= 2.10 the native replay reads
    tensors through DLPack's exchange API and learns each dtype's code on its first call): same-shape
    tensors of every dtype, interleaved, must each come back with their own dtype and values."""
    from cuperm import _fast
    gen = torch.Generator(device="cuda").manual_seed(7)
    cuperm.clear_cache()
    for order in (ALL, ALL[::-1]):
        for dtype in order:
            for _ in range(3):  # the general path, then replays
                x = random_tensor((5, 7), dtype, gen)
                out = torch.empty(7, 5, dtype=dtype, device="cuda")
                y, z = cuperm.transpose(x, (1, 0)), cuperm.transpose(x, (1, 0), out=out)
                assert y.dtype == dtype and y.shape == (7, 5) and y.is_contiguous() and z is out
                for r in (y, z):
                    assert np.array_equal(host_bytes(r), np.transpose(host_bytes(x), (1, 0, 2))), dtype
    assert len(_fast.transposes) == 2 * len(ALL)


def test_replays_leak_no_references():
    from refcounts import replay_references_hold
    x, out = torch.randn(4, 8, device="cuda"), torch.empty(8, 4, device="cuda")
    a, b, d = (torch.randn(8, 8, device="cuda") for _ in range(3))
    calls = [lambda: cuperm.transpose(x, (1, 0)), lambda: cuperm.transpose(x, (1, 0), out=out),
             lambda: cuperm.einsum("ij,jk->ik", a, b), lambda: cuperm.einsum("ij,jk->ik", a, b, out=d, beta=0.5)]
    assert replay_references_hold(calls, [x, out, a, b, d, torch.float32], 2000, torch.cuda.synchronize)
