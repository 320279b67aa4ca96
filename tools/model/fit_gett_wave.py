#!/usr/bin/env python3
"""Fits the one-wave GETT time model (src/core/tuning.h: cuperm_gett_tuning_t) to cuperm-bench
contraction CSVs of GETT plans (--algo gett): t = seconds0 + ceil(K / BK) * stepSeconds + bytes *
byteSeconds over the cases whose grid fits one wave, least squares on relative error.

    fit_gett_wave.py f16|f32 CSV...      (plain or .gz; prints the constants and the worst cases)
"""
import csv
import gzip
import math
import sys

SMS = 132
# Per family: tile M, tile N, tile K, resident blocks per SM (src/backend/cuda/gett/).
FAMILY = {"f16": (128, 128, 32, 2), "bf16": (128, 128, 32, 2), "f32": (64, 64, 16, 4), "f64": (64, 64, 16, 3)}


def rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        yield from csv.DictReader(line for line in f if not line.startswith("#"))


def solve(a, b):
    """Gauss-Jordan with partial pivoting (no numpy on the build machines)."""
    n = len(b)
    m = [a[i][:] + [b[i]] for i in range(n)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def main():
    dtype, paths = sys.argv[1], sys.argv[2:]
    bm, bn, bk, resident = FAMILY[dtype]
    x, y, cases = [], [], []
    for path in paths:
        for r in rows(path):
            if not r.get("time_ms"):
                continue
            m, n, k, b = int(r["m"]), int(r["n"]), int(r["k"]), int(r["batch"])
            if math.ceil(m / bm) * math.ceil(n / bn) * b > SMS * resident:
                continue  # more than one wave: outside the model
            t = float(r["time_ms"]) * 1e-3
            x.append([1.0, math.ceil(k / bk), float(r["bytes"])])
            y.append(t)
            cases.append((r["spec"], m, n, k, b))
    w = [1 / v for v in y]
    a = [[sum(w[i] ** 2 * x[i][p] * x[i][q] for i in range(len(x))) for q in range(3)] for p in range(3)]
    rhs = [sum(w[i] ** 2 * x[i][p] * y[i] for i in range(len(x))) for p in range(3)]
    c = solve(a, rhs)
    pred = [sum(c[j] * v[j] for j in range(3)) for v in x]
    err = sorted(((abs(math.log(max(p, 1e-9) / t)), i) for i, (p, t) in enumerate(zip(pred, y))), reverse=True)
    print(f"{dtype}: {len(y)} one-wave cases: seconds0 {c[0]:.3e}, stepSeconds {c[1]:.3e}, byteSeconds {c[2]:.3e}; "
          f"median |log error| {sorted(e for e, _ in err)[len(err) // 2]:.2f}")
    for e, i in err[:6]:
        print(f"  {cases[i]}: measured {y[i] * 1e6:.1f} us, model {pred[i] * 1e6:.1f} us")


if __name__ == "__main__":
    main()
