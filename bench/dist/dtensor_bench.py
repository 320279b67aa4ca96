#!/usr/bin/env python3
"""PyTorch DTensor baseline for cuperm's distributed-transpose benchmark.

Times the DTensor way to produce a permuted tensor sharded as the output asks, on the cases of
`cuperm-dist-test --bench` (tests/dist/dist_test.c, bench()), next to a plain NCCL all-to-all of
the same bytes in the same run:

    python3 bench/dist/dtensor_bench.py --gb 1 --iters 10 [--out DIR]

It spawns one process per GPU itself (torch.multiprocessing.spawn, file:// rendezvous, backend
nccl, NCCL_NVLS_ENABLE=0 as in the C bench); `--cpu --nprocs 2` runs the same code on gloo with
CPU tensors (a smoke test: correctness only, timings meaningless).

Cases (f32, 6-D, cuperm's column-major extents 16x24x32x12x16xL, L a multiple of the world size
chosen so each GPU holds ~GB; plus the C bench's small sizes, 8x6x4x4x2xL at ~1 MiB / 64 KiB):
    6-D reverse  perm {5,4,3,2,1,0}  Shard(5) -> Shard(5)   (output mode 5 = input mode 0)
    6-D swap01   perm {1,0,2,3,4,5}  Shard(5) -> Shard(1)   (output mode 1 = input mode 0)
    6-D mixed    perm {2,0,5,1,4,3}  Shard(5) -> Shard(0)   (output mode 0 = input mode 2)
(the C bench's second reverse row, "1 chunk", is a cuperm pipeline setting and has no DTensor
counterpart; it is left out.)

Column-major -> row-major mapping (same bytes in memory, same data movement): cuperm mode m (first
index fastest) is torch dim 5-m of a row-major tensor whose shape is the extents reversed.
cuperm's perm (output mode i = input mode perm[i]) becomes torch's permute dims
tperm[d] = 5 - perm[5-d]; cuperm Shard(m) is torch Shard(5-m). So:
    reverse  shape (L,16,12,32,24,16), tperm (5,4,3,2,1,0), Shard(0) -> output Shard(0)
    swap01   shape (L,16,12,32,24,16), tperm (0,1,2,3,5,4), Shard(0) -> output Shard(4)
    mixed    shape (L,16,12,32,24,16), tperm (2,1,4,0,5,3), Shard(0) -> output Shard(5)
A torch rank's contiguous output shard is then byte-for-byte cuperm's local output block.

Timed, per case (CUDA events around one iteration, ranks aligned by a barrier before each,
median over --iters after --warmup; the row shows the slowest rank's median, as the C bench
shows the slowest rank):
  redist+perm   dt.redistribute(mesh, [Shard(k)]).permute(tperm), then the local shard made
                contiguous (k: the input dim that becomes the output's sharded dim)
  perm+redist   dt.permute(tperm).redistribute(mesh, [Shard(out)]), local shard made contiguous
  a2a           dist.all_to_all_single of 1/G of the local shard to each peer and none to itself,
                (G-1)/G of it in all: the bytes cuperm's plan sends for these cases, as the C
                bench's grouped ncclSend/ncclRecv baseline
Before timing, every case's small size is checked for both orders: each rank's local shard
against the full-tensor permute, and the gathered result (full_tensor) on rank 0.
"""
import argparse
import csv
import os
import statistics
import sys
import tempfile
import time

PERMS = {  # name: (cuperm perm, cuperm input shard mode, cuperm output shard mode)
    "reverse": ((5, 4, 3, 2, 1, 0), 5, 5),
    "swap01": ((1, 0, 2, 3, 4, 5), 5, 1),
    "mixed": ((2, 0, 5, 1, 4, 3), 5, 0),
}
NAMES = {"reverse": "6-D reverse, Shard(5)->Shard(5)", "swap01": "6-D swap01, Shard(5)->Shard(1)",
         "mixed": "6-D mixed, Shard(5)->Shard(0)"}
BIG, SMALL = (16, 24, 32, 12, 16), (8, 6, 4, 4, 2)


def make_case(kind, base, target_bytes, world, iters):
    """One case as the C bench builds it; extents in cuperm (column-major) order, plus the torch mapping."""
    other = 1
    for e in base:
        other *= e
    last = int(target_bytes * world / 4.0 / other) // world * world
    ext = tuple(base) + (max(last, world),)
    perm, in_mode, out_mode = PERMS[kind]
    tperm = tuple(5 - perm[5 - d] for d in range(6))
    out_dim = 5 - out_mode
    return dict(kind=kind, name=NAMES[kind], ext=ext, perm=perm, iters=iters, shape=tuple(reversed(ext)),
                tperm=tperm, in_dim=5 - in_mode, out_dim=out_dim, mid_dim=tperm[out_dim],
                size="large" if base == BIG else "small")


