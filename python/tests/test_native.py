"""cuperm._native, the compiled replay of the fast paths, on a CPU (stub libcuperm, stand-in torch).

test_fast_path.py runs every replay test with each replay (pure Python; native, with and without a
DLPack exchange API); this file checks what only the native one does: the C calls it makes through the
functions' addresses (read back from the stub library), its argument errors, and the fallback to the
Python replay when it is absent.
"""

import ctypes
import os
import subprocess
import sys

import pytest

import cuperm
from cuperm import _fast, _lib
from refcounts import replay_references_hold
from test_fast_path import fake_exchange, native_module, replay, stub_library, torch_env  # noqa: F401 (fixtures)

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)


def _stub(name, ctype):
    return ctype.in_dll(_lib.load(), name)


@pytest.fixture
def stub_state(torch_env):
    """The stub library's record of its last calls; its status and workspace size reset afterwards."""
    status, ws = _stub("stub_status", ctypes.c_int), _stub("stub_workspace_bytes", ctypes.c_size_t)
    yield status, ws
    status.value, ws.value = 0, 0


def test_replays_call_the_c_function_with_the_general_paths_arguments(torch_env, stub_state):
    torch, Tensor, state = torch_env
    x = Tensor((4, 8))
    cuperm.transpose(x, (1, 0))
    (entry,) = _fast.transposes.values()
    x2 = Tensor((4, 8), ptr=0x7f1000000000)
    y = cuperm.transpose(x2, [1, 0])
    last = list(_stub("stub_last_execute", ctypes.c_uint64 * 6))
    assert last == [entry[1], entry[2], 0x7f1000000000, entry[3], y.data_ptr(), 0xBEEF]


def test_einsum_replay_passes_its_workspace(torch_env, stub_state):
    torch, Tensor, state = torch_env
    _, ws = stub_state
    ws.value = 4096
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    cuperm.einsum("ij,jk->ik", a, b)
    (entry,) = _fast.contractions.values()
    assert entry[6] == 4096  # workspace_bytes (_fast.py: the entry layout)
    before = state.next_ptr
    d = cuperm.einsum("ij,jk->ik", a, b)
    last = list(_stub("stub_last_contract", ctypes.c_uint64 * 10))
    (_, w, _), = _fast.workspaces.values()  # the stream's, made by the first call
    assert d.data_ptr() == before + 0x100000 == state.next_ptr
    assert last == [entry[1], entry[2], 0x7f1000000000, 0x7f2000000000, entry[3], d.data_ptr(), d.data_ptr(), w,
                    4096, 0xBEEF]


def test_a_failed_c_call_raises_the_same_error_in_both_replays(torch_env, stub_state):
    torch, Tensor, state = torch_env
    status, _ = stub_state
    x = Tensor((4, 8))
    cuperm.transpose(x, (1, 0))
    a, b = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000)
    cuperm.einsum("ij,jk->ik", a, b)
    status.value = 1  # CUPERM_STATUS_INVALID_VALUE
    with pytest.raises(cuperm.InvalidValueError, match="CUPERM_STATUS_STUB"):
        _fast.transpose(x, (1, 0), 1)
    with pytest.raises(cuperm.InvalidValueError):
        _fast.einsum("ij,jk->ik", a, b, 1, None)
    status.value = 2
    with pytest.raises(cuperm.NotSupportedError):
        cuperm.transpose(x, (1, 0))


def test_keys_that_cannot_be_looked_up_go_to_the_general_path(torch_env):
    torch, Tensor, state = torch_env
    x = Tensor((4, 8))
    cuperm.transpose(x, (1, 0))
    assert _fast.transpose(x, (1, 0), [1.0]) is None               # unhashable alpha
    assert _fast.transpose(x, [[1], 0], 1) is None                 # unhashable axes
    assert _fast.transpose_into(x, (1, 0), 1, 0, object(), ) is None  # out is no tensor
    a = Tensor((8, 8))
    assert _fast.einsum("ij,jk->ik", a, a, 1, "no such type") is None
    with pytest.raises(ValueError):                                 # the general path says why, as before
        cuperm.einsum("ij,jk->ik", a, a, compute="no such type")


def test_replays_leak_no_references(torch_env, stub_state):
    """Every object a replay touches (tensors, dtype, prototype, entry, scalars) has the references it
    had before a thousand replays of each kind (a leak or a lost reference in the C code shows here)."""
    torch, Tensor, state = torch_env
    x, out = Tensor((4, 8)), Tensor((8, 4), ptr=0x7e0000000000)
    a, b, d = Tensor((8, 8), ptr=0x7f1000000000), Tensor((8, 8), ptr=0x7f2000000000), Tensor((8, 8), ptr=0x7d0000000000)
    calls = [lambda: cuperm.transpose(x, (1, 0)), lambda: cuperm.transpose(x, (1, 0), out=out),
             lambda: cuperm.einsum("ij,jk->ik", a, b), lambda: cuperm.einsum("ij,jk->ik", a, b, out=d, beta=0.5)]
    # the stand-in's allocation log holds dtypes: emptied before each count
    assert replay_references_hold(calls, [x, out, a, b, d, torch.float32], 1000, state.allocations.clear)


def test_native_argument_errors(native_module):
    with pytest.raises(TypeError):
        native_module.transpose({}, None, (1, 0))
    with pytest.raises(TypeError):
        native_module.einsum({}, "ij,jk->ik")
    with pytest.raises(TypeError):
        native_module.bind(None)
    with pytest.raises(AttributeError):  # not a tensor: the key cannot be made (not a lookup miss)
        native_module.transpose({}, object(), (1, 0), 1)


def _in_subprocess(code, **env):
    out = subprocess.run([sys.executable, "-c", code], cwd=PYTHON_DIR, env=dict(os.environ, **env),
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_python_replay_without_the_module():
    code = "import sys; sys.modules['cuperm._native'] = None\nimport cuperm\nprint(cuperm._fast._native)"
    assert _in_subprocess(code) == "None"
    assert _in_subprocess("import cuperm; print(cuperm._fast._native)", CUPERM_NO_NATIVE="1") == "None"
