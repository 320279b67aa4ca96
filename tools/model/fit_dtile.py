#!/usr/bin/env python3
"""Fits the D-tile GETT kernel's time model (src/core/tuning.h: cuperm_dtile_tuning_t) to measured
times: t = seconds0 + items * itemSeconds + panelBytes * panelByteSeconds + panelLoads * loadSeconds +
dBytes * dByteSeconds + dStores * storeSeconds, one block's work as cuperm-ctr-plan-time --dtile prints it. Least squares on
relative error with every coefficient >= 0 (each subset of the terms solved, the best feasible
kept: six terms, 64 subsets).

    fit_dtile.py FEATURES.csv:BENCH.csv[:TTGT.csv] [...] [--check FEATURES.csv:BENCH.csv[:TTGT.csv] ...]
                 [--tuning a,b,c,d,e,f] [--margin M]

FEATURES: cuperm-ctr-plan-time CASES --dtile --dtype f16 (the cases of cuperm-bench SUITE --list);
BENCH: cuperm-bench's CSV of the same suite run with the D-tile kernel (CUPERM_GETT=1
CUPERM_GETT_DTILE=1; plain or .gz), rows whose description names the D-tile kernel. --check: cases
reported with the fitted (or --tuning) coefficients but not fitted (held out). TTGT: the same suite's
CSV with TTGT plans (default plans of a library whose model never takes the kernel): then model
planning's choice (the kernel where its modelled time x M, default 1, is below the TTGT model's) is
scored against both measured times. Prints the coefficients, the errors and, per case, measured vs
modelled time and the TTGT model's time.
"""
import itertools
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fit_gett_wave import rows, solve  # noqa: E402 (the CSV reader and the linear solver)

TERMS = ("items", "panel_bytes", "panel_loads", "d_bytes", "d_stores")


def load(pair):
    feat_path, bench_path, *ttgt_path = pair.split(":")
    feats = {r["id"]: r for r in rows(feat_path)}
    ttgt = {r["id"]: float(r["time_ms"]) * 1e-3 for r in rows(ttgt_path[0])} if ttgt_path else {}
    out = []
    for r in rows(bench_path):
        if "D-tile kernel" not in r["description"] or r["id"] not in feats:
            continue
        f = feats[r["id"]]
        x = [1.0] + [float(f[t]) for t in TERMS]
        out.append((bench_path, r["id"], x, float(r["time_ms"]) * 1e-3, float(f["ttgt_us"]) * 1e-6,
                    ttgt.get(r["id"])))
    return out


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
            try:
                c = solve(a, b)
            except ZeroDivisionError:  # a singular subset
                continue
            if min(c) < 0:
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


def choice(name, coef, data, margin):
    """Model planning's picks against the measured times of both plans (cases with a TTGT time)."""
    data = [d for d in data if d[5]]
    if not data:
        return
    wins = [d for d in data if d[3] < d[5]]
    picks = [d for d in data if predict(coef, d[2]) * margin < d[4]]
    losers = [f"{d[1]} ({d[3] / d[5]:.2f}x)" for d in picks if d[3] > 1.05 * d[5]]
    chosen = [(d[3] if d in picks else d[5]) / d[5] for d in data]
    print(f"{name}, margin {margin}: the kernel faster than TTGT on {len(wins)} of {len(data)}, taken on {len(picks)} "
          f"({sum(1 for d in picks if d in wins)} of them wins); time vs TTGT plans, geomean "
          f"{math.exp(sum(math.log(c) for c in chosen) / len(chosen)):.3f}; taken where >5% slower: {losers or 'none'}")


def report(name, coef, data, margin):
    ratios = sorted(predict(coef, d[2]) / d[3] for d in data)
    med = ratios[len(ratios) // 2]
    print(f"{name}: {len(data)} cases, modelled/measured median {med:.3f}, range {ratios[0]:.3f}-{ratios[-1]:.3f}, "
          f"median |error| {sorted(abs(r - 1) for r in ratios)[len(ratios) // 2]:.3f}")
    for path in sorted({d[0] for d in data}):
        choice(f"  {path}", coef, [d for d in data if d[0] == path], margin)
    for d in data:
        m = predict(coef, d[2])
        print(f"  {d[0].split('/')[-1]} {d[1]:>3}: measured {d[3] * 1e6:8.1f} us, "
              f"model {m * 1e6:8.1f} us ({m / d[3]:.2f}), TTGT model {d[4] * 1e6:8.1f} us")


def main(argv):
    fitted, checked, tuning, margin = [], [], None, 1.0
    target = fitted
    it = iter(argv)
    for a in it:
        if a == "--check":
            target = checked
        elif a == "--margin":
            margin = float(next(it))
        elif a == "--tuning":
            tuning = [float(x) for x in next(it).split(",")]
        else:
            target.extend(load(a))
    coef = tuning or fit(fitted)
    print("coefficients (seconds0, itemSeconds, panelByteSeconds, loadSeconds, dByteSeconds, storeSeconds): "
          + ", ".join(f"{c:.4g}" for c in coef))
    if fitted:
        report("fitted", coef, fitted, margin)
    if checked:
        report("held out", coef, checked, margin)


if __name__ == "__main__":
    main(sys.argv[1:])
