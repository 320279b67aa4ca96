#!/usr/bin/env python3
"""Host time and GPU time per cached call, side by side: what a tiny cuperm call costs on each side.

host_overhead.py times --calls calls back to back with one synchronize at the end. When the GPU takes
longer per call than the host, the launch queue fills and that loop measures the GPU, not the host.
This script separates the two for each call:

  host   calls in chunks of 100 with a synchronize between chunks, only the calls timed
         (the queue never fills: host time alone);
  queue  4,000 calls back to back, then one synchronize (the larger of host and GPU time);
  gpu    from a torch.profiler (CUPTI) trace of 300 calls: the device time of every kernel, memset and
         copy per call, and the span from the first to the last one's end per call;
  api    the CUDA runtime calls per call seen in the same trace (their host times are inflated by
         the profiler's own hooks: counts, not times).

All host and queue timings run before the first trace.

    python3 bench/python/gpu_time_per_call.py [--out DIR]
"""

import argparse
import collections
import json
import os
import statistics
import sys
import tempfile
import time


def cases():
    import torch

    import cuperm
    from overhead_parts import tiny_operands  # this script's folder is on sys.path
    x, xo, a, b, d = tiny_operands()
    plan = cuperm.ContractionPlan("ij,jk->ik", a, b)
    return [
        ("cuperm.transpose(x, (1, 0))", lambda: cuperm.transpose(x, (1, 0))),
        ("cuperm.transpose(x, (1, 0), out=o)", lambda: cuperm.transpose(x, (1, 0), out=xo)),
        ("x.permute(1, 0).contiguous()", lambda: x.permute(1, 0).contiguous()),
        ("cuperm.einsum('ij,jk->ik', a, b)", lambda: cuperm.einsum("ij,jk->ik", a, b)),
        ("cuperm.einsum(..., out=d)", lambda: cuperm.einsum("ij,jk->ik", a, b, out=d)),
        ("ContractionPlan(...)(a, b)", lambda: plan(a, b)),
        ("torch.mm(a, b)", lambda: torch.mm(a, b)),
        ("torch.einsum('ij,jk->ik', a, b)", lambda: torch.einsum("ij,jk->ik", a, b)),
    ]


def host_us(fn, sync, chunks=200, per=100):
    best = []
    for _ in range(3):
        t = 0.0
        for _ in range(chunks):
            t0 = time.perf_counter()
            for _ in range(per):
                fn()
            t += time.perf_counter() - t0
            sync()
        best.append(t / (chunks * per) * 1e6)
    return min(best)


def queue_us(fn, sync, calls=4000):
    best = []
    for _ in range(3):
        sync()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        best.append((time.perf_counter() - t0) / calls * 1e6)
    return min(best)


def traced(fn, sync, calls=300):
    """(device us per call by name, device span us per call, runtime calls per call {name: (count, us)})."""
    from torch.profiler import ProfilerActivity, profile
    sync()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        sync()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trace.json")
        prof.export_chrome_trace(path)
        with open(path) as f:
            events = json.load(f).get("traceEvents", [])
    dev = collections.defaultdict(float)
    api = collections.defaultdict(lambda: [0, 0.0])
    first, last = None, None
    for e in events:
        cat, dur = e.get("cat", ""), float(e.get("dur", 0) or 0)
        if cat in ("kernel", "gpu_memset", "gpu_memcpy"):
            dev[(cat, e.get("name", "?")[:70])] += dur
            ts = float(e["ts"])
            first = ts if first is None else min(first, ts)
            last = ts + dur if last is None else max(last, ts + dur)
        elif cat == "cuda_runtime" or cat == "cuda_driver":
            api[e.get("name", "?")][0] += 1
            api[e.get("name", "?")][1] += dur
    span = (last - first) / calls if first is not None else 0.0
    return ({k: v / calls for k, v in dev.items()}, span,
            {k: (c / calls, us / calls) for k, (c, us) in api.items()})


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.environ.get("OUT") or "gpu-time-logs")
    args = p.parse_args()
    import torch
    sync = torch.cuda.synchronize
    rows = []
    # Every timing first: a profiler session leaves CUPTI hooks behind that slow later host calls.
    measured = []
    for name, fn in cases():
        for _ in range(2000):
            fn()
        sync()
        measured.append((name, fn, host_us(fn, sync), queue_us(fn, sync)))
    for name, fn, h, q in measured:
        dev, span, api = traced(fn, sync)
        rows.append((name, h, q, sum(dev.values()), span, dev, api))
        print("%-38s host %6.2f  queue %6.2f  device %6.2f  span %6.2f us/call" % (name, h, q, sum(dev.values()),
                                                                                 span), flush=True)
        for (cat, k), v in sorted(dev.items(), key=lambda kv: -kv[1]):
            print("      %-11s %7.2f us  %s" % (cat, v, k))
        for k, (c, us) in sorted(api.items(), key=lambda kv: -kv[1][1]):
            print("      api %5.2f x %7.2f us  %s (inflated by the profiler)" % (c, us, k))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "gpu-time-per-call.md"), "w") as f:
        f.write("# host and GPU time per cached call, %s, torch %s\n\n" % (torch.cuda.get_device_name(),
                                                                         torch.__version__))
        f.write("| call | host us | queue-bound us | device us | device span us |\n| --- | ---: | ---: | ---: | ---: |\n")
        for name, h, q, dsum, span, _, _ in rows:
            f.write("| %s | %.2f | %.2f | %.2f | %.2f |\n" % (name, h, q, dsum, span))
    return 0


if __name__ == "__main__":
    sys.exit(main())
