#!/usr/bin/env python3
"""Host overhead of cuperm's Python layer on a CPU-only machine: every call runs the package's full
per-call path, with the GPU parts replaced by stand-ins:

  - libcuperm is a do-nothing C library (stub_cuperm.c, compiled here with `cc`): the ctypes calls
    are real, the C side returns at once;
  - `torch` is a stand-in module whose tensors have torch.Tensor's attributes (shape, stride(),
    dtype, device, data_ptr(), ...) as plain Python; torch.empty returns such a tensor at once.

So the numbers are the Python + ctypes part of a call only: on a GPU add the C library's own time
(pointer checks, kernel launch) and PyTorch's torch.empty (its caching allocator). The lead's GPU
run (bench/python/einsum_bench.py / host_overhead.py) measures the whole. --profile prints cProfile.

--workspace BYTES makes the contraction plans need that much workspace (fp32 plans on a GPU: 32 MiB),
which cuperm takes from the stream's cached one (cuperm._fast.workspace); --capturing has every call
see a capturing stream, which bypasses that cache (a torch.empty per call, as before the cache).

    python3 bench/python/overhead_stub.py [--calls 200000] [--profile] [--workspace 33554432] [--capturing]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time
import types
from itertools import repeat

HERE = os.path.dirname(os.path.abspath(__file__))


def build_stub():
    d = tempfile.mkdtemp(prefix="cuperm-stub-")
    lib = os.path.join(d, "libcuperm_stub.so")
    subprocess.check_call([os.environ.get("CC", "cc"), "-O2", "-shared", "-fPIC", "-o", lib,
                           os.path.join(HERE, "stub_cuperm.c")])
    return lib


class Size(tuple):
    """torch.Size: a tuple subclass."""


class Device:
    __slots__ = ("type", "index")

    def __init__(self, type, index):
        self.type, self.index = type, index

    def __eq__(self, other):
        return isinstance(other, Device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))


class Dtype:
    def __init__(self, name, itemsize):
        self.name, self.itemsize = name, itemsize

    def __str__(self):
        return "torch." + self.name

    def __reduce__(self):
        return self.name


def contiguous(shape):
    strides, step = [], 1
    for extent in reversed(shape):
        strides.append(step)
        step *= max(extent, 1)
    return tuple(reversed(strides))


def make_fake_torch(capturing=False):
    torch = types.ModuleType("torch")
    torch.strided = object()
    torch.float32 = Dtype("float32", 4)
    torch.uint8 = Dtype("uint8", 1)
    cuda0 = Device("cuda", 0)

    class Tensor:
        """The attributes cuperm reads; the methods are C callables (itertools.repeat(v).__next__), so
        that calling them costs about what torch.Tensor's C methods do."""
        __slots__ = ("shape", "stride", "data_ptr", "dtype", "device", "requires_grad", "layout", "is_conj",
                     "is_neg", "dim", "get_device")

        def __init__(self, shape, strides=None, ptr=0x7f0000000000, dtype=torch.float32, device=cuda0):
            self.shape = Size(shape)
            self.stride = repeat(tuple(strides) if strides is not None else contiguous(shape)).__next__
            self.data_ptr = repeat(ptr).__next__
            self.dtype, self.device = dtype, device
            self.requires_grad, self.layout = False, torch.strided
            self.is_conj = self.is_neg = repeat(False).__next__
            self.dim = repeat(len(shape)).__next__
            self.get_device = repeat(device.index).__next__

        def detach(self):
            return self

    Tensor.__module__ = "torch"
    torch.Tensor = Tensor
    counter = [0x7a0000000000]
    pool = {}

    def empty(shape, dtype=None, device=None):
        # Like PyTorch's caching allocator handing back a freed block: one stand-in tensor per
        # (shape, dtype), so that the stand-in costs little next to the code measured.
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        t = pool.get((shape, dtype))
        if t is None:
            counter[0] += 0x100000
            t = pool[shape, dtype] = Tensor(shape, ptr=counter[0], dtype=dtype or torch.float32, device=cuda0)
        return t

    torch.empty = empty
    torch.ones = lambda shape, dtype=None, device=None: Tensor(tuple(shape), dtype=dtype or torch.float32)
    # C callables, as PyTorch's are (a Python lambda would cost more than the real call).
    torch._C = types.SimpleNamespace(_cuda_getCurrentRawStream={0: 0}.get, _cuda_getDevice=repeat(0).__next__,
                                     _cuda_isCurrentStreamCapturing=repeat(capturing).__next__)
    torch.cuda = types.SimpleNamespace(current_device=repeat(0).__next__)
    torch.compiler = types.SimpleNamespace(is_compiling=repeat(False).__next__)
    torch.is_grad_enabled = repeat(True).__next__

    class _Op:  # torch.library.custom_op's result, enough for cuperm._torch_ops to import
        def __init__(self, fn):
            self.fn = fn

        def __call__(self, *a):
            return self.fn(*a)

        def register_fake(self, fn):
            return fn

        def register_autograd(self, *a, **k):
            pass

    torch.library = types.SimpleNamespace(custom_op=lambda name, mutates_args: _Op)
    return torch


