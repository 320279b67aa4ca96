#!/usr/bin/env python3
"""Fits the contraction planner's cuBLAS GEMM model to a sweep of measured GEMMs.

    python3 tools/bench/contraction_gemm_fit.py SWEEP.csv[,SWEEP2.csv ...] [HEADER.h] [--batch-k F16,F32]
                                                [--bandwidth BYTES_PER_S] [--heldout BENCH.csv ...]

--bandwidth: the DRAM rate of the device the sweep ran on, as the library derives it (memory clock x
bus width x 2, src/exec/handle.c; default the H100 SXM's 3.35e12; an H200 reports ~4.8e12); the base
takes 90% of it, as src/exec/contraction/plan.c does. A precision the sweep has no rows of keeps the
header's row.

--batch-k: seconds per step of k of a batched GEMM's thread block, fp16 and fp32, as the model
that uses the header will have them (src/core/tuning.c, CUPERM_SM90_GEMM_BATCH_K_SECONDS;
default 0,0: no such term).

--heldout: cuperm-bench contraction CSVs (their gemm_* columns: each plan's own GEMM as timed,
gemm_ms) on which the fitted model is also scored, apart from the sweep it was fitted to: the
check that the fit generalises to the GEMMs real plans make.

SWEEP.csv comes from cuperm-ctr-gemm-sweep (tools/bench/contraction_gemm_sweep.c) on
the device (several, comma-separated, are fitted as one). The model
(src/plan/contraction/gemm_cost.c) is a roofline base -- flops at the peak rate derated for
tile quantisation, bytes at bandwidth, a floor per thread block, for batches k steps per
wave of thread blocks, a launch -- times a layout factor exp(w . x). x are the features below
(transpose flags, skinny dimensions, strided / shared / pointer-array batching and
their interactions); w is fitted here per precision (f16 inputs on tensor cores,
strict f32) by ridge-regularised least squares on log(measured / base). The script
prints the weights and the fit quality, and writes them as a C header
(default src/plan/contraction/gemm_fit.h). The base uses the H100 SXM constants
that src/exec/contraction/plan.c derives for that device.
"""
import csv
import gzip
import math
import re
import sys

import numpy as np

# ---- the base model: the same arithmetic as cuperm_ctr_gemm_base() in src/plan/contraction/gemm_cost.c ----
PEAK = {"f16": 989e12, "f32": 67e12}
BANDWIDTH = 0.9 * 3.35e12  # 90% of the H100 SXM's HBM3 bandwidth (ctr_plan.c: device_model)
SIZE = {"f16": 2, "f32": 4}
SM_COUNT = 132
BATCH_K_SECONDS = {"f16": 0.0, "f32": 0.0}  # --batch-k; src/core/tuning.c: CUPERM_SM90_GEMM_BATCH_K_SECONDS


def tile_of(x):
    t = 16
    while t < 128 and t < x:
        t *= 2
    return t


