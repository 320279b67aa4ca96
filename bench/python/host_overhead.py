#!/usr/bin/env python3
"""Host overhead per cached call on a GPU machine: cuperm vs PyTorch vs CuPy (target <= 10 us).

Tiny problems, so that the host side is all there is: a 4x8 float32 transpose and an 8x8 @ 8x8
float32 einsum ("ij,jk->ik"). Each call is made --calls times back to back after a warm-up (so every
cache is hot), with one synchronize at the end, in --rounds rounds; the best and median round are
reported in microseconds per call. Writes overhead.csv to --out ($OUT, else ./overhead-logs) and
prints a table last. Also called by einsum_bench.py (einsum-check.sh) for its overhead section.

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


def cases():
    """(group, name, framework, fn, sync) for every call measured; CuPy's when CuPy is there."""
    import torch

    import cuperm
    out = []
    tsync = torch.cuda.synchronize
    x = torch.randn(4, 8, device="cuda")
    xo = torch.empty(8, 4, device="cuda")
    a, b = torch.randn(8, 8, device="cuda"), torch.randn(8, 8, device="cuda")
    plan = cuperm.ContractionPlan("ij,jk->ik", a, b)
    out += [
        ("transpose 4x8", "cuperm.transpose(x, (1, 0))", "torch", lambda: cuperm.transpose(x, (1, 0)), tsync),
        ("transpose 4x8", "cuperm.transpose(x, (1, 0), out=o)", "torch",
         lambda: cuperm.transpose(x, (1, 0), out=xo), tsync),
        ("transpose 4x8", "x.permute(1, 0).contiguous()", "torch", lambda: x.permute(1, 0).contiguous(), tsync),
        ("einsum 8x8x8", "cuperm.einsum('ij,jk->ik', a, b)", "torch", lambda: cuperm.einsum("ij,jk->ik", a, b),
         tsync),
        ("einsum 8x8x8", "cuperm.ContractionPlan(...)(a, b)", "torch", lambda: plan(a, b), tsync),
        ("einsum 8x8x8", "torch.einsum('ij,jk->ik', a, b)", "torch", lambda: torch.einsum("ij,jk->ik", a, b), tsync),
        ("reference", "torch.empty(8, 4) (allocation alone)", "torch",
         lambda: torch.empty(8, 4, device="cuda"), tsync),
        ("reference", "torch.mm(a, b)", "torch", lambda: torch.mm(a, b), tsync),
    ]
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
    for group, name, framework, fn, sync in cases():
        best, median = _timer(fn, calls, rounds, sync)
        rows.append({"group": group, "call": name, "framework": framework, "us_best": round(best, 3),
                     "us_median": round(median, 3)})
        if not quiet:
            print("  %-16s %-42s %8.2f us" % (group, name, best), flush=True)
    fast = {"transpose": len(_fast.transposes), "einsum": len(_fast.contractions)}
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "overhead.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    info = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
            "cuperm library": cuperm.library_path(), "fast-path entries": fast,
            "native extension": "none (pure Python + ctypes)"}
    return rows, info


def print_table(rows, info):
    print("\n==== host overhead per cached call (%s; torch %s) ====" % (info["device"], info["torch"]))
    print("cuperm: %s; fast-path entries %s; %s" % (info["cuperm library"], info["fast-path entries"],
                                                   info["native extension"]))
    print("| group | call | framework | best us/call | median us/call | target |")
    print("| --- | --- | --- | ---: | ---: | --- |")
    for r in rows:
        target = ""
        if r["call"] in ("cuperm.transpose(x, (1, 0))", "cuperm.einsum('ij,jk->ik', a, b)"):
            target = "<= %g: %s" % (TARGET_US, "met" if r["us_best"] <= TARGET_US else "MISSED")
        print("| %s | %s | %s | %.2f | %.2f | %s |" % (r["group"], r["call"], r["framework"], r["us_best"],
                                                    r["us_median"], target))


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
