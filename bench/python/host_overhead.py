#!/usr/bin/env python3
"""Host overhead per cached call on a GPU machine: cuperm vs PyTorch vs CuPy (target <= 10 us).

Tiny problems, so that the host side is all there is: a 4x8 float32 transpose and an 8x8 @ 8x8
float32 einsum ("ij,jk->ik"). Each call is made --calls times back to back after a warm-up (so every
cache is hot), in --rounds rounds of one synchronize each, interleaved across the calls (round r of
every call before round r + 1); the best and median round are
reported in microseconds per call. Writes overhead.csv to --out ($OUT, else ./overhead-logs) and
prints a table last. Also called by einsum_bench.py (einsum-check.sh) for its overhead section.

cuperm's calls are measured with each replay of its fast paths (cuperm._fast): the compiled one
(cuperm._native, when the package has it) and the pure-Python one. The reference rows split a call's
cost: PyTorch's allocations (the result; the contraction's workspace, which cuperm now takes from a
per-stream cache instead), the capture check that cache makes per call (and the public wrapper of it),
and the C library's pointer check (cudaPointerGetAttributes, which cupermExecute makes twice and
cupermContract four times) over a trivial CUDA runtime call, both through ctypes.

    python3 bench/python/host_overhead.py [--calls 20000] [--rounds 10] [--out DIR]
"""

import argparse
import csv
import os
import statistics
import sys
import time

TARGET_US = 10.0


def _round(fn, n, sync):
    """Microseconds per call of n back-to-back calls, one synchronize at the end."""
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    sync()
    return (time.perf_counter() - t0) / n * 1e6


def _replays():
    """The fast paths' replays to measure cuperm's calls with: ('native', module) when the package
    has cuperm._native, ('native, attributes', module) too where torch.Tensor has DLPack's C
    exchange API (the native replay with the API switched off: tensors read through their
    attributes), and ('python', None)."""
    import torch

    from cuperm import _fast
    native = _fast._native
    if native is None:
        try:
            from cuperm import _native as native  # present but switched off by CUPERM_NO_NATIVE
        except ImportError:
            pass
    if native is None:
        return [("python", None)]
    both = getattr(torch.Tensor, "__dlpack_c_exchange_api__", None) is not None
    return [("native", native)] + ([("native, attributes", native)] if both else []) + [("python", None)]


def _use_exchange_api(on, saved={}):
    """Binds the fast paths with (on) or without torch.Tensor's DLPack exchange API."""
    import torch

    from cuperm import _fast
    name = "__dlpack_c_exchange_api__"
    if on and name in saved:
        setattr(torch.Tensor, name, saved.pop(name))
    elif not on and name in torch.Tensor.__dict__:
        saved[name] = torch.Tensor.__dict__[name]
        delattr(torch.Tensor, name)
    _fast.tensor_type = None
    _fast._bind()


def _c_pointer_check_cases(x, tsync):
    """cudaPointerGetAttributes on a PyTorch pointer and cudaGetDevice (the ctypes floor), through
    the CUDA runtime libcuperm links; [] where cuperm cannot bind them."""
    import ctypes

    from cuperm import _cudart
    try:
        attrs = _cudart._PointerAttributes()
        get_attrs = _cudart._fn("cudaPointerGetAttributes", [ctypes.POINTER(_cudart._PointerAttributes),
                                                             ctypes.c_void_p])
        get_device = _cudart._fn("cudaGetDevice", [ctypes.POINTER(ctypes.c_int)])
    except Exception:
        return []
    ref, ptr, dev = ctypes.byref(attrs), x.data_ptr(), ctypes.c_int()
    dref = ctypes.byref(dev)
    return [("reference", "cudaPointerGetAttributes (ctypes)", "cuda", lambda: get_attrs(ref, ptr), tsync),
            ("reference", "cudaGetDevice (ctypes: the floor)", "cuda", lambda: get_device(dref), tsync)]


