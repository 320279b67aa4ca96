#!/usr/bin/env python3
"""Fits the D-tile GETT kernel's time model (src/core/tuning.h: cuperm_dtile_tuning_t) to measured
times: t = seconds0 + items * itemSeconds + panelBytes * panelByteSeconds + panelLoads * loadSeconds + dBytes * dByteSeconds +
dStores * storeSeconds, one block's work as cuperm-ctr-plan-time --dtile prints it. Least squares on
relative error with every coefficient >= 0 (each subset of the terms solved, the best feasible
kept: six terms, 64 subsets).

    fit_dtile.py FEATURES.csv:BENCH.csv [...] [--check FEATURES.csv:BENCH.csv ...] [--tuning a,b,c,d,e]

FEATURES: cuperm-ctr-plan-time CASES --dtile --dtype f16 (the cases of cuperm-bench SUITE --list);
BENCH: cuperm-bench's CSV of the same suite run with the D-tile kernel (CUPERM_GETT=1
CUPERM_GETT_DTILE=1; plain or .gz), rows whose description names the D-tile kernel. --check: cases
reported with the fitted (or --tuning) coefficients but not fitted (held out). Prints the
coefficients, the errors and, per case, measured vs modelled time and the TTGT model's time.
"""
import csv
import gzip
import itertools
import math
import sys

TERMS = ("items", "panel_bytes", "panel_loads", "d_bytes", "d_stores")


def rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        yield from csv.DictReader(line for line in f if not line.startswith("#"))


def load(pair):
    feat_path, bench_path = pair.split(":")
    feats = {r["id"]: r for r in rows(feat_path)}
    out = []
    for r in rows(bench_path):
        if "D-tile kernel" not in r["description"] or r["id"] not in feats:
            continue
        f = feats[r["id"]]
        x = [1.0] + [float(f[t]) for t in TERMS]
        out.append((pair.split(":")[1], r["id"], x, float(r["time_ms"]) * 1e-3, float(f["ttgt_us"]) * 1e-6))
    return out


def solve(a, b):
    """Gauss-Jordan with partial pivoting."""
    n = len(b)
    m = [a[i][:] + [b[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-300:
            return None
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(data):
    best = None
    n = 1 + len(TERMS)
    for k in range(1, n + 1):
        for subset in itertools.combinations(range(n), k):
            # Rows x / t, target 1: least squares on relative error; columns scaled for conditioning.
            scale = [max(abs(d[2][j]) for d in data) or 1.0 for j in subset]
            a = [[sum(d[2][i] / s_i * d[2][j] / s_j / d[3] ** 2 for d in data) for j, s_j in zip(subset, scale)]
                 for i, s_i in zip(subset, scale)]
            b = [sum(d[2][i] / s_i / d[3] for d in data) for i, s_i in zip(subset, scale)]
            c = solve(a, b)
            if c is None or min(c) < 0:
                continue
            coef = [0.0] * n
            for j, cj, s in zip(subset, c, scale):
                coef[j] = cj / s
            err = sum((predict(coef, d[2]) / d[3] - 1) ** 2 for d in data)
            if best is None or err < best[0]:
                best = (err, coef)
    return best[1]


def predict(coef, x):
    return sum(c * v for c, v in zip(coef, x))


def report(name, coef, data):
    ratios = sorted(predict(coef, d[2]) / d[3] for d in data)
    med = ratios[len(ratios) // 2]
    print(f"{name}: {len(data)} cases, modelled/measured median {med:.3f}, range {ratios[0]:.3f}-{ratios[-1]:.3f}, "
          f"median |error| {sorted(abs(r - 1) for r in ratios)[len(ratios) // 2]:.3f}")
    for d in data:
        m = predict(coef, d[2])
        print(f"  {d[0].split('/')[-2] if '/' in d[0] else d[0]} {d[1]:>3}: measured {d[3] * 1e6:8.1f} us, "
              f"model {m * 1e6:8.1f} us ({m / d[3]:.2f}), TTGT model {d[4] * 1e6:8.1f} us")


def main(argv):
    fitted, checked, tuning = [], [], None
    target = fitted
    it = iter(argv)
    for a in it:
        if a == "--check":
            target = checked
        elif a == "--tuning":
            tuning = [float(x) for x in next(it).split(",")]
        else:
            target.extend(load(a))
    coef = tuning or fit(fitted)
    print("coefficients (seconds0, itemSeconds, panelByteSeconds, loadSeconds, dByteSeconds, storeSeconds): "
          + ", ".join(f"{c:.4g}" for c in coef))
    if fitted:
        report("fitted", coef, fitted)
    if checked:
        report("held out", coef, checked)


if __name__ == "__main__":
    main(sys.argv[1:])