def per_call_us(fn, calls, rounds=15):
    """Best of `rounds` timings of calls/rounds back-to-back calls (the minimum filters out other
    processes on a shared machine)."""
    n = max(1, calls // rounds)
    for _ in range(min(1000, n)):
        fn()
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter_ns() - t0) / n / 1e3)
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--calls", type=int, default=100000)
    p.add_argument("--profile", action="store_true")
    p.add_argument("--workspace", type=int, default=0, help="bytes of workspace the contraction plans need")
    p.add_argument("--capturing", action="store_true", help="every call sees a capturing stream")
    p.add_argument("--package-dir", default=os.path.join(HERE, os.pardir, os.pardir, "python"),
                   help="the folder holding the cuperm package to measure (e.g. an older checkout's python/)")
    args = p.parse_args()
    os.environ["CUPERM_LIBRARY"] = build_stub()
    torch = sys.modules["torch"] = make_fake_torch(args.capturing)
    sys.path.insert(0, args.package_dir)
    import ctypes
    import cuperm
    ctypes.c_size_t.in_dll(ctypes.CDLL(os.environ["CUPERM_LIBRARY"]), "stub_workspace_bytes").value = args.workspace
    x = torch.Tensor((4, 8))
    xo = torch.empty((8, 4))
    a, b = torch.Tensor((8, 8), ptr=0x7f1000000000), torch.Tensor((8, 8), ptr=0x7f2000000000)
    plan = cuperm.ContractionPlan("ij,jk->ik", a, b)
    cases = {
        "cuperm.transpose(x 4x8, (1,0))": lambda: cuperm.transpose(x, (1, 0)),
        "cuperm.transpose(x, (1,0), out=)": lambda: cuperm.transpose(x, (1, 0), out=xo),
        "cuperm.einsum('ij,jk->ik', 8x8, 8x8)": lambda: cuperm.einsum("ij,jk->ik", a, b),
        "ContractionPlan(a, b)": lambda: plan(a, b),
        "(fake torch.empty alone)": lambda: torch.empty((8, 4), dtype=torch.float32, device=x.device),
    }
    if args.profile:
        import cProfile
        import pstats
        for name, fn in cases.items():
            print("====", name)
            pr = cProfile.Profile()
            pr.enable()
            for _ in range(20000):
                fn()
            pr.disable()
            pstats.Stats(pr).sort_stats("tottime").print_stats(12)
    noop = per_call_us(lambda: None, args.calls)
    empty = per_call_us(cases.pop("(fake torch.empty alone)"), args.calls)
    print("Python + ctypes host overhead per cached call, C library stubbed, stand-in torch (us; best of 15):")
    print("  %-40s %8s %14s %10s" % ("call", "us/call", "w/o t.empty", "/ noop"))
    for name, fn in cases.items():
        us = per_call_us(fn, args.calls)
        allocates = "out=" not in name
        print("  %-40s %8.2f %14s %10.0f" % (name, us, "%.2f" % (us - empty) if allocates else "-", us / noop))
    print("  (a call of `lambda: None` here: %.3f us; the stand-in torch.empty: %.2f us)" % (noop, empty))


if __name__ == "__main__":
    main()
