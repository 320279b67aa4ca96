"""JAX arrays (DLPack, immutable) and Numba device arrays (__cuda_array_interface__ only)."""

import pytest

import cuperm

np = pytest.importorskip("numpy", reason="NumPy is not installed")
pytestmark = pytest.mark.skipif(cuperm.library_path() is None,
                                reason="libcuperm not built (pip install ./python)")


def _jax_gpu():
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    try:
        jax.devices("gpu")
    except RuntimeError:
        pytest.skip("JAX sees no GPU")
    pytest.importorskip("torch", reason="the JAX path allocates its result through PyTorch or CuPy")
    return jax


def test_jax_array_in_jax_array_out():
    jax = _jax_gpu()
    import jax.numpy as jnp
    host = np.random.default_rng(0).standard_normal((5, 6, 7)).astype(np.float32)
    x = jnp.asarray(host)
    y = cuperm.transpose(x, (2, 0, 1))
    assert isinstance(y, jax.Array)
    assert np.array_equal(np.asarray(y), np.transpose(host, (2, 0, 1)))


def _numba_cuda():
    pytest.importorskip("numba", reason="Numba is not installed")
    try:
        from numba import cuda
        if not cuda.is_available():
            pytest.skip("Numba sees no CUDA GPU")
    except Exception as e:  # numba-cuda can fail to bind to a newer driver
        pytest.skip("numba.cuda unusable here: %s" % e)
    return cuda


def test_numba_device_array():
    cuda = _numba_cuda()
    host = np.random.default_rng(1).integers(-1000, 1000, (4, 9, 6)).astype(np.int32)
    x = cuda.to_device(host)
    y = cuperm.transpose(x, (1, 2, 0))
    cuda.synchronize()
    assert type(y).__module__.startswith("numba")
    assert np.array_equal(y.copy_to_host(), np.transpose(host, (1, 2, 0)))
    strided = x[:, ::2, 1:]
    z = cuperm.transpose(strided, (2, 0, 1))
    cuda.synchronize()
    assert np.array_equal(z.copy_to_host(), np.transpose(host[:, ::2, 1:], (2, 0, 1)))
