#!/usr/bin/env python3
"""Operator prices of the GETT time model (cuperm_gett_tuning_t.opSeconds0 / opStepSeconds).

From cuperm-bench CSVs of the same random contractions run by GETT plans (--algo gett) without
operators and with them (scripts/gpu-gett-ops-check.sh PART=price writes them): per operator set, a
least-squares line through each case's extra time against its steps of K,
extra = fixed + steps x per-step. Input operators' per-step times are per operand (the sets put the
same operator on A and B); the fixed time is the operator instance's, whatever the operators.

  tools/model/fit_gett_ops.py DIR     (DIR holds price-<dtype>-<opA>-<opB>-<opD>/ folders)
"""
import csv
import glob
import gzip
import math
import os
import statistics
import sys

STEP_DEPTH = {"f16": 32, "bf16": 32, "f32": 16, "f64": 16}  # the kernels' K step (gett.h)


def load(folder):
    (path,) = glob.glob(os.path.join(folder, "*.csv*"))
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        return {r["id"]: r for r in csv.DictReader(l for l in f if not l.startswith("#"))}


def line(xs, ys):
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return my - b * mx, b


def main(root):
    for base_dir in sorted(glob.glob(os.path.join(root, "price-*-identity-identity-identity"))):
        dtype = os.path.basename(base_dir).split("-")[1]
        base = load(base_dir)
        for other in sorted(glob.glob(os.path.join(root, f"price-{dtype}-*-*-*"))):
            ops = os.path.basename(other).split("-")[2:]
            if ops == ["identity"] * 3:
                continue
            run = load(other)
            xs, ys = [], []
            for case, r in base.items():
                xs.append(math.ceil(int(r["k"]) / STEP_DEPTH[dtype]))
                ys.append((float(run[case]["time_ms"]) - float(r["time_ms"])) * 1e3)
            fixed, per_step = line(xs, ys)
            inputs = sum(op != "identity" for op in ops[:2])
            resid = statistics.median(abs(y - fixed - per_step * x) for x, y in zip(xs, ys))
            print(f"{dtype} ops {','.join(ops)}: fixed {fixed:.2f} us, per step {per_step:.3f} us"
                  + (f" ({per_step / inputs:.3f} per input operand)" if inputs else "")
                  + f"; median extra {statistics.median(ys):.2f} us, residual {resid:.2f} us, {len(xs)} cases")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