def cases():
    """(group, name, framework, fn, sync[, replay]) for every call measured; CuPy's when CuPy is
    there. replay: (name, module) for cuperm's PyTorch calls, one row per replay of _fast."""
    import torch

    import cuperm
    out = []
    tsync = torch.cuda.synchronize
    x = torch.randn(4, 8, device="cuda")
    xo = torch.empty(8, 4, device="cuda")
    a, b = torch.randn(8, 8, device="cuda"), torch.randn(8, 8, device="cuda")
    plan = cuperm.ContractionPlan("ij,jk->ik", a, b)
    d = torch.empty(8, 8, device="cuda")
    plan_out = cuperm.ContractionPlan("ij,jk->ik", a, b, out=d)
    proto = x.new_empty(()).expand(8, 4)  # as cuperm._fast keeps a result's prototype
    for replay in _replays():
        out += [
            ("transpose 4x8", "cuperm.transpose(x, (1, 0))", "torch", lambda: cuperm.transpose(x, (1, 0)), tsync,
             replay),
            ("transpose 4x8", "cuperm.transpose(x, (1, 0), out=o)", "torch",
             lambda: cuperm.transpose(x, (1, 0), out=xo), tsync, replay),
            ("einsum 8x8x8", "cuperm.einsum('ij,jk->ik', a, b)", "torch", lambda: cuperm.einsum("ij,jk->ik", a, b),
             tsync, replay),
            ("einsum 8x8x8", "cuperm.ContractionPlan(...)(a, b)", "torch", lambda: plan(a, b), tsync, replay),
            ("einsum 8x8x8", "cuperm.einsum('ij,jk->ik', a, b, out=d)", "torch",
             lambda: cuperm.einsum("ij,jk->ik", a, b, out=d), tsync, replay),
            ("einsum 8x8x8", "cuperm.ContractionPlan(..., out=d)(a, b, out=d)", "torch",
             lambda: plan_out(a, b, out=d), tsync, replay),
        ]
    nbytes = plan.workspace_bytes
    out += [
        ("transpose 4x8", "x.permute(1, 0).contiguous()", "torch", lambda: x.permute(1, 0).contiguous(), tsync),
        ("einsum 8x8x8", "torch.einsum('ij,jk->ik', a, b)", "torch", lambda: torch.einsum("ij,jk->ik", a, b), tsync),
        ("reference", "torch.empty(8, 4) (allocation alone)", "torch",
         lambda: torch.empty(8, 4, device="cuda"), tsync),
        ("reference", "torch.empty((8, 4), dtype=, device=) as the replay calls it", "torch",
         lambda: torch.empty((8, 4), dtype=x.dtype, device=x.device), tsync),
        ("reference", "x.new_empty((8, 4))", "torch", lambda: x.new_empty((8, 4)), tsync),
        ("reference", "torch.empty_like(prototype, memory_format=contiguous) (the replays' result)", "torch",
         lambda: torch.empty_like(proto, memory_format=torch.contiguous_format), tsync),
        ("reference", "torch.empty(%d, uint8) (einsum's workspace)" % nbytes, "torch",
         lambda: torch.empty(nbytes, dtype=torch.uint8, device=x.device), tsync),
        ("reference", "torch.mm(a, b)", "torch", lambda: torch.mm(a, b), tsync),
        ("reference", "torch.mm(a, b, out=d)", "torch", lambda: torch.mm(a, b, out=d), tsync),
    ]
    capturing = getattr(torch._C, "_cuda_isCurrentStreamCapturing", None)
    if capturing is not None:  # the workspace cache's check (cuperm._fast.workspace), and the public wrapper
        out.append(("reference", "torch._C._cuda_isCurrentStreamCapturing()", "torch", capturing, tsync))
    out.append(("reference", "torch.cuda.is_current_stream_capturing()", "torch",
                torch.cuda.is_current_stream_capturing, tsync))
    out += _c_pointer_check_cases(x, tsync)
    try:
        import cupy
    except ImportError:
        return out

    def csync():
        cupy.cuda.get_current_stream().synchronize()
    cx = cupy.random.rand(4, 8, dtype=cupy.float32)
    ca, cb = cupy.random.rand(8, 8, dtype=cupy.float32), cupy.random.rand(8, 8, dtype=cupy.float32)
    out += [
        ("transpose 4x8", "cuperm.transpose(cx, (1, 0))", "cupy", lambda: cuperm.transpose(cx, (1, 0)), csync),
        ("transpose 4x8", "cupy.ascontiguousarray(cx.T)", "cupy", lambda: cupy.ascontiguousarray(cx.T), csync),
        ("einsum 8x8x8", "cuperm.einsum('ij,jk->ik', ca, cb)", "cupy", lambda: cuperm.einsum("ij,jk->ik", ca, cb),
         csync),
        ("einsum 8x8x8", "cupy.einsum('ij,jk->ik', ca, cb)", "cupy", lambda: cupy.einsum("ij,jk->ik", ca, cb),
         csync),
    ]
    return out


