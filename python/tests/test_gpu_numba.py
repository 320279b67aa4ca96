"""Numba device arrays: read through __cuda_array_interface__ only.

Kept in a file of its own: numba-cuda can crash the interpreter when it cannot
bind to the driver, so bench/python/device-check.sh runs this file in a separate
pytest process.
"""

import pytest

import cuperm

np = pytest.importorskip("numpy", reason="NumPy is not installed")
pytestmark = pytest.mark.skipif(cuperm.library_path() is None,
                                reason="libcuperm not built (pip install ./python)")


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
