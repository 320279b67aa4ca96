"""transpose() and Plan() argument handling: every error here is raised before any GPU work."""

import pytest

import cuperm
from cuperm import _frameworks
from fakes import FakeCudaArray

X = 0x7f0000000000       # fake device addresses, far apart
OUT = 0x7f1000000000


def test_transpose_rejects_non_cuda_inputs():
    with pytest.raises(TypeError, match="must be a CUDA array"):
        cuperm.transpose([[1, 2], [3, 4]])
    np = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match="x lives on the CPU"):
        cuperm.transpose(np.zeros((2, 3)))
    with pytest.raises(TypeError, match="out lives on the CPU"):
        cuperm.transpose(FakeCudaArray((2, 3), ptr=X), out=np.zeros((3, 2), dtype=np.float32))


@pytest.mark.parametrize("axes,match", [((0, 0), "repeats"), ((0, 1, 2), "3 entries"), ((0, 5), "out of range"),
                                        ("ab", "integers")])
def test_transpose_rejects_bad_axes(axes, match):
    with pytest.raises((ValueError, TypeError), match=match):
        cuperm.transpose(FakeCudaArray((2, 3), ptr=X), axes, out=FakeCudaArray((3, 2), ptr=OUT))


def test_transpose_checks_out_against_the_result():
    x = FakeCudaArray((2, 3, 4), ptr=X)
    with pytest.raises(ValueError, match=r"out has shape \(4, 3, 2\) but .* has shape \(3, 4, 2\)"):
        cuperm.transpose(x, (1, 2, 0), out=FakeCudaArray((4, 3, 2), ptr=OUT))
    with pytest.raises(TypeError, match="dtype float64 but x has dtype float32"):
        cuperm.transpose(x, out=FakeCudaArray((4, 3, 2), "<f8", ptr=OUT))
    with pytest.raises(ValueError, match="read-only"):
        cuperm.transpose(x, out=FakeCudaArray((4, 3, 2), ptr=OUT, readonly=True))


def test_transpose_rejects_strides_cuperm_cannot_take():
    with pytest.raises(ValueError, match="x has a negative stride"):
        cuperm.transpose(FakeCudaArray((2, 3), ptr=X + 64, strides=(-3, 1)), out=FakeCudaArray((3, 2), ptr=OUT))
    with pytest.raises(ValueError, match="out has stride 0"):
        cuperm.transpose(FakeCudaArray((2, 3), ptr=X), out=FakeCudaArray((3, 2), ptr=OUT, strides=(0, 1)))


def test_transpose_rejects_overlap():
    x = FakeCudaArray((4, 4), ptr=X)
    with pytest.raises(ValueError, match="overlaps"):
        cuperm.transpose(x, out=FakeCudaArray((4, 4), ptr=X + 32))
    with pytest.raises(ValueError, match="overlaps"):
        cuperm.transpose(x, out=FakeCudaArray((4, 4), ptr=X - 60))


def test_transpose_scalars():
    x = FakeCudaArray((2, 3), "<i4", ptr=X)
    out = FakeCudaArray((3, 2), "<i4", ptr=OUT)
    with pytest.raises(ValueError, match="alpha=0.5 must be an integer"):
        cuperm.transpose(x, out=out, alpha=0.5)
    with pytest.raises(ValueError, match="beta=2 reads the output, so it needs out="):
        cuperm.transpose(x, beta=2)
    with pytest.raises(TypeError, match="alpha must be a number"):
        cuperm.transpose(x, out=out, alpha=None)
    b = FakeCudaArray((2, 3), "|b1", ptr=X)
    with pytest.raises(ValueError, match="plain move"):
        cuperm.transpose(b, out=FakeCudaArray((3, 2), "|b1", ptr=OUT), beta=1)


def test_transpose_without_out_needs_a_known_framework():
    with pytest.raises(TypeError, match="pass out="):
        cuperm.transpose(FakeCudaArray((2, 3), ptr=X))


def test_transpose_rejects_bad_streams():
    x, out = FakeCudaArray((2, 3), ptr=X), FakeCudaArray((3, 2), ptr=OUT)
    with pytest.raises(TypeError, match="stream must be"):
        cuperm.transpose(x, out=out, stream="default")
    with pytest.raises(ValueError, match=">= 0"):
        cuperm.transpose(x, out=out, stream=-1)
    with pytest.raises(TypeError, match="bool"):
        cuperm.transpose(x, out=out, stream=True)


def test_empty_arrays_need_no_gpu():
    out = FakeCudaArray((0, 2), ptr=0)
    assert cuperm.transpose(FakeCudaArray((2, 0), ptr=0), out=out) is out


def test_stream_handles_from_framework_objects():
    class TorchStream:
        cuda_stream = 77

    class CupyStream:
        ptr = 78

    class NumbaStream:
        class handle:
            value = 79

    class CudaPythonStream:
        def __cuda_stream__(self):
            return (0, 80)
    assert [_frameworks.stream_handle(s) for s in (TorchStream(), CupyStream(), NumbaStream(),
                                                   CudaPythonStream(), 81)] == [77, 78, 79, 80, 81]


def test_framework_names():
    assert _frameworks.name_of(FakeCudaArray((1,))) is None
    assert _frameworks.name_of(1.0) is None


def test_plan_rejects_bad_arguments_before_touching_the_device():
    with pytest.raises(ValueError, match="repeats"):
        cuperm.Plan((2, 3), (1, 1))
    with pytest.raises(TypeError, match="not supported"):
        cuperm.Plan((2, 3), dtype="float128")
    with pytest.raises(ValueError, match="out_strides has stride 0"):
        cuperm.Plan((2, 3), out_strides=(0, 1))
    with pytest.raises(ValueError, match="x_strides has 1 entries for 2 dimensions"):
        cuperm.Plan((2, 3), x_strides=(1,))
    with pytest.raises(ValueError, match="negative extent"):
        cuperm.Plan((2, -3))
