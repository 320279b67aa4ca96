"""The per-call fast paths (cuperm._fast) and the CUDA library preloading, on a CPU.

A do-nothing libcuperm (bench/python/stub_cuperm.c, compiled here with `cc`) stands in for the real
one and a stand-in `torch` module for PyTorch: the first call takes the general path, which must
remember it; a repeated call must then replay exactly the C call the general path made (same plan,
same scalars, the new tensors' pointers, the current stream), and anything the key cannot tell
(autograd, torch.compile, lazy conjugation, another current device) must go back to the general path.
"""

import ctypes
import os
import shutil
import subprocess
import sys
import types
from itertools import repeat

import pytest

import cuperm
from cuperm import _context, _cudart, _fast, _lib

from native_build import load_fake_exchange, load_native

STUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "bench", "python",
                    "stub_cuperm.c")


@pytest.fixture(scope="module")
def stub_library(tmp_path_factory):
    cc = shutil.which(os.environ.get("CC", "cc"))
    if cc is None or not os.path.exists(STUB):
        pytest.skip("needs a C compiler and bench/python/stub_cuperm.c")
    path = str(tmp_path_factory.mktemp("stub") / "libcuperm_stub.so")
    subprocess.check_call([cc, "-O1", "-shared", "-fPIC", "-o", path, STUB])
    return path


class Dev:
    def __init__(self, index):
        self.type, self.index = "cuda", index

    def __eq__(self, other):
        return isinstance(other, Dev) and other.index == self.index

    def __hash__(self):
        return hash(("cuda", self.index))


class Dtype:
    def __init__(self, name, itemsize, dl=None):
        self.name, self.itemsize = name, itemsize
        if dl is not None:
            self.dl = dl  # DLPack's (code, bits), read by the stand-in exchange API

    def __str__(self):
        return "torch." + self.name


def _contiguous(shape):
    from cuperm._layout import contiguous_strides
    return contiguous_strides(shape)


@pytest.fixture(scope="module")
def native_module(tmp_path_factory):
    """cuperm._native: the package's own, else compiled here (skips without a compiler or Python.h)."""
    return load_native(tmp_path_factory.mktemp("native"))


@pytest.fixture(scope="module")
def fake_exchange(tmp_path_factory):
    """tests/fake_exchange.c: a DLPack C exchange API for the stand-in tensors."""
    return load_fake_exchange(tmp_path_factory.mktemp("exchange"))


@pytest.fixture(params=["python", "native", "exchange"])
def replay(request, monkeypatch):
    """Runs a test with each replay of _fast: the pure-Python one, cuperm._native reading tensors
    through their attributes, and cuperm._native reading them through a DLPack exchange API."""
    monkeypatch.setattr(_fast, "_native", request.getfixturevalue("native_module") if request.param != "python"
                        else None)
    return request.param


