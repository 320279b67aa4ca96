"""cuperm.transpose on CuPy arrays, checked against numpy.transpose on the host."""

import random

import pytest

import cuperm

cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
np = pytest.importorskip("numpy", reason="NumPy is not installed")


def _gpu_count():
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


pytestmark = [
    pytest.mark.skipif(_gpu_count() == 0, reason="no CUDA GPU visible to CuPy"),
    pytest.mark.skipif(cuperm.library_path() is None, reason="libcuperm not built (pip install ./python)"),
]

DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int8, np.uint8, np.int16,
          np.uint16, np.int32, np.uint32, np.int64, np.uint64, np.bool_]


def random_host(shape, dtype, rng):
    dtype = np.dtype(dtype)
    if dtype.kind in "fc":
        a = rng.standard_normal(shape)
        if dtype.kind == "c":
            a = a + 1j * rng.standard_normal(shape)
        return a.astype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, shape).astype(bool)
    return rng.integers(0, 256, (*shape, dtype.itemsize), dtype=np.uint8).view(dtype).reshape(shape)


@pytest.mark.parametrize("seed", range(40))
def test_random_shapes_and_dtypes_match_numpy(seed):
    rng = np.random.default_rng(seed)
    prng = random.Random(seed)
    dtype = DTYPES[seed % len(DTYPES)]
    ndim = prng.randint(1, 6)
    shape = tuple(prng.choice([1, 2, 3, 7, 16, 33]) for _ in range(ndim))
    axes = list(range(ndim))
    prng.shuffle(axes)
    host = random_host(shape, dtype, rng)
    y = cuperm.transpose(cupy.asarray(host), axes)
    assert isinstance(y, cupy.ndarray) and y.dtype == host.dtype and y.flags.c_contiguous
    assert np.array_equal(cupy.asnumpy(y), np.transpose(host, axes))


def test_strided_views_and_out():
    rng = np.random.default_rng(1)
    host = random_host((12, 10, 16), np.float32, rng)
    base = cupy.asarray(host)
    x = base[1::2, :7, ::3]                                   # offset pointer, padded strides
    out_big = cupy.full((8, 7, 12), -7.0, dtype=np.float32)
    out = out_big[:6, :, 1::2]                                  # strided output (6, 7, 6)
    res = cuperm.transpose(x, (2, 1, 0), out=out)
    assert res is out
    expected_big = np.full((8, 7, 12), -7.0, dtype=np.float32)
    expected_big[:6, :, 1::2] = np.transpose(host[1::2, :7, ::3], (2, 1, 0))
    assert np.array_equal(cupy.asnumpy(out_big), expected_big)

    y = cuperm.transpose(base.transpose(2, 0, 1), (1, 0, 2))   # an F-ordered-ish view as input
    assert np.array_equal(cupy.asnumpy(y), np.transpose(np.transpose(host, (2, 0, 1)), (1, 0, 2)))

    b = cupy.broadcast_to(cupy.arange(5, dtype=np.int64), (3, 4, 5))    # stride 0
    assert np.array_equal(cupy.asnumpy(cuperm.transpose(b, (2, 0, 1))),
                          np.transpose(np.broadcast_to(np.arange(5), (3, 4, 5)), (2, 0, 1)))


def test_negative_strides_are_rejected_clearly():
    x = cupy.arange(12, dtype=np.float32).reshape(3, 4)[::-1]
    with pytest.raises(ValueError, match="negative stride"):
        cuperm.transpose(x)


def test_alpha_beta_complex():
    rng = np.random.default_rng(2)
    x = random_host((9, 31, 5), np.complex128, rng)
    out0 = random_host((5, 9, 31), np.complex128, rng)
    out = cupy.asarray(out0)
    cuperm.transpose(cupy.asarray(x), (2, 0, 1), alpha=2 - 1j, beta=0.5j, out=out)
    assert np.allclose(cupy.asnumpy(out), (2 - 1j) * np.transpose(x, (2, 0, 1)) + 0.5j * out0, rtol=1e-12)


def test_runs_on_cupys_current_stream():
    host = random_host((64, 32, 48), np.float64, np.random.default_rng(3))
    x = cupy.asarray(host)
    cupy.cuda.get_current_stream().synchronize()
    s = cupy.cuda.Stream(non_blocking=True)
    with s:
        y = cuperm.transpose(x, (2, 0, 1))
        s.synchronize()
    assert np.array_equal(cupy.asnumpy(y), np.transpose(host, (2, 0, 1)))
    out = cupy.empty((48, 64, 32))
    cuperm.transpose(x, (2, 0, 1), out=out, stream=s)
    s.synchronize()
    assert np.array_equal(cupy.asnumpy(out), np.transpose(host, (2, 0, 1)))


def test_torch_input_cupy_output():
    torch = pytest.importorskip("torch")
    x = torch.randn(6, 7, 8, device="cuda")
    out = cupy.empty((8, 6, 7), dtype=np.float32)
    cuperm.transpose(x, (2, 0, 1), out=out)
    torch.cuda.synchronize()
    assert np.array_equal(cupy.asnumpy(out), x.permute(2, 0, 1).cpu().numpy())