def tile_use(x):
    t = tile_of(x)
    return x / (((x + t - 1) // t) * t)


def base_seconds(dtype, m, n, k, batch, share_first, share_second):
    use = tile_use(m) * tile_use(n) * (k / (k + 16))
    compute = 2.0 * m * n * k * batch / (PEAK[dtype] * use)
    e = SIZE[dtype]
    nbytes = e * m * k * (1 if share_first else batch) + e * k * n * (1 if share_second else batch) + e * m * n * batch
    memory = nbytes / BANDWIDTH
    blocks = batch * ((m + tile_of(m) - 1) // tile_of(m)) * ((n + tile_of(n) - 1) // tile_of(n))
    serial = math.ceil(blocks / SM_COUNT) * k * BATCH_K_SECONDS[dtype] if batch > 1 and BATCH_K_SECONDS[dtype] > 0 else 0.0
    return 2.5e-6 + max(compute, memory, blocks * 2e-6 / 500.0, serial)


# ---- the features: the same as cuperm_cuperm_ctr_gemm_features() in src/plan/contraction/gemm_cost.c ----
FEATURES = [
    "intercept", "first T", "second T", "both T",
    "skinny m", "skinny n", "short k",
    "first T x skinny m", "first T x skinny n", "second T x skinny m", "second T x skinny n",
    "log2 batch (strided)", "shared operand", "pointer array", "log2 batch (pointer array)",
    "log2 batch x skinny", "log2 rows x cols (small)",
    "misaligned", "misaligned x log2 GFLOP",
]
# The sweep's leading dimensions are the matrices' heights: the odd family's are misaligned. The
# misalignment pair (17, 18) is fitted to plans' own GEMMs (tools/model/ctr_candidates.py --only
# 17,18); a sweep fit keeps it as the header has it and fits the others.
KEPT = (17, 18)
FITTED = [i for i in range(len(FEATURES)) if i not in KEPT]


def skinny(x):
    """How far below a 128-wide tile a dimension is, in octaves (0 at 128 and above)."""
    return math.log2(128.0 / min(x, 128))


def features(op_first, op_second, m, n, k, batch, shared, pointers):
    """All of cuperm_ctr_gemm_features(), the misalignment pair 0 (the sweeps' fitted families are aligned)."""
    tf, ts = float(op_first != "N"), float(op_second != "N")
    sm, sn, sk = skinny(m), skinny(n), skinny(k)
    lb = math.log2(batch)
    small = max(0.0, 20.0 - math.log2(m * n))  # output tiles per batch entry: few means little parallelism
    return [1.0, tf, ts, tf * ts, sm, sn, sk, tf * sm, tf * sn, ts * sm, ts * sn,
            0.0 if pointers else lb, float(shared), float(pointers), lb if pointers else 0.0,
            lb * max(sm, sn), small, 0.0, 0.0]


def load(paths):
    """The sweeps' rows (paths comma-separated); each may be gzip-compressed (.gz, as stored in
    bench/results)."""
    rows = []
    for path in paths.split(","):
        with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
            rows += list(csv.DictReader(line for line in f if not line.startswith("#")))
    return [r for r in rows if float(r["ms"]) > 0]


def full_weights(header):
    """Each row of an existing header, whole."""
    try:
        text = open(header).read()
    except OSError:
        return {}
    rows = re.findall(r"\{([-0-9., ]+)\}, /\* (f16|f32) \*/", text)
    return {name: np.array([float(x) for x in body.split(",")]) for body, name in rows}


def fit(rows, dtype, ridge=1e-2):
    X, y = [], []
    for r in rows:
        if r["dtype"] != dtype:
            continue
        m, n, k, b = (int(r[c]) for c in ("m", "n", "k", "batch"))
        sa, sb, ptr = int(r["shareA"]), int(r["shareB"]), r["kind"] == "pointers"
        base = base_seconds(dtype, m, n, k, b, sa and not ptr, sb and not ptr)
        X.append(features(r["opA"], r["opB"], m, n, k, b, (sa or sb) and not ptr, ptr))
        y.append(math.log(float(r["ms"]) * 1e-3 / base))
    if not y:
        return None, 0, 0.0, 0.0
    X, y = np.array(X)[:, FITTED], np.array(y)
    w = np.linalg.solve(X.T @ X + ridge * np.eye(X.shape[1]), X.T @ y)
    before = math.sqrt(float(np.mean(y ** 2)))
    after = math.sqrt(float(np.mean((y - X @ w) ** 2)))
    full = np.zeros(len(FEATURES))  # the kept weights 0 (the sweep's rows have 0 there)
    full[FITTED] = w
    return full, len(y), before, after


def heldout_rows(paths):
    """The plans' own GEMMs of cuperm-bench contraction CSVs: (dtype, opA, opB, m, n, k, batch,
    shareA, shareB, seconds, label). CSVs from before the gemm_* columns are skipped, said so."""
    out = []
    for path in paths:
        with (gzip.open(path, "rt", errors="replace") if path.endswith(".gz") else open(path, errors="replace")) as f:
            rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
        if rows and "gemm_m" not in rows[0]:
            print(f"{path}: no gemm_* columns (written before they existed): skipped")
            continue
        for r in rows:
            if r["dtype"] not in PEAK or not float(r["gemm_ms"]) > 0:
                continue
            out.append((r["dtype"], r["gemm_op_first"], r["gemm_op_second"],
                        *(int(r[c]) for c in ("gemm_m", "gemm_n", "gemm_k", "gemm_batch", "gemm_share_first",
                                              "gemm_share_second")),
                        float(r["gemm_ms"]) * 1e-3, f"{path.split('/')[-1]}:{r['id']}"))
    return out


def score(held, dtype, w):
    """rms of log(measured / model) on held-out GEMMs of dtype, for the base and with the factor
    (clamped as gemm_cost.c clamps it), and the three worst."""
    errs = []
    for d, oa, ob, m, n, k, b, sa, sb, sec, label in held:
        if d != dtype:
            continue
        base = base_seconds(dtype, m, n, k, b, sa, sb)
        e = float(np.dot(w, features(oa, ob, m, n, k, b, bool(sa or sb), False)))
        errs.append((math.log(sec / base), math.log(sec / (base * math.exp(min(max(e, -0.7), 2.3)))), label))
    if not errs:
        return None
    rms = lambda v: math.sqrt(sum(x * x for x in v) / len(v))
    worst = sorted(errs, key=lambda x: -abs(x[1]))[:3]
    return len(errs), rms([x[0] for x in errs]), rms([x[1] for x in errs]), worst


def main(argv):
    heldout = []
    if "--batch-k" in argv:
        at = argv.index("--batch-k")
        f16, f32 = (float(v) for v in argv[at + 1].split(","))
        BATCH_K_SECONDS.update(f16=f16, f32=f32)
        argv = argv[:at] + argv[at + 2:]
    if "--bandwidth" in argv:
        at = argv.index("--bandwidth")
        global BANDWIDTH
        BANDWIDTH = 0.9 * float(argv[at + 1])
        argv = argv[:at] + argv[at + 2:]
    if "--heldout" in argv:
        at = argv.index("--heldout")
        argv, heldout = argv[:at], argv[at + 1:]
    if len(argv) < 2:
        print(__doc__)
        return 2
    out = argv[2] if len(argv) > 2 else "src/plan/contraction/gemm_fit.h"
    rows = load(argv[1])
    held = heldout_rows(heldout)
    whole = full_weights(out)
    lines = []
    for dtype in ("f16", "f32"):
        w, count, before, after = fit(rows, dtype)
        if w is None:
            if dtype in whole:
                print(f"{dtype}: no GEMMs in the sweep; the header's row kept")
                lines.append((dtype, whole[dtype], 0, 0.0, 0.0))
            continue
        print(f"{dtype}: {count} GEMMs; rms log error of the base {before:.3f}, with the factor {after:.3f}")
        full = whole.get(dtype, np.zeros(len(FEATURES))).copy()
        full[FITTED] = w[FITTED]
        w = full
        for name, v in zip(FEATURES, w):
            print(f"    {name:<28} {v:+.4f}")
        scored = score(held, dtype, w) if held else None
        if scored:
            n, b, a, worst = scored
            print(f"  held out: {n} plans' GEMMs; rms log error of the base {b:.3f}, with the factor {a:.3f}; worst "
                  + ", ".join(f"{label} {e:+.2f}" for _, e, label in worst))
        lines.append((dtype, w, count, before, after))
    with open(out, "w") as f:
        f.write("/* Generated by tools/bench/contraction_gemm_fit.py from %s: do not edit.\n"
                % ", ".join(p.split("/")[-1] for p in argv[1].split(",")))
        f.write(" * Layout factor weights of the contraction GEMM model (gemm_cost.c), per precision;\n")
        f.write(" * features in cuperm_ctr_gemm_features() order. Fit quality (rms of log(measured / model)):\n")
        for dtype, w, count, before, after in lines:
            if count:
                f.write(" *   %s: %d GEMMs, base %.3f, with the factor %.3f\n" % (dtype, count, before, after))
            else:
                f.write(" *   %s: kept from the header this fit replaced\n" % dtype)
        f.write(" */\n#ifndef CUPERM_CTR_GEMM_FIT_H\n#define CUPERM_CTR_GEMM_FIT_H\n\n")
        f.write("/* [0]: 16-bit inputs on tensor cores, [1]: strict fp32. */\n")
        f.write("static const double cuperm_ctr_gemm_fit_weights[2][%d] = {\n" % len(FEATURES))
        for dtype, w, *_ in lines:
            f.write("    {" + ", ".join("%.5f" % v for v in w) + "}, /* %s */\n" % dtype)
        f.write("};\n\n#endif\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