@pytest.fixture
def torch_env(monkeypatch, stub_library, replay, request):
    """Stand-in torch + stub library; restores the package's global state afterwards."""
    torch = types.ModuleType("torch")
    torch.strided = object()
    torch.float32, torch.uint8 = Dtype("float32", 4, (2, 32)), Dtype("uint8", 1, (1, 8))
    state = types.SimpleNamespace(device=0, grad=True, compiling=False, next_ptr=0x7a0000000000, stream=0xBEEF,
                                  capturing=False, allocations=[])

    class Tensor:
        def __init__(self, shape, strides=None, ptr=0x7f0000000000, dtype=torch.float32, device=0,
                     requires_grad=False, conj=False):
            self.shape, self.dtype, self.device = tuple(shape), dtype, Dev(device)
            self.stride = repeat(tuple(strides) if strides is not None else _contiguous(shape)).__next__
            self.data_ptr = repeat(ptr).__next__
            self.requires_grad, self.layout, self._conj = requires_grad, torch.strided, conj
            self.is_neg = repeat(False).__next__
            self.get_device = repeat(device).__next__

        def is_conj(self):
            return self._conj

        def resolve_conj(self):
            return Tensor(self.shape, None, self.data_ptr() + 0x100000, self.dtype, self.device.index)

        def resolve_neg(self):
            return self

        def dim(self):
            return len(self.shape)

        def new_empty(self, shape):
            return empty(shape, dtype=self.dtype, device=self.device)

        def expand(self, shape):  # of a one-element tensor only
            assert all(n == 1 for n in self.shape)
            return Tensor(shape, strides=(0,) * len(shape), ptr=self.data_ptr(), dtype=self.dtype,
                          device=self.device.index)

        def detach(self):
            return self

    Tensor.__module__ = "torch"
    if replay == "exchange":
        Tensor.__dlpack_c_exchange_api__ = request.getfixturevalue("fake_exchange").capsule(
            lambda device: state.stream)

    def empty(shape, dtype=None, device=None):
        state.next_ptr += 0x100000
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        state.allocations.append((state.next_ptr, dtype or torch.float32))
        return Tensor(shape, ptr=state.next_ptr, dtype=dtype or torch.float32,
                      device=device.index if isinstance(device, Dev) else 0)

    def empty_like(t, memory_format=None):
        assert memory_format is torch.contiguous_format  # the stand-in makes row-major tensors only
        return empty(t.shape, dtype=t.dtype, device=t.device)

    torch.Tensor, torch.empty, torch.empty_like, torch.contiguous_format = Tensor, empty, empty_like, object()
    torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream=lambda device: state.stream,
                                     _cuda_getDevice=lambda: state.device,
                                     _cuda_isCurrentStreamCapturing=lambda: state.capturing)
    torch.compiler = types.SimpleNamespace(is_compiling=lambda: state.compiling)
    torch.is_grad_enabled = lambda: state.grad
    monkeypatch.setitem(sys.modules, "torch", torch)
    # _torch_ops needs torch.library: general-path calls here never need the custom ops.
    monkeypatch.setitem(sys.modules, "cuperm._torch_ops", types.SimpleNamespace(
        wants_op=lambda arrays: any(t.requires_grad for t in arrays) and state.grad))

    lib = ctypes.CDLL(stub_library)
    _lib._declare(lib)
    monkeypatch.setattr(_lib, "_loaded", [lib])
    monkeypatch.setattr(_cudart, "_fns", {})
    _reset_context()
    for name in ("tensor_type", "_empty", "_empty_like", "_contiguous", "_get_device", "_raw_stream", "_is_compiling",
                 "_grad_enabled", "_uint8", "_capturing"):
        monkeypatch.setattr(_fast, name, None)
    monkeypatch.setattr(_fast, "transposes", {})
    monkeypatch.setattr(_fast, "contractions", {})
    cuperm.clear_workspace_cache()
    yield torch, Tensor, state
    _reset_context()  # no stub handle or plan may outlive the stub library
    cuperm.clear_workspace_cache()


def _reset_context():
    _context.default.clear()
    _context.default._handles.clear()


def _record(table):
    """Replaces the C function of the table's only entry with a recorder of its arguments."""
    (key, entry), = table.items()
    calls = []
    table[key] = (lambda *args: calls.append(args) or 0,) + entry[1:]
    return entry, calls


def test_transpose_replays_the_general_paths_call(torch_env):
    torch, Tensor, state = torch_env
    x = Tensor((4, 8))
    first = cuperm.transpose(x, (1, 0))
    assert first.shape == (8, 4) and len(_fast.transposes) == 1
    entry, calls = _record(_fast.transposes)
    x2 = Tensor((4, 8), ptr=0x7f1000000000)
    second = cuperm.transpose(x2, (1, 0))
    assert second.shape == (8, 4) and second.dtype is torch.float32
    (plan, alpha, xp, beta, outp, stream), = calls
    assert (plan, alpha, beta) == entry[1:4] and (xp, outp, stream) == (0x7f1000000000, second.data_ptr(), 0xBEEF)
    assert ctypes.c_float.from_address(alpha).value == 1.0 and ctypes.c_float.from_address(beta).value == 0.0
    cuperm.transpose(x2, [1, 0])                       # a list of axes is the same call
    assert len(calls) == 2