def make_cases(gb, world, iters):
    cases = [make_case(k, BIG, gb * 1e9, world, iters) for k in ("reverse", "swap01", "mixed")] if gb > 0 else []
    cases.append(make_case("reverse", SMALL, 1 << 20, world, iters * 20))
    cases += [make_case(k, SMALL, 64 << 10, world, iters * 20) for k in ("swap01", "mixed")]
    return cases


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--gb", type=float, default=1.0, help="GB per GPU of the large cases (0: small cases only)")
    p.add_argument("--iters", type=int, default=10, help="timed iterations (x20 for the small cases)")
    p.add_argument("--warmup", type=int, default=2, help="untimed iterations before timing")
    p.add_argument("--out", default=None, help="directory for dtensor-bench.csv (created)")
    p.add_argument("--nprocs", type=int, default=0, help="processes (default: every visible GPU; 2 with --cpu)")
    p.add_argument("--cpu", action="store_true", help="gloo + CPU tensors: smoke test of the same code")
    a = p.parse_args(argv)
    if a.iters < 1 or a.warmup < 0 or a.gb < 0:
        p.error("--iters >= 1, --warmup >= 0, --gb >= 0")
    return a


def worker(rank, args, world, store):
    os.environ["NCCL_NVLS_ENABLE"] = "0"
    import torch
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.tensor import DTensor, Shard
    try:
        from torch.distributed._functional_collectives import AsyncCollectiveTensor
    except ImportError:  # pragma: no cover
        AsyncCollectiveTensor = ()

    cuda = not args.cpu
    if cuda:
        torch.cuda.set_device(rank)
        dev = torch.device("cuda", rank)
        dist.init_process_group("nccl", init_method="file://" + store, rank=rank, world_size=world, device_id=dev)
    else:
        dev = torch.device("cpu")
        dist.init_process_group("gloo", init_method="file://" + store, rank=rank, world_size=world)
    mesh = init_device_mesh(dev.type, (world,))

    def local(y):
        """The DTensor's local shard, waited for and materialised contiguous."""
        t = y.to_local()
        if isinstance(t, AsyncCollectiveTensor):
            t = t.wait()
        return t.contiguous()

    def ops(c, dt):
        return {"redist+perm": lambda: local(dt.redistribute(mesh, [Shard(c["mid_dim"])]).permute(c["tperm"])),
                "perm+redist": lambda: local(dt.permute(c["tperm"]).redistribute(mesh, [Shard(c["out_dim"])]))}

    def shard_in(c, full):
        return DTensor.from_local(full.chunk(world, dim=c["in_dim"])[rank].contiguous(), mesh, [Shard(c["in_dim"])],
                                  run_check=False)

    def check(c):
        """Both orders on a small case: local shards against the full permute, the gathered result on rank 0."""
        n = 1
        for e in c["ext"]:
            n *= e
        full = torch.arange(n, dtype=torch.float32, device=dev).reshape(c["shape"])  # exact below 2^24
        want = full.permute(c["tperm"]).contiguous()
        parts = want.chunk(world, dim=c["out_dim"])  # DTensor's split; uneven only when G > 4 (small mixed)
        want_local = parts[rank] if rank < len(parts) else want.narrow(c["out_dim"], 0, 0)
        dt, errs = shard_in(c, full), []
        for order, fn in ops(c, dt).items():
            got = fn()
            if not (got.is_contiguous() and got.shape == want_local.shape and torch.equal(got, want_local)):
                errs.append("%s: local shard on rank %d" % (order, rank))
            if order == "redist+perm":
                y = dt.redistribute(mesh, [Shard(c["mid_dim"])]).permute(c["tperm"])
            else:
                y = dt.permute(c["tperm"]).redistribute(mesh, [Shard(c["out_dim"])])
            if tuple(y.placements) != (Shard(c["out_dim"]),):
                errs.append("%s: placement %s, wanted Shard(%d)" % (order, y.placements, c["out_dim"]))
            g = y.full_tensor()  # every rank takes part in the gather; rank 0 compares
            if rank == 0 and not torch.equal(g.contiguous(), want):
                errs.append("%s: gathered tensor on rank 0" % order)
        return errs

    def barrier():
        if cuda:
            torch.cuda.synchronize()
        dist.barrier()
        if cuda:
            torch.cuda.synchronize()

    def timed(fn, iters):
        ts = []
        for it in range(args.warmup + iters):
            barrier()
            if cuda:
                e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                e0.record()
                fn()
                e1.record()
                e1.synchronize()
                t = e0.elapsed_time(e1)
            else:
                t0 = time.perf_counter()
                fn()
                t = (time.perf_counter() - t0) * 1e3
            if it >= args.warmup:
                ts.append(t)
        return statistics.median(ts)

    def slowest(vals):
        t = torch.tensor(vals, dtype=torch.float64, device=dev)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        return t.tolist()

    cases = make_cases(args.gb, world, args.iters)
    errs = []
    for c in cases:
        if c["size"] == "small":
            errs += ["%s %s" % (c["name"], e) for e in check(c)]
    bad = slowest([float(len(errs))])[0] > 0
    for e in errs:
        print("FAILED check %s" % e, flush=True)

    if rank == 0:
        nccl = ".".join(map(str, torch.cuda.nccl.version())) if cuda else "-"
        print("dtensor_bench: %d %s, torch %s, NCCL %s, NCCL_NVLS_ENABLE=%s; correctness %s" % (
            world, "GPUs" if cuda else "CPU processes (gloo)", torch.__version__, nccl,
            os.environ.get("NCCL_NVLS_ENABLE"), "FAILED" if bad else "ok"))
        print("%-32s %-22s %8s %11s %12s %12s %9s %7s %7s" % ("case", "global extents (cuperm)", "GB/GPU",
              "sent B/GPU", "redist+perm", "perm+redist", "a2a ms", "rp/a2a", "pr/a2a"), flush=True)
    rows = []
    for c in cases:
        n = 1
        for e in c["ext"]:
            n *= e
        full_shape = list(c["shape"])
        full_shape[c["in_dim"]] //= world
        x = torch.empty(full_shape, dtype=torch.float32, device=dev).normal_()
        dt = DTensor.from_local(x, mesh, [Shard(c["in_dim"])], run_check=False)
        t = {k: timed(fn, c["iters"]) for k, fn in ops(c, dt).items()}
        k = x.numel() // world  # to each peer, nothing to itself: the bytes a Shard->Shard move sends
        splits = [0 if p == rank else k for p in range(world)]
        send, recv = x.reshape(-1)[:k * (world - 1)], torch.empty(k * (world - 1), dtype=torch.float32, device=dev)
        t["a2a"] = timed(lambda: dist.all_to_all_single(recv, send, splits, splits), c["iters"])
        del dt, x, send, recv
        rp, pr, a2a = slowest([t["redist+perm"], t["perm+redist"], t["a2a"]])
        gbpg, sent = n * 4 / world / 1e9, k * 4 * (world - 1)
        ext = "x".join(map(str, c["ext"]))
        row = dict(case=c["name"], size=c["size"], extents_cuperm=ext, torch_shape="x".join(map(str, c["shape"])),
                   torch_perm=",".join(map(str, c["tperm"])), torch_in_shard=c["in_dim"], torch_out_shard=c["out_dim"],
                   world=world, gb_per_gpu="%.4f" % gbpg, sent_bytes_per_gpu=sent, iters=c["iters"],
                   redist_perm_ms="%.4f" % rp, perm_redist_ms="%.4f" % pr, a2a_ms="%.4f" % a2a,
                   torch=torch.__version__, backend="nccl" if cuda else "gloo")
        rows.append(row)
        if rank == 0:
            print("%-32s %-22s %8.4f %11d %12.4f %12.4f %9.4f %7.3f %7.3f %s" % (
                c["name"], ext, gbpg, sent, rp, pr, a2a, rp / a2a if a2a else 0, pr / a2a if a2a else 0, c["size"]),
                flush=True)
        if cuda:
            torch.cuda.empty_cache()
    if rank == 0 and args.out:
        os.makedirs(args.out, exist_ok=True)
        path = os.path.join(args.out, "dtensor-bench.csv")
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        print("wrote %s" % path)
    if rank == 0:
        print("FAILED" if bad else "PASSED", flush=True)
    dist.barrier()
    dist.destroy_process_group()
    if bad:
        sys.exit(1)


def main(argv=None):
    args = parse_args(argv)
    os.environ["NCCL_NVLS_ENABLE"] = "0"  # before any NCCL communicator exists; the children inherit it
    import torch
    import torch.multiprocessing as mp
    world = args.nprocs or (2 if args.cpu else torch.cuda.device_count())
    if world < 2 or (not args.cpu and world > torch.cuda.device_count()):
        sys.exit("dtensor_bench: needs >= 2 processes and a GPU for each (visible GPUs: %d; --cpu for gloo)"
                 % (0 if args.cpu else torch.cuda.device_count()))
    tmp = tempfile.mkdtemp(prefix="dtensor_bench.")
    try:
        mp.spawn(worker, args=(args, world, os.path.join(tmp, "store")), nprocs=world, join=True)
    except mp.ProcessExitedException as e:
        sys.exit("dtensor_bench: a process exited with %s" % e.exit_code)
    finally:
        for f in os.listdir(tmp):
            os.remove(os.path.join(tmp, f))
        os.rmdir(tmp)


if __name__ == "__main__":
    main()
