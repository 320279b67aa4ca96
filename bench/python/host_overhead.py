#!/usr/bin/env python3
"""Host overhead per cached call on a GPU machine: cuperm vs PyTorch vs CuPy (target <= 10 us).

Tiny problems, so that the host side is all there is: a 4x8 float32 transpose and an 8x8 @ 8x8
float32 einsum ("ij,jk->ik"). Each call is made --calls times back to back after a warm-up (so every
cache is hot), with one synchronize at the end, in --rounds rounds; the best and median round are
reported in microseconds per call. Writes overhead.csv to --out ($OUT, else ./overhead-logs) and
prints a table last. Also called by einsum_bench.py (einsum-check.sh) for its overhead section.

cuperm's calls are measured with each replay of its fast paths (cuperm._fast): the compiled one
(cuperm._native, when the package has it) and the pure-Python one. The reference rows split a call's
cost: PyTorch's allocations (the result; the contraction's workspace, which cuperm now takes from a
per-stream cache instead), the capture check that cache makes per call (and the public wrapper of it),
and the C library's pointer check (cudaPointerGetAttributes, which cupermExecute makes twice and
cupermContract four times) over a trivial CUDA runtime call, both through ctypes.

    python3 bench/python/host_overhead.py [--calls 20000] [--rounds 5] [--out DIR]
"""

import argparse
import csv
import os
import statistics
import sys
import time

TARGET_US = 10.0


def _timer(fn, calls, rounds, sync):
    for _ in range(min(2000, calls)):
        fn()
    sync()
    per_round = max(1, calls // rounds)
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(per_round):
            fn()
        sync()
        times.append((time.perf_counter() - t0) / per_round * 1e6)
    return min(times), statistics.median(times)


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


def measure(out_dir, calls=20000, rounds=5, quiet=False):
    """Measures every case; writes overhead.csv into out_dir; returns the rows."""
    import torch

    import cuperm
    from cuperm import _fast
    rows = []
    initial = _fast._native
    try:
        for group, name, framework, fn, sync, *replay in cases():
            replay_name = ""
            if replay:
                replay_name, _fast._native = replay[0]
                _use_exchange_api(replay_name != "native, attributes")
            best, median = _timer(fn, calls, rounds, sync)
            rows.append({"group": group, "call": name, "framework": framework, "replay": replay_name,
                         "us_best": round(best, 3), "us_median": round(median, 3)})
            if not quiet:
                print("  %-16s %-48s %-7s %8.2f us" % (group, name, replay_name, best), flush=True)
    finally:
        _fast._native = initial
        _use_exchange_api(True)
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
        if r["call"] in ("cuperm.transpose(x, (1, 0))", "cuperm.einsum('ij,jk->ik', a, b)",
                         "cuperm.ContractionPlan(...)(a, b)"):
            target = "<= %g: %s" % (TARGET_US, "met" if r["us_best"] <= TARGET_US else "MISSED")
        print("| %s | %s | %s | %s | %.2f | %.2f | %s |" % (r["group"], r["call"], r["framework"], r["replay"],
                                                         r["us_best"], r["us_median"], target))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.environ.get("OUT") or "overhead-logs")
    p.add_argument("--calls", type=int, default=20000)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    rows, info = measure(args.out, args.calls, args.rounds)
    print_table(rows, info)
    return 0


if __name__ == "__main__":
    sys.exit(main())
