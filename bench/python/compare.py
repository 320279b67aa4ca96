#!/usr/bin/env python3
"""cuperm.transpose against PyTorch and CuPy, on the TTC cases and the 720 permutations of 16^6.

For every case, each method writes into a preallocated output:
  cuperm  cuperm.transpose(x, axes, out=out)            (plan cached after the first call)
  torch   out.copy_(x.permute(axes))                    (what .permute(...).contiguous() runs)
  cupy    cupy.copyto(out, x.transpose(axes))
  copy    a device-to-device copy of the same bytes     (the bandwidth ceiling, same run)

Correctness first: the output is poisoned (NaN) before a checked run of each
method; cuperm's output is compared element by element with numpy.transpose on
the host, and torch's and cupy's with cuperm's (already checked) on the GPU.

Timing: CUDA events around each of --reps back-to-back runs after --warmup
runs; a GPU sleep queued first keeps host launch overhead out of the numbers
(it is reported separately, per call, under "host overhead"). The median is
kept. Bandwidth counts bytes read and written (2 x tensor bytes) and is also
given as % of the same-run copy.

    python3 bench/python/compare.py --suite ttc --suite perm720 --out bench/results/python/h100
"""

import argparse
import concurrent.futures
import csv
import itertools
import json
import math
import os
import platform
import statistics
import sys
import time

import numpy as np
import torch
import cupy

import cuperm
from cuperm import _layout

HERE = os.path.dirname(os.path.abspath(__file__))
TTC_CASES = os.path.join(HERE, os.pardir, "cases", "ttc57.txt")
THREADS = min(16, os.cpu_count() or 1)
POOL = concurrent.futures.ThreadPoolExecutor(THREADS)


# --- cases ------------------------------------------------------------------

def ttc_cases(path=TTC_CASES):
    """(name, shape, axes) in NumPy terms from the cuTT/TTC-style list (column-major extents)."""
    cases = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            extents, perm = ([int(v) for v in part.split(",")] for part in line.split())
            shape, axes = _layout.from_cuperm(extents, perm)
            cases.append(("%s %s" % (",".join(map(str, extents)), ",".join(map(str, perm))), shape, axes))
    return cases


def perm720_cases(extent=16):
    shape = (extent,) * 6
    return [("16^6 axes=%s" % ",".join(map(str, axes)), shape, axes)
            for axes in itertools.permutations(range(6))]


SUITES = {"ttc": ttc_cases, "perm720": perm720_cases}


# --- host reference ---------------------------------------------------------

def _chunks(shape, parts):
    """Index tuples splitting the largest axis of `shape` into up to `parts` slabs."""
    if not shape:
        return [()]
    axis = max(range(len(shape)), key=lambda a: shape[a])
    step = max(1, math.ceil(shape[axis] / parts))
    return [(slice(None),) * axis + (slice(i, i + step),) for i in range(0, shape[axis], step)]


def host_transpose(a, axes):
    """numpy.transpose(a, axes) made contiguous, copied by THREADS threads (NumPy releases the GIL)."""
    view = a.transpose(axes)
    out = np.empty(view.shape, dtype=a.dtype)
    list(POOL.map(lambda idx: np.copyto(out[idx], view[idx]), _chunks(out.shape, THREADS)))
    return out


def host_equal(a, b):
    return all(POOL.map(lambda idx: np.array_equal(a[idx], b[idx]), _chunks(a.shape, THREADS)))


# --- timing -----------------------------------------------------------------

