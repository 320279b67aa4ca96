#!/usr/bin/env python3
"""How far the contraction GEMM model is off on short-K GEMMs, and one extra term that closes it.

Reads cuperm-bench CSVs of default (TTGT) plans, which carry each plan's measured GEMM step time
(gemm_ms) next to the model's prediction (pred_gemm_ms) and the GEMM's m, n, k, batch, and fits
one coefficient c (ms per GFLOP) of  t = predicted + c * flops  on the first file by least squares
of log(model / measured); the other files are checked with it (not fitted).

  tools/model/fit_short_k_gemm.py FIT.csv.gz [CHECK.csv.gz ...]

An analysis, not (yet) the model: such a term cannot apply to long-K GEMMs, where the model is
right; its form over K is the next step (bench/results/gett-h100/dtile/model-h100/short-k-gemm.md).
"""
import csv
import gzip
import math
import sys


def points(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    out = []
    for r in rows:
        m, n, k, b = (int(r[c]) for c in ("gemm_m", "gemm_n", "gemm_k", "gemm_batch"))
        out.append({"meas": float(r["gemm_ms"]), "pred": float(r["pred_gemm_ms"]), "flops": 2.0 * m * n * k * b, "k": k})
    return out


def ratios(ps, c):
    return [(p["pred"] + c * p["flops"] * 1e-9) / p["meas"] for p in ps]


def summary(v):
    gm = math.exp(sum(math.log(x) for x in v) / len(v))
    errs = sorted(abs(math.log(x)) for x in v)
    return "model/measured geomean %.2f, median |error| %.0f%%, range %.2f-%.2f" % (
        gm, 100 * (math.exp(errs[len(errs) // 2]) - 1), min(v), max(v))


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    fit = points(argv[1])
    c = min((i * 1e-4 for i in range(4001)), key=lambda c: sum(math.log(x) ** 2 for x in ratios(fit, c)))
    print("c = %.4f ms per GFLOP (an extra %.0f TFLOP/s term)" % (c, 1.0 / c if c else float("inf")))
    for path in argv[1:]:
        ps = points(path)
        tag = "fitted" if path == argv[1] else "checked"
        print("%s %s (%d GEMMs, K %d-%d)" % (tag, path, len(ps), min(p["k"] for p in ps), max(p["k"] for p in ps)))
        print("  before: " + summary(ratios(ps, 0.0)))
        print("  after:  " + summary(ratios(ps, c)))


if __name__ == "__main__":
    main(sys.argv)
