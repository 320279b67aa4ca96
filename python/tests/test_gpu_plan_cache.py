"""cuperm.save_plan_cache / load_plan_cache: measured decisions of one process's handle written
to a file and read into a fresh handle (a second cuperm context, as another process would
have), where planning the same problems returns the measured choices."""

import warnings

import pytest

import cuperm
from cuperm import _context

torch = pytest.importorskip("torch", reason="PyTorch is not installed")
pytestmark = [
    pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU visible to PyTorch"),
    pytest.mark.skipif(cuperm.library_path() is None, reason="libcuperm not built (pip install ./python)"),
]


def test_round_trip(tmp_path, monkeypatch):
    path = tmp_path / "plans.cuperm"
    x = torch.randn(300, 257, 40, device="cuda")
    out = torch.empty(40, 300, 257, device="cuda")
    measured = cuperm.Plan.for_arrays(x, out, (2, 0, 1), measure=True).info
    assert measured["measured"]
    assert cuperm.save_plan_cache(path) >= 1
    # A fresh context has a fresh handle: the plan is heuristic there until the file is read.
    fresh = _context.Context()
    monkeypatch.setattr(cuperm, "_default_context", fresh)
    assert cuperm.load_plan_cache(path) >= 1
    device = torch.cuda.current_device()
    plan = _context.CPlan(fresh.handle(device), device, _context.default.layout(
        tuple(x.shape), tuple(x.stride()), (2, 0, 1), tuple(out.stride()), 4).problem, cuperm.dtype("float32"))
    info = plan.info()
    assert info["measured"]
    assert (info["kernel"], info["blocks"]) == (measured["kernel"], measured["blocks"])


def test_damaged_file_is_ignored_with_a_warning(tmp_path):
    path = tmp_path / "plans.cuperm"
    path.write_bytes(b"not a plan cache\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert cuperm.load_plan_cache(path) == 0
    assert any("not a cuperm plan-cache file" in str(w.message) for w in caught)


def test_missing_file_raises(tmp_path):
    with pytest.raises(cuperm.InvalidValueError):
        cuperm.load_plan_cache(tmp_path / "missing.cuperm")
