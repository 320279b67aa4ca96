#!/usr/bin/env python3
"""What a replayed call is made of: the host cost of each PyTorch call a cached cuperm call makes
(cuperm._fast's keys and guards, the allocation of the result, the stream), beside the whole calls.

The split behind host_overhead.py's totals, to decide where the per-call microseconds can go. Each
row is the best of --rounds timeit rounds of --number calls, in microseconds per call; the
`lambda: None` row is the floor every other row includes (a Python call of a lambda).

    python3 bench/python/overhead_parts.py [--number 100000] [--rounds 5]
"""

import argparse
import timeit


def tiny_operands():
    """The tiny problems the overhead scripts time (here and gpu_time_per_call.py), on the current
    CUDA device: x (4x8 float32) and a result for its transpose, a and b (8x8) and a result for a @ b."""
    import torch
    x = torch.randn(4, 8, device="cuda")
    xo = torch.empty(8, 4, device="cuda")
    a, b = torch.randn(8, 8, device="cuda"), torch.randn(8, 8, device="cuda")
    return x, xo, a, b, torch.empty(8, 8, device="cuda")


def parts():
    import torch

    import cuperm
    x, xo, a, b, d = tiny_operands()
    plan = cuperm.ContractionPlan("ij,jk->ik", a, b)
    plan_out = cuperm.ContractionPlan("ij,jk->ik", a, b, out=d)
    dev, dtype, shape = x.device, x.dtype, torch.Size((8, 4))
    C = torch._C
    table = {(x.shape, x.stride(), x.dtype, x.get_device(), (1, 0), 1): 1}
    rows = [
        ("floor", "lambda: None", lambda: None),
        ("attribute", "x.shape", lambda: x.shape),
        ("attribute", "x.stride()", lambda: x.stride()),
        ("attribute", "x.dtype", lambda: x.dtype),
        ("attribute", "x.get_device()", lambda: x.get_device()),
        ("attribute", "x.requires_grad", lambda: x.requires_grad),
        ("attribute", "x.is_conj()", lambda: x.is_conj()),
        ("attribute", "x.is_neg()", lambda: x.is_neg()),
        ("attribute", "x.data_ptr()", lambda: x.data_ptr()),
        ("key", "transpose key built + dict lookup",
         lambda: table.get((x.shape, x.stride(), x.dtype, x.get_device(), (1, 0), 1))),
        ("state", "torch._C._cuda_getDevice()", C._cuda_getDevice),
        ("state", "torch._C._cuda_getCurrentRawStream(0)", lambda: C._cuda_getCurrentRawStream(0)),
        ("state", "torch.is_grad_enabled()", torch.is_grad_enabled),
        ("state", "torch.compiler.is_compiling()", torch.compiler.is_compiling),
        ("state", "torch._C._cuda_isCurrentStreamCapturing()", C._cuda_isCurrentStreamCapturing),
        ("allocation", "torch.empty((8, 4), dtype=, device=)", lambda: torch.empty((8, 4), dtype=dtype, device=dev)),
        ("allocation", "torch.empty(torch.Size, dtype=, device=)", lambda: torch.empty(shape, dtype=dtype, device=dev)),
        ("allocation", "x.new_empty((8, 4))", lambda: x.new_empty((8, 4))),
        ("allocation", "x.new_empty(torch.Size)", lambda: x.new_empty(shape)),
        ("allocation", "torch.empty_like(xo)", lambda: torch.empty_like(xo)),
        ("whole", "cuperm.transpose(x, (1, 0))", lambda: cuperm.transpose(x, (1, 0))),
        ("whole", "cuperm.transpose(x, (1, 0), out=o)", lambda: cuperm.transpose(x, (1, 0), out=xo)),
        ("whole", "cuperm.einsum('ij,jk->ik', a, b)", lambda: cuperm.einsum("ij,jk->ik", a, b)),
        ("whole", "ContractionPlan(...)(a, b)", lambda: plan(a, b)),
        ("whole", "ContractionPlan(..., out=d)(a, b, out=d)", lambda: plan_out(a, b, out=d)),
        ("whole", "x.permute(1, 0).contiguous()", lambda: x.permute(1, 0).contiguous()),
        ("whole", "torch.mm(a, b)", lambda: torch.mm(a, b)),
        ("whole", "torch.mm(a, b, out=d)", lambda: torch.mm(a, b, out=d)),
    ]
    return rows, torch.cuda.synchronize


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--number", type=int, default=100000)
    p.add_argument("--rounds", type=int, default=5)
    args = p.parse_args()
    rows, sync = parts()
    import torch
    print("# host cost per call, %s, torch %s (best of %d x %d calls)\n" % (torch.cuda.get_device_name(),
                                                                          torch.__version__, args.rounds, args.number))
    print("| part | call | us |\n| --- | --- | ---: |")
    for kind, name, fn in rows:
        for _ in range(2000):
            fn()
        sync()
        best = float("inf")
        for _ in range(args.rounds):
            # back to back in chunks of 500 with a sync between (untimed share is small): the GPU queue never fills
            t = 0.0
            for _ in range(args.number // 500):
                t += timeit.timeit(fn, number=500)
                sync()
            best = min(best, t / (args.number // 500 * 500) * 1e6)
        print("| %s | %s | %.3f |" % (kind, name, best), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