def measure(out_dir, calls=20000, rounds=10, quiet=False):
    """Measures every case; writes overhead.csv into out_dir; returns the rows. The rounds are
    interleaved (round r of every case, then round r + 1), so that a slow phase of the host (they
    come and go on shared machines) falls on every case alike instead of on whichever ran then."""
    import torch

    import cuperm
    from cuperm import _fast
    all_cases, initial = cases(), _fast._native

    def select(replay):  # the replay (and exchange API use) a case's calls go through
        if replay:
            _fast._native = replay[0][1]
            _use_exchange_api(replay[0][0] != "native, attributes")

    per_round = max(1, calls // rounds)
    times = [[] for _ in all_cases]
    try:
        for group, name, framework, fn, sync, *replay in all_cases:  # warm-up: every cache hot
            select(replay)
            _round(fn, min(2000, calls), sync)
        for _ in range(rounds):
            for i, (group, name, framework, fn, sync, *replay) in enumerate(all_cases):
                select(replay)
                times[i].append(_round(fn, per_round, sync))
    finally:
        _fast._native = initial
        _use_exchange_api(True)
    rows = []
    for (group, name, framework, fn, sync, *replay), t in zip(all_cases, times):
        replay_name = replay[0][0] if replay else ""
        rows.append({"group": group, "call": name, "framework": framework, "replay": replay_name,
                     "us_best": round(min(t), 3), "us_median": round(statistics.median(t), 3)})
        if not quiet:
            print("  %-16s %-48s %-7s %8.2f us" % (group, name, replay_name, min(t)), flush=True)
    fast = {"transpose": len(_fast.transposes), "einsum": len(_fast.contractions)}
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "overhead.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cuperm library": cuperm.library_path(), "fast-path entries": fast,
            "native extension": ("cuperm._native (%s)" % getattr(_native_module(), "__file__", "?")
                                 if _native_module() else "none: the Python replay only")}
    return rows, info


def _native_module():
    replays = dict(_replays())
    return replays.get("native")


def print_table(rows, info):
    print("\n==== host overhead per cached call (%s; torch %s) ====" % (info["device"], info["torch"]))
    print("cuperm: %s; fast-path entries %s; %s" % (info["cuperm library"], info["fast-path entries"],
                                                   info["native extension"]))
    print("| group | call | framework | replay | best us/call | median us/call | target |")
    print("| --- | --- | --- | --- | ---: | ---: | --- |")
    for r in rows:
        target = ""
        if r["call"].startswith(("cuperm.transpose(x,", "cuperm.einsum('ij,jk->ik', a, b", "cuperm.ContractionPlan(")):
            target = "<= %g: %s" % (TARGET_US, "met" if r["us_best"] <= TARGET_US else "MISSED")
        print("| %s | %s | %s | %s | %.2f | %.2f | %s |" % (r["group"], r["call"], r["framework"], r["replay"],
                                                         r["us_best"], r["us_median"], target))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.environ.get("OUT") or "overhead-logs")
    p.add_argument("--calls", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=10)
    args = p.parse_args()
    rows, info = measure(args.out, args.calls, args.rounds)
    print_table(rows, info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