def test_transpose_fast_path_keys_and_guards(torch_env):
    torch, Tensor, state = torch_env
    x = Tensor((4, 8))
    cuperm.transpose(x, (1, 0))
    _, calls = _record(_fast.transposes)
    cuperm.transpose(x, (1, 0), alpha=2.0)             # another alpha: general path, then its own entry
    cuperm.transpose(Tensor((4, 8), strides=(16, 1)), (1, 0))  # other strides
    assert not calls and len(_fast.transposes) == 3
    assert _fast.transpose(Tensor((4, 8), requires_grad=True), (1, 0), 1) is None   # autograd records it
    assert _fast.transpose(Tensor((4, 8), conj=True), (1, 0), 1) is None
    state.compiling = True
    assert _fast.transpose(x, (1, 0), 1) is None
    state.compiling, state.device = False, 1
    assert _fast.transpose(x, (1, 0), 1) is None        # another current device: the general path switches
    state.device, state.grad = 0, False
    assert _fast.transpose(Tensor((4, 8), requires_grad=True), (1, 0), 1) is not None   # under no_grad
    assert len(calls) == 1
    cuperm.transpose(x, (1, 0), out=Tensor((8, 4), ptr=0x7e0000000000))   # out=: never the fast path
    assert len(calls) == 1
    cuperm.clear_cache()
    assert not _fast.transposes


def test_einsum_replays_the_general_paths_call(torch_env):
    torch, Tensor, state = torch_env
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    d = cuperm.einsum("ij,jk->ik", a, b)
    assert d.shape == (8, 8) and len(_fast.contractions) == 1
    entry, calls = _record(_fast.contractions)
    a2 = Tensor((8, 8), ptr=0x7f3000000000)
    d2 = cuperm.einsum("ij,jk->ik", a2, b)
    (plan, alpha, ap, bp, beta, cp, dp, ws, nbytes, stream), = calls
    assert (plan, alpha, beta) == entry[1:4] and (ap, bp, cp, dp) == (0x7f3000000000, 0x7f2000000000,
                                                                      d2.data_ptr(), d2.data_ptr())
    assert (ws, nbytes, stream) == (0, 0, 0xBEEF)
    assert ctypes.c_float.from_address(alpha).value == 1.0
    cuperm.einsum("ij,jk->ik", a2, b, compute=None, workspace="framework")   # the defaults spelled out
    assert len(calls) == 2
    cuperm.einsum("ij,jk->ik", a2, b, compute="32f")    # another compute type: general path
    cuperm.einsum("ij,jk->ik", a2, b, op_a="relu")      # operators: never the fast path
    cuperm.einsum("ij,jk->ik", a2, b, alpha=0.5)
    assert len(calls) == 2 and len(_fast.contractions) == 3
    cuperm.einsum("ij,jk->ik", a2, b, compute="fp32")   # an alias of '32f': that entry
    assert len(_fast.contractions) == 3
    assert _fast.einsum("ij,jk->ik", Tensor((8, 8), requires_grad=True), b, 1, None) is None
    assert _fast.einsum("ij,jk->ik", Tensor((8, 8), requires_grad=True), b, 1, None, internal=True) is None  # not
    # remembered as internal (the custom op's calls have their own entries)


def test_alpha_that_may_change_is_not_remembered(torch_env):
    torch, Tensor, state = torch_env

    class Scalar(float):  # a float subclass is immutable: fine
        pass
    x = Tensor((4, 8))
    cuperm.transpose(x, (1, 0), alpha=Scalar(1.0))
    assert len(_fast.transposes) == 1
    _fast.transposes.clear()
    assert not _fast._plain_number(types.SimpleNamespace())


