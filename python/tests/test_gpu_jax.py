"""JAX arrays: read through DLPack; immutable, so results come back through PyTorch or CuPy."""

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