def gpu_median_ms(fn, reps, warmup, sleep_cycles):
    """Median GPU time of fn over reps back-to-back runs (host overhead hidden behind a GPU sleep)."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    events = [torch.cuda.Event(enable_timing=True) for _ in range(reps + 1)]
    torch.cuda._sleep(sleep_cycles)
    events[0].record()
    for i in range(reps):
        fn()
        events[i + 1].record()
    torch.cuda.synchronize()
    return statistics.median(events[i].elapsed_time(events[i + 1]) for i in range(reps))


def host_overhead_us(calls=2000):
    """Wall time per call of each method on a tiny tensor, the GPU kept busy by nothing else."""
    x = torch.randn(4, 8, device="cuda")
    out = torch.empty(8, 4, device="cuda")
    xc, outc = cupy.from_dlpack(x), cupy.from_dlpack(out)
    plan = cuperm.Plan((4, 8), (1, 0), "float32")
    methods = {
        "cuperm.transpose": lambda: cuperm.transpose(x, (1, 0), out=out),
        "cuperm.Plan call": lambda: plan(x, out),
        "torch copy_": lambda: out.copy_(x.permute(1, 0)),
        "cupy copyto": lambda: cupy.copyto(outc, xc.transpose(1, 0)),
    }
    result = {}
    for name, fn in methods.items():
        for _ in range(100):
            fn()
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
        result[name] = 1e6 * (time.perf_counter() - t0) / calls
    return result


# --- one case ---------------------------------------------------------------

def run_case(name, shape, axes, x_dev, x_host, args):
    """Checks and times the methods on one case; x_dev/x_host hold at least volume(shape) elements."""
    volume = _layout.volume(shape)
    x = x_dev[:volume].view(shape)
    xh = x_host[:volume].reshape(shape)
    out_shape = _layout.permuted_shape(shape, axes)
    out = torch.empty(out_shape, dtype=x.dtype, device="cuda")
    other = torch.empty(out_shape, dtype=x.dtype, device="cuda")
    xc, otherc = cupy.from_dlpack(x), cupy.from_dlpack(other)
    copy_src, copy_dst = x.reshape(-1), other.reshape(-1)
    nbytes = volume * x.element_size()

    row = {"suite": args.current_suite, "case": name, "shape": "x".join(map(str, shape)),
           "axes": ",".join(map(str, axes)), "dtype": str(x.dtype).replace("torch.", ""), "bytes": nbytes}

    out.fill_(float("nan"))
    cuperm.transpose(x, axes, out=out)
    torch.cuda.synchronize()
    row["cuperm_ok"] = host_equal(out.cpu().numpy(), host_transpose(xh, axes))
    row["kernel"] = cuperm.Plan.for_arrays(x, out, axes).info["kernel"]

    methods = {
        "cuperm": lambda: cuperm.transpose(x, axes, out=out),
        "torch": lambda: other.copy_(x.permute(axes)),
        "cupy": lambda: cupy.copyto(otherc, xc.transpose(axes)),
    }
    for m in ("torch", "cupy"):
        other.fill_(float("nan"))
        methods[m]()
        torch.cuda.synchronize()
        row[m + "_ok"] = bool(torch.equal(other, out)) and row["cuperm_ok"]
    methods["copy"] = lambda: copy_dst.copy_(copy_src)

    for m, fn in methods.items():
        ms = gpu_median_ms(fn, args.reps, args.warmup, args.sleep_cycles)
        row[m + "_us"] = round(1000 * ms, 2)
        row[m + "_GBps"] = round(2 * nbytes / (ms * 1e-3) / 1e9, 1)
    for m in ("cuperm", "torch", "cupy"):
        row[m + "_pct_copy"] = round(100 * row["copy_us"] / row[m + "_us"], 1)
    return row


# --- summary ----------------------------------------------------------------

def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values))


def summarize(rows, overhead, env):
    lines = ["# cuperm.transpose vs PyTorch and CuPy", "",
             "GPU: %s; torch %s, cupy %s, cuperm %s; %s, median of %d runs after %d warm-ups." % (
                 env["gpu"], env["torch"], env["cupy"], env["cuperm"], env["dtype"], env["reps"], env["warmup"]),
             "Bandwidth counts bytes read + written; %copy is against a device-to-device copy of the same bytes "
             "in the same run. Every output was checked (cuperm against numpy on the host, the others against "
             "cuperm's).", ""]
    for suite in dict.fromkeys(r["suite"] for r in rows):
        rs = [r for r in rows if r["suite"] == suite]
        ok = all(r["cuperm_ok"] and r["torch_ok"] and r["cupy_ok"] for r in rs)
        lines += ["## %s (%d cases, all outputs correct: %s)" % (suite, len(rs), "yes" if ok else "NO"), "",
                  "| method | median %copy | min %copy | max %copy | median GB/s | geomean speedup of cuperm |",
                  "| --- | ---: | ---: | ---: | ---: | ---: |"]
        for m in ("cuperm", "torch", "cupy"):
            pct = [r[m + "_pct_copy"] for r in rs]
            gbps = [r[m + "_GBps"] for r in rs]
            speedup = "-" if m == "cuperm" else "%.2fx" % geomean([r[m + "_us"] / r["cuperm_us"] for r in rs])
            lines.append("| %s | %.1f | %.1f | %.1f | %.0f | %s |" % (
                m, statistics.median(pct), min(pct), max(pct), statistics.median(gbps), speedup))
        copy = [r["copy_GBps"] for r in rs]
        lines += ["", "Same-run copy: median %.0f GB/s. cuperm is faster than torch on %d/%d cases and than cupy "
                  "on %d/%d." % (statistics.median(copy), sum(r["cuperm_us"] < r["torch_us"] for r in rs), len(rs),
                                 sum(r["cuperm_us"] < r["cupy_us"] for r in rs), len(rs)), ""]
        worst = sorted(rs, key=lambda r: r["cuperm_pct_copy"])[:3]
        lines.append("Slowest cuperm cases: " + "; ".join(
            "%s (%s, %.1f%% copy)" % (r["case"], r["kernel"], r["cuperm_pct_copy"]) for r in worst))
        lines.append("")
    lines += ["## host overhead per call (tiny 4x8 float32 transpose, wall clock)", "",
              "| call | us |", "| --- | ---: |"]
    lines += ["| %s | %.1f |" % (k, v) for k, v in overhead.items()]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--suite", action="append", choices=sorted(SUITES), help="ttc and/or perm720 (default both)")
    ap.add_argument("--dtype", default="float64", choices=["float32", "float64"])
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--sleep-cycles", type=int, default=6_000_000, help="GPU sleep (cycles) queued before the timed runs")
    ap.add_argument("--limit", type=int, default=0, help="run only the first N cases of each suite (smoke test)")
    ap.add_argument("--max-seconds", type=float, default=0,
                    help="start no new case after this many seconds (0: no limit); the summary says so")
    ap.add_argument("--out", required=True, help="directory for results.csv, summary.md, env.json")
    args = ap.parse_args()
    suites = args.suite or ["ttc", "perm720"]
    os.makedirs(args.out, exist_ok=True)

    cases = {s: SUITES[s]() for s in suites}
    if args.limit:
        cases = {s: c[:args.limit] for s, c in cases.items()}
    largest = max(_layout.volume(shape) for c in cases.values() for _, shape, _ in c)
    dtype = np.dtype(args.dtype)
    rng = np.random.default_rng(2024)
    x_host = rng.standard_normal(largest).astype(dtype)   # random, never zeros; prefixes feed every case
    x_dev = torch.from_numpy(x_host).cuda()

    env = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "cupy": cupy.__version__,
           "cuperm": "%d.%d.%d" % cuperm.library_version(), "python": platform.python_version(),
           "dtype": args.dtype, "reps": args.reps, "warmup": args.warmup, "sleep_cycles": args.sleep_cycles}
    rows, skipped = [], {}
    start = time.time()
    csv_file = open(os.path.join(args.out, "results.csv"), "w", newline="")
    writer = None
    for suite, suite_cases in cases.items():
        args.current_suite = suite
        t0 = time.time()
        for i, (name, shape, axes) in enumerate(suite_cases):
            if args.max_seconds and time.time() - start > args.max_seconds:
                skipped[suite] = len(suite_cases) - i
                break
            row = run_case(name, shape, axes, x_dev, x_host, args)
            rows.append(row)
            if writer is None:
                writer = csv.DictWriter(csv_file, fieldnames=list(row))
                writer.writeheader()
            writer.writerow(row)
            csv_file.flush()  # rows survive a run cut short
            if not (row["cuperm_ok"] and row["torch_ok"] and row["cupy_ok"]):
                print("WRONG RESULT:", row, flush=True)
            if i % 40 == 0 or i == len(suite_cases) - 1:
                print("%s %d/%d %s: cuperm %.1f%% torch %.1f%% cupy %.1f%% of copy (%.0fs)" % (
                    suite, i + 1, len(suite_cases), name, row["cuperm_pct_copy"], row["torch_pct_copy"],
                    row["cupy_pct_copy"], time.time() - t0), flush=True)
        cuperm.clear_cache()
    csv_file.close()
    overhead = host_overhead_us()

    env["cases_not_run_for_time"] = skipped
    with open(os.path.join(args.out, "env.json"), "w") as f:
        json.dump(dict(env, host_overhead_us=overhead), f, indent=1)
    summary = summarize(rows, overhead, env)
    if skipped:
        summary += "\nStopped early (--max-seconds %g): cases not run: %s\n" % (args.max_seconds, skipped)
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(summary)
    print(summary)
    bad = [r for r in rows if not (r["cuperm_ok"] and r["torch_ok"] and r["cupy_ok"])]
    print("%d passed, %d failed" % (len(rows) - len(bad), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
