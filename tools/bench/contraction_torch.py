#!/usr/bin/env python3
"""torch.einsum on the cases of cuperm-bench's contraction CSVs, joined to them.

    python3 tools/bench/contraction_torch.py OUT/tccg48-f32.csv [more.csv ...]

For each CSV writes NAME.torch.csv (the rows plus torch_ms, torch_eff, speedup
= torch_ms / time_ms) and NAME.torch.md (a per-case table and the summary
against the issue's targets). Roofline efficiency uses the peak and bandwidth
cuperm-bench measured in the same run (columns peak_tflops, bandwidth_gbs).

Tensors are column-major in cuperm (first mode stride-1); the same memory read
row-major has the modes reversed, so "abc-bda-dc" runs as
torch.einsum("adb,cd->cba"). The output must be in D's layout: when einsum
returns a permuted view, the timed region includes .contiguous().
Strict precision as in cuperm: no TF32, no reduced-precision fp16/bf16 reductions.
"""
import csv
import math
import statistics
import sys

import torch

DTYPES = {"f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16}


def time_ms(fn, target_ms=100.0):
    """Median milliseconds of one call: warm-up, batches of >= 1 ms timed with CUDA events."""
    for _ in range(3):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    end.synchronize()
    one = max(start.elapsed_time(end), 1e-3)
    inner = 1 if one >= 1.0 else int(1.0 / one) + 1
    batches = min(101, max(7, int(target_ms / (one * inner))))
    times = []
    for _ in range(batches):
        start.record()
        for _ in range(inner):
            fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / inner)
    return statistics.median(times)


_timed = {}


def run_case(spec, extents, dtype):
    """torch.einsum's time on one case; cases repeated across CSVs (the model and measure
    plan files of one run) are timed once."""
    key = (spec, extents, dtype)
    if key not in _timed:
        _timed[key] = _run_case(spec, extents, dtype)
    return _timed[key]


def _run_case(spec, extents, dtype):
    d, a, b = spec.split("-")
    ext = {chr(ord("a") + i): int(e) for i, e in enumerate(extents.split(":"))}
    tensors = []
    for modes in (a, b):
        shape = [ext[m] for m in reversed(modes)]
        tensors.append(torch.rand(shape, device="cuda", dtype=dtype) * 2 - 1)
    expr = f"{a[::-1]},{b[::-1]}->{d[::-1]}"
    out = torch.einsum(expr, *tensors)
    permuted = not out.is_contiguous()

    def fn():
        r = torch.einsum(expr, *tensors)
        return r.contiguous() if permuted else r

    return time_ms(fn), permuted


def geomean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else 0.0


def process(path):
    with open(path) as f:
        header = [line for line in f if line.startswith("#")]
    with open(path) as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    out_rows = []
    for row in rows:
        dtype = DTYPES[row["dtype"]]
        t, permuted = run_case(row["spec"], row["extents"], dtype)
        peak = float(row["peak_tflops"]) * 1e12
        bw = float(row["bandwidth_gbs"]) * 1e9
        floor = max(float(row["flops"]) / peak, float(row["bytes"]) / bw)
        row.update(torch_ms=f"{t:.6g}", torch_eff=f"{floor / (t * 1e-3):.4f}",
                   speedup=f"{t / float(row['time_ms']):.3f}", torch_contiguous_copy=int(permuted))
        out_rows.append(row)
        print(f"{row['id']:>4} {row['spec']:<24} cuperm {float(row['time_ms']):9.4f} ms  "
              f"torch {t:9.4f} ms  eff {row['eff']} / {row['torch_eff']}  x{row['speedup']}", flush=True)
        torch.cuda.empty_cache()
    stem = path[:-4] if path.endswith(".csv") else path
    with open(stem + ".torch.csv", "w", newline="") as f:
        f.writelines(header)
        w = csv.DictWriter(f, fieldnames=list(out_rows[0].keys()))
        w.writeheader()
        w.writerows(out_rows)
    ours = geomean([float(r["eff"]) for r in out_rows])
    plain = geomean([float(r["plain_gemm_eff"]) for r in out_rows])
    tor = geomean([float(r["torch_eff"]) for r in out_rows])
    slower = [r for r in out_rows if float(r["time_ms"]) > float(r["torch_ms"])]
    summary = (
        f"{len(out_rows)} cases, dtype {out_rows[0]['dtype']}; geomean roofline efficiency: cuperm {ours:.3f}, "
        f"plain same-shape cuBLAS GEMM {plain:.3f}, torch.einsum {tor:.3f}\n"
        f"cuperm / plain GEMM = {ours / plain:.3f} (target >= 0.8): {'met' if ours >= 0.8 * plain else 'MISSED'}\n"
        f"cuperm / torch.einsum = {ours / tor:.3f} (target >= 1.3): {'met' if ours >= 1.3 * tor else 'MISSED'}\n"
        f"cases slower than torch.einsum: {len(slower)} (target 0)"
        + "".join(f"\n  {r['id']} {r['spec']}: {r['time_ms']} ms vs {r['torch_ms']} ms" for r in slower) + "\n")
    print(summary)
    with open(stem + ".torch.md", "w") as f:
        f.write("".join("    " + h for h in header) + "\n")
        f.write("| id | spec | m | n | k | cuperm ms | transposes ms | GEMM ms | TFLOP/s | eff | plain GEMM eff "
                "| torch ms | torch eff | torch/cuperm |\n|" + "---|" * 14 + "\n")
        for r in out_rows:
            f.write(f"| {r['id']} | {r['spec']} | {r['m']} | {r['n']} | {r['k']} | {float(r['time_ms']):.4f} | "
                    f"{float(r['transpose_ms']):.4f} | {float(r['gemm_ms']):.4f} | {float(r['tflops']):.2f} | "
                    f"{r['eff']} | {r['plain_gemm_eff']} | {float(r['torch_ms']):.4f} | {r['torch_eff']} | "
                    f"{r['speedup']} |\n")
        f.write("\n```\n" + summary + "```\n")


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction = False
    torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction = False
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}")
    for path in argv[1:]:
        process(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
