#!/usr/bin/env python3
"""cuperm.einsum vs torch.einsum vs cupy.einsum on the TCCG48 contractions, and host overhead.

For each case and dtype (float32, float16): every method's result is checked against
torch.einsum in float64, then timed with CUDA events: --warmup runs, then --reps
runs each between its own pair of events; the median is kept. torch and cuperm read
the same tensors; CuPy reads them through DLPack (no copy). Writes einsum.csv
(and overhead.csv) to --out and prints a summary table last, with the geometric
means of cuperm's speedups (targets: >= 1.3x torch.einsum, >= 1.0x cupy.einsum).

Host overhead (host_overhead.py): many back-to-back calls of a cached tiny transpose (4x8) and
a tiny einsum ("ij,jk->ik", 8x8 @ 8x8), cuperm vs torch vs CuPy, timed on the host with one
synchronize per round, in microseconds per call (target <= 10 us); --overhead-only runs just that.
"""

import argparse
import csv
import math
import os
import statistics
import sys

import torch

import cuperm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import host_overhead  # noqa: E402
import tccg  # noqa: E402

try:
    import cupy
except ImportError:  # the table then has no cupy column
    cupy = None


def gpu_time(fn, warmup, reps):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e-3)
    return statistics.median(times)


def cupy_time(fn, warmup, reps):
    """CuPy's own events on its current stream, the device idle before each sample (torch events on
    another handle of that stream timed launches only: 0.1 ms for 5 ms of fp32 GEMM work)."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        cupy.cuda.Device().synchronize()
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, stop) * 1e-3)
    return statistics.median(times)


def rel_error(got, ref):
    return float((got.double() - ref).abs().max() / max(1.0, float(ref.abs().max())))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", default=os.environ.get("OUT") or "einsum-logs")
    p.add_argument("--reps", type=int, default=25)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--limit", type=int, default=0, help="first N cases only")
    p.add_argument("--calls", type=int, default=20000)
    p.add_argument("--overhead-only", action="store_true", help="only the host overhead (host_overhead.py)")
    p.add_argument("--no-overhead", action="store_true")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    overhead = None
    if not args.no_overhead:  # first, while nothing else has touched the caches' sizes
        print("Host overhead per cached call:")
        overhead = host_overhead.measure(args.out, args.calls)
    if args.overhead_only:
        host_overhead.print_table(*overhead)
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    cases = tccg.cases()[: args.limit or None]
    rows = []
    tol = {torch.float32: 1e-3, torch.float16: 3e-2}
    for dtype in (torch.float32, torch.float16):
        for ident, subscripts, sizes in cases:
            gen = torch.Generator(device="cuda").manual_seed(ident)
            a, b = (torch.randn(s, device="cuda", dtype=dtype, generator=gen) for s in tccg.shapes(subscripts, sizes))
            ref = torch.einsum(subscripts, a.double(), b.double())
            flops = 2.0 * math.prod(sizes.values())
            row = {"case": ident, "subscripts": subscripts, "dtype": str(dtype).split(".")[1], "gflop": flops / 1e9}
            methods = {"cuperm": lambda: cuperm.einsum(subscripts, a, b),
                       "torch": lambda: torch.einsum(subscripts, a, b)}
            if cupy is not None:
                ca, cb = cupy.from_dlpack(a), cupy.from_dlpack(b)
                methods["cupy"] = lambda: cupy.einsum(subscripts, ca, cb)
            for name, fn in methods.items():
                got = fn()
                got = torch.from_dlpack(got) if name == "cupy" else got
                err = rel_error(got, ref)
                row[name + "_ok"] = err <= tol[dtype]
                row[name + "_err"] = err
                row[name + "_s"] = (cupy_time if name == "cupy" else gpu_time)(fn, args.warmup, args.reps)
                # A time below the device's arithmetic floor is a timing error, not a result.
                row[name + "_tflops"] = flops / row[name + "_s"] / 1e12
            for other in ("torch", "cupy"):
                if other + "_s" in row:
                    row["speedup_vs_" + other] = row[other + "_s"] / row["cuperm_s"]
            rows.append(row)
            print("%-3d %-22s %-8s cuperm %8.1f us  torch %8.1f us  cupy %8s  ok=%s"
                  % (ident, subscripts, row["dtype"], row["cuperm_s"] * 1e6, row["torch_s"] * 1e6,
                     "%.1f us" % (row["cupy_s"] * 1e6) if "cupy_s" in row else "-", row["cuperm_ok"]), flush=True)
    with open(os.path.join(args.out, "einsum.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=sorted({k for r in rows for k in r}, key=lambda k: list(rows[0]).index(k)
                                                if k in rows[0] else 99))
        w.writeheader()
        w.writerows(rows)

    print("\n==== einsum benchmark summary (%s) ====" % torch.cuda.get_device_name())
    print("| dtype | cases | all correct (cuperm/torch/cupy) | geomean speedup vs torch.einsum | vs cupy.einsum |")
    print("| --- | ---: | --- | ---: | ---: |")
    for dtype in ("float32", "float16"):
        sel = [r for r in rows if r["dtype"] == dtype]
        gm = lambda k: math.exp(statistics.mean(math.log(r[k]) for r in sel)) if sel and k in sel[0] else float("nan")  # noqa: E731
        ok = "/".join(str(all(r.get(m + "_ok", True) for r in sel)) for m in ("cuperm", "torch", "cupy"))
        print("| %s | %d | %s | %.2fx (target 1.3) | %.2fx (target 1.0) |"
              % (dtype, len(sel), ok, gm("speedup_vs_torch"), gm("speedup_vs_cupy")))
    if overhead is not None:
        host_overhead.print_table(*overhead)


if __name__ == "__main__":
    main()