def test_preload_finds_nvidia_wheels_on_sys_path(monkeypatch, tmp_path):
    lib_dir = tmp_path / "nvidia" / "cu13" / "lib"
    lib_dir.mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path)] + sys.path)
    assert str(lib_dir) in list(_lib._nvidia_lib_dirs(13))
    assert list(_lib._nvidia_lib_dirs(99)) == []


def test_preload_without_a_version_note_does_nothing(monkeypatch, tmp_path):
    monkeypatch.setattr(_lib, "_LIB_DIR", str(tmp_path))
    monkeypatch.setattr(_lib, "preloaded", [])
    assert _lib.built_cuda_version() is None
    _lib.preload_cuda_libraries()
    assert _lib.preloaded == []
    (tmp_path / "cuda_version.txt").write_text("13.0.88\n")
    assert _lib.built_cuda_version() == "13.0.88"


def test_transpose_into_out_replays_and_checks_overlap(torch_env):
    torch, Tensor, state = torch_env
    x, out = Tensor((4, 8)), Tensor((8, 4), ptr=0x7e0000000000)
    assert cuperm.transpose(x, (1, 0), out=out, beta=0.5) is out
    assert len(_fast.transposes) == 1
    entry, calls = _record(_fast.transposes)
    out2 = Tensor((8, 4), ptr=0x7e1000000000)
    assert cuperm.transpose(x, (1, 0), out=out2, beta=0.5) is out2
    (plan, alpha, xp, beta, op, stream), = calls
    assert (plan, xp, op, stream) == (entry[1], 0x7f0000000000, 0x7e1000000000, 0xBEEF)
    assert ctypes.c_float.from_address(beta).value == 0.5
    # Overlapping x: not replayed, and the general path refuses it.
    with pytest.raises(ValueError, match="overlaps"):
        cuperm.transpose(x, (1, 0), out=Tensor((8, 4), ptr=0x7f0000000010), beta=0.5)
    assert len(calls) == 1
    cuperm.transpose(x, (1, 0), out=out2, beta=0.25)   # another beta: its own entry
    assert len(calls) == 1 and len(_fast.transposes) == 2


def test_contraction_plan_replays_its_own_plan(torch_env):
    torch, Tensor, state = torch_env
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    plan = cuperm.ContractionPlan("ij,jk->ik", a, b, op_a="relu")
    plan(a, b)
    assert len(plan._fast_calls) == 1 and not _fast.contractions   # einsum's table untouched
    entry, calls = _record(plan._fast_calls)
    assert entry[1] == plan._res.plan.ptr
    d = plan(a, b)
    assert len(calls) == 1 and calls[0][5] == d.data_ptr()
    with pytest.raises(ValueError, match="do not match the plan"):
        plan(Tensor((8, 4)), b)


def test_contraction_plan_passes_its_algorithm(torch_env):
    torch, Tensor, state = torch_env
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    last = ctypes.c_int.in_dll(_lib.load(), "stub_last_algo")
    cuperm.ContractionPlan("ij,jk->ik", a, b, algo="gett")
    assert last.value == 2
    cuperm.ContractionPlan("ij,jk->ik", a, b, algo="ttgt")
    assert last.value == 1
    cuperm.ContractionPlan("ij,jk->ik", a, b)
    assert last.value == 0
    with pytest.raises(ValueError, match="algo must be"):
        cuperm.ContractionPlan("ij,jk->ik", a, b, algo="fast")


def test_einsum_into_out_replays_and_checks_overlap(torch_env, ws_bytes):
    torch, Tensor, state = torch_env
    ws_bytes.value = 4096
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    d = Tensor((8, 8), ptr=0x7e0000000000)
    assert cuperm.einsum("ij,jk->ik", a, b, out=d, beta=0.5) is d
    assert len(_fast.contractions) == 1
    entry, calls = _record(_fast.contractions)
    d2 = Tensor((8, 8), ptr=0x7e1000000000)
    assert cuperm.einsum("ij,jk->ik", a, b, out=d2, beta=0.5) is d2
    (plan, alpha, ap, bp, beta, cp, dp, ws, nbytes, stream), = calls
    assert (plan, alpha, beta) == entry[1:4]
    assert (ap, bp, cp, dp, stream) == (0x7f1000000000, 0x7f2000000000, 0x7e1000000000, 0x7e1000000000, 0xBEEF)
    assert ctypes.c_float.from_address(beta).value == 0.5 and ctypes.c_float.from_address(alpha).value == 1.0
    assert (ws, nbytes) == (_cached(0xBEEF)[1], 4096)   # the stream's cached workspace
    # out overlapping a or b: not replayed, and the general path refuses it.
    for ptr in (0x7f1000000010, 0x7f2000000000 - 8):
        with pytest.raises(ValueError, match="overlaps"):
            cuperm.einsum("ij,jk->ik", a, b, out=Tensor((8, 8), ptr=ptr), beta=0.5)
    assert len(calls) == 1
    cuperm.einsum("ij,jk->ik", a, b, out=d2, beta=0.25)            # another beta: its own entry
    cuperm.einsum("ij,jk->ik", a, b, out=Tensor((8, 8), strides=(1, 8), ptr=0x7e2000000000))  # out's strides
    assert len(calls) == 1 and len(_fast.contractions) == 3
    assert _fast.einsum_into("ij,jk->ik", a, b, Tensor((8, 8), requires_grad=True, ptr=0x7e3000000000), 1, 0.5,
                             None) is None
    assert _fast.einsum_into("ij,jk->ik", a, b, Tensor((8, 8), conj=True, ptr=0x7e3000000000), 1, 0.5, None) is None
    assert _fast.einsum_into("ij,jk->ik", Tensor((8, 8), requires_grad=True), b, d2, 1, 0.5, None) is None
    state.device = 1
    assert _fast.einsum_into("ij,jk->ik", a, b, d2, 1, 0.5, None) is None
    state.device = 0
    assert _fast.einsum_into("ij,jk->ik", a, b, d2, 1, 0.5, None) is d2 and len(calls) == 2


@pytest.mark.parametrize("replay", ["exchange"], indirect=True)
def test_native_replay_reads_tensors_through_the_exchange_api(torch_env, fake_exchange):
    torch, Tensor, state = torch_env
    x, out = Tensor((4, 8)), Tensor((8, 4), ptr=0x7e0000000000)
    cuperm.transpose(x, (1, 0), out=out)
    _, calls = _record(_fast.transposes)
    before = fake_exchange.exports()
    fake_exchange.capsule(lambda device: 0xCAFE)        # the stream comes from the exchange API's query
    assert cuperm.transpose(Tensor((4, 8), ptr=0x7f1000000000), (1, 0), out=out) is out
    xp, op, stream = calls[-1][2], calls[-1][4], calls[-1][5]
    assert (xp, op, stream) == (0x7f1000000000, 0x7e0000000000, 0xCAFE)
    assert fake_exchange.exports() == before + 2        # x and out, one export each
    # A dtype the exchange API cannot express: the tensor's attributes tell, and the replay still hits.
    torch.float64 = Dtype("float64", 8)
    y = Tensor((4, 8), dtype=torch.float64)
    cuperm.transpose(y, (1, 0))
    (key, entry), = [(k, e) for k, e in _fast.transposes.items() if k[2] is torch.float64]
    _fast.transposes[key] = (lambda *args: calls.append(args) or 0,) + entry[1:]
    r = cuperm.transpose(Tensor((4, 8), dtype=torch.float64, ptr=0x7f2000000000), (1, 0))
    assert r.dtype is torch.float64 and calls[-1][2] == 0x7f2000000000
    # Strides the key must tell apart come through the export as well.
    assert _fast.transpose_into(Tensor((4, 8), strides=(16, 1)), (1, 0), 1, 0, out) is None


@pytest.mark.parametrize("replay", ["exchange"], indirect=True)
def test_exchange_api_older_than_dlpack_1_2_is_not_used(torch_env, fake_exchange):
    torch, Tensor, state = torch_env
    Tensor.__dlpack_c_exchange_api__ = fake_exchange.capsule(lambda device: state.stream, 1)
    x, out = Tensor((4, 8)), Tensor((8, 4), ptr=0x7e0000000000)
    cuperm.transpose(x, (1, 0), out=out)
    _, calls = _record(_fast.transposes)
    before = fake_exchange.exports()
    assert cuperm.transpose(x, (1, 0), out=out) is out and len(calls) == 1
    assert fake_exchange.exports() == before


def test_contraction_plan_with_out_replays_its_own_plan(torch_env):
    torch, Tensor, state = torch_env
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    d = Tensor((8, 8), ptr=0x7e0000000000)
    plan = cuperm.ContractionPlan("ij,jk->ik", a, b, out=d, op_d="relu")
    assert plan(a, b, out=d, alpha=2.0, beta=1.0) is d
    assert len(plan._fast_calls) == 1 and not _fast.contractions
    entry, calls = _record(plan._fast_calls)
    assert entry[1] == plan._res.plan.ptr
    d2 = Tensor((8, 8), ptr=0x7e1000000000)
    assert plan(a, b, out=d2, alpha=2.0, beta=1.0) is d2
    (p, alpha, ap, bp, beta, cp, dp, ws, nbytes, stream), = calls
    assert (cp, dp) == (0x7e1000000000, 0x7e1000000000)
    assert ctypes.c_float.from_address(alpha).value == 2.0 and ctypes.c_float.from_address(beta).value == 1.0
    with pytest.raises(ValueError, match="do not match the plan"):
        plan(a, b, out=Tensor((8, 8), strides=(1, 8), ptr=0x7e2000000000))
    assert len(calls) == 1


# --- the contraction workspace, cached per stream ----------------------------------------------------

@pytest.fixture
def ws_bytes(torch_env):
    """The workspace the stub's contraction plans need (those made from now on); 0 again afterwards."""
    ws = ctypes.c_size_t.in_dll(_lib.load(), "stub_workspace_bytes")
    yield ws
    ws.value = 0


def _last_workspace():
    """(pointer, bytes) the last cupermContract call got (the stub records it)."""
    last = (ctypes.c_uint64 * 10).in_dll(_lib.load(), "stub_last_contract")
    return last[7], last[8]


def _new_workspace(state, since):
    """The pointer of the workspace (uint8 tensor) allocated after allocation number `since`, or None."""
    made = [ptr for ptr, dtype in state.allocations[since:] if dtype.name == "uint8"]
    return made[-1] if len(made) == 1 else None


def _cached(stream, device=0):
    nbytes, ptr, w = _fast.workspaces[device, stream]
    assert w.data_ptr() == ptr and w.shape == (nbytes,) and w.dtype.name == "uint8"
    return nbytes, ptr


def test_workspace_is_reused_on_its_stream(torch_env, ws_bytes):
    torch, Tensor, state = torch_env
    ws_bytes.value = 4096
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    cuperm.einsum("ij,jk->ik", a, b)                    # the general path makes the stream's workspace
    plan = cuperm.ContractionPlan("ij,jk->ik", a, b)
    plan(a, b)
    _, ptr = _cached(0xBEEF)
    assert list(_fast.workspaces) == [(0, 0xBEEF)] and _last_workspace() == (ptr, 4096)
    for call in (lambda: cuperm.einsum("ij,jk->ik", a, b), lambda: plan(a, b)):   # the replays
        before = state.next_ptr
        d = call()
        assert state.next_ptr == before + 0x100000 == d.data_ptr()   # the result: the only allocation
        assert _last_workspace() == (ptr, 4096)
    state.stream = 0xCAFE                                # another stream: its own workspace
    cuperm.einsum("ij,jk->ik", a, b)
    _, other = _cached(0xCAFE)
    assert other != ptr and _last_workspace() == (other, 4096) and len(_fast.workspaces) == 2
    state.stream = 0xBEEF
    plan(a, b)
    assert _last_workspace() == (ptr, 4096)


def test_workspace_grows_for_a_plan_that_needs_more(torch_env, ws_bytes):
    torch, Tensor, state = torch_env
    ws_bytes.value = 4096
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    cuperm.einsum("ij,jk->ik", a, b)
    _, small = _cached(0xBEEF)
    ws_bytes.value = 8192
    c = Tensor((8, 16), ptr=0x7f3000000000)
    cuperm.einsum("ij,jk->ik", a, c)                    # a new plan needing more: replaces it
    nbytes, big = _cached(0xBEEF)
    assert nbytes == 8192 and big != small and len(_fast.workspaces) == 1
    assert _last_workspace() == (big, 8192)
    cuperm.einsum("ij,jk->ik", a, c)                    # replay
    cuperm.einsum("ij,jk->ik", a, b)                    # the smaller plan uses the bigger workspace
    assert _last_workspace() == (big, 4096) and _cached(0xBEEF) == (8192, big)


def test_workspace_is_not_cached_while_capturing(torch_env, ws_bytes):
    torch, Tensor, state = torch_env
    ws_bytes.value = 4096
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    cuperm.einsum("ij,jk->ik", a, b)
    cached = _fast.workspaces[0, 0xBEEF]
    state.capturing = True                               # a CUDA graph owns what it uses: one per call
    seen = set()
    for call in (lambda: cuperm.einsum("ij,jk->ik", a, b), lambda: cuperm.einsum("ij,jk->ik", a, b),
                 lambda: cuperm.einsum("ij,jk->ik", a, b, alpha=2.0)):   # two replays, the general path
        before = len(state.allocations)
        call()
        ws = _new_workspace(state, before)
        assert ws is not None and _last_workspace() == (ws, 4096)
        seen.add(ws)
    assert len(seen) == 3 and list(_fast.workspaces.values()) == [cached]
    state.capturing = False
    cuperm.einsum("ij,jk->ik", a, b)
    assert _last_workspace() == (cached[1], 4096)


def test_workspace_cache_is_bounded_and_cleared(torch_env, ws_bytes):
    torch, Tensor, state = torch_env
    ws_bytes.value = 4096
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    for stream in range(1, _fast.MAX_WORKSPACES + 3):
        state.stream = stream
        cuperm.einsum("ij,jk->ik", a, b)
    assert list(_fast.workspaces) == [(0, s) for s in range(3, _fast.MAX_WORKSPACES + 3)]   # the oldest went
    cuperm.clear_workspace_cache()
    assert not _fast.workspaces
    cuperm.einsum("ij,jk->ik", a, b)
    assert _last_workspace() == (_cached(state.stream)[1], 4096)


def test_workspace_of_another_stream_or_device_is_not_cached(torch_env, ws_bytes):
    torch, Tensor, state = torch_env
    ws_bytes.value = 4096
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    before = len(state.allocations)
    cuperm.einsum("ij,jk->ik", a, b, stream=0xBEEF)     # stream=: per call, as before
    assert not _fast.workspaces and _last_workspace() == (_new_workspace(state, before), 4096)
    a1, b1 = Tensor((8, 8), device=1), Tensor((8, 8), ptr=0x7f2000000000, device=1)
    before = len(state.allocations)
    cuperm.einsum("ij,jk->ik", a1, b1)                  # device 1, while 0 is current
    assert not _fast.workspaces and _last_workspace() == (_new_workspace(state, before), 4096)


def test_workspace_without_a_capture_query_is_never_cached(torch_env, ws_bytes):
    torch, Tensor, state = torch_env
    del torch._C._cuda_isCurrentStreamCapturing          # a PyTorch that cannot say: per call
    ws_bytes.value = 4096
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    cuperm.einsum("ij,jk->ik", a, b)
    cuperm.einsum("ij,jk->ik", a, b)
    assert len(_fast.contractions) == 1 and not _fast.workspaces and _last_workspace() == (state.next_ptr, 4096)
