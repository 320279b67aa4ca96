#!/usr/bin/env python3
"""Would pricing the GETT table kernel beyond one wave of blocks choose better plans? (issue 15, session 52)

    python3 tools/model/gett_wave_replay.py CANDIDATES_DIR

CANDIDATES_DIR holds cuperm-ctr-candidate-times CSVs (scripts/gpu-ctr-candidates.sh):
tccg48-f16, random-contractions-f16-s1 (fitted), random-contractions-f16-s2, short-k-f16-s1 (held
out). The model prices the table kernel (not the skinny one) only on one wave
(src/plan/contraction/gett_cost.c: cuperm_ctr_gett_seconds); this extends its sm_90 f16 terms to
seconds0 + waves x steps x per-step + bytes x per-byte, scores that and a refit of the three terms
on the timed table-kernel candidates (log error), and replays model planning: a multi-wave
table-kernel candidate replaces the model's choice where its price x the GETT margin (1.25) is
below the choice's price; the geomean of the new choices' measured times over the old ones'.
"""
import collections
import csv
import glob
import gzip
import math
import sys

import numpy as np

# src/core/tuning.c, CUPERM_SM90_GETT (tensor cores) and CUPERM_SM90_GETT_MARGIN; the tiles and
# grid of src/plan/contraction/gett.c (128 x 128 x 32, 132 SMs of the H200)
SECONDS0, STEP_SECONDS, BYTE_SECONDS, RESIDENT_BLOCKS = 5.58e-6, 1.71e-6, 0.52e-12, 2
MARGIN, SM_COUNT, BM, BN, BK = 1.25, 132, 128, 128, 32
FITTED = ["tccg48-f16", "random-contractions-f16-s1"]
HELD_OUT = ["random-contractions-f16-s2", "short-k-f16-s1"]


def ceil_div(a, b):
    return (a + b - 1) // b


def is_table_kernel(r):
    """A GETT candidate the table kernel runs (N > 32 or K > 512: not the skinny kernel)."""
    return r["kind"] == "gett" and not (int(r["n"]) <= 32 and int(r["k"]) <= 512)


def features(r):
    """Waves of thread blocks, steps of K and the operands' bytes (16-bit) of a candidate."""
    m, n, k, b = int(r["m"]), int(r["n"]), int(r["k"]), int(r["batch"])
    waves = math.ceil(ceil_div(m, BM) * ceil_div(n, BN) * b / (SM_COUNT * RESIDENT_BLOCKS))
    return waves, ceil_div(k, BK), 2 * (m * k * b + k * n * b + m * n * b)


def predict(terms, waves, steps, nbytes):
    seconds0, step, byte = terms
    return seconds0 + waves * steps * step + nbytes * byte


def load(path):
    cases = collections.defaultdict(list)
    for r in csv.DictReader(gzip.open(path, "rt")):
        cases[r["id"]].append(r)
    return cases


def table_rows(files, names):
    """(features, measured seconds) of every timed table-kernel candidate of the named files."""
    return [(features(r), float(r["measured_us"]) * 1e-6)
            for nm in names for c in files[nm].values() for r in c if is_table_kernel(r)]


def fit(rows):
    """Least squares on relative error: sum((predicted - measured) / measured)^2, linear in the terms."""
    x = np.array([[1 / t, w * s / t, b / t] for (w, s, b), t in rows])
    terms, *_ = np.linalg.lstsq(x, np.ones(len(rows)), rcond=None)
    return terms


def error(terms, rows):
    e = np.array([math.log(t / predict(terms, *f)) for f, t in rows])
    return "n=%d median %.3f rms %.3f max %.2f min %.2f" % (len(e), np.median(e), np.sqrt((e**2).mean()), e.max(),
                                                              e.min())


def replay(cases, terms):
    """Geomean of the new choice's measured time over the model's choice's, and the cases that change."""
    log_sum, n, changed = 0.0, 0, []
    for i, c in cases.items():
        chosen = [r for r in c if r["model_choice"] == "1"]
        if not chosen:
            continue
        best = chosen[0]
        best_price = float(best["price_us"])
        for r in c:
            if is_table_kernel(r) and r["price_us"] == "inf":  # unpriced today: beyond one wave
                waves, steps, nbytes = features(r)
                if waves <= 1:
                    continue
                price = predict(terms, waves, steps, nbytes) * 1e6 * MARGIN
                if price < best_price:
                    best_price, best = price, r
        t_old, t_new = float(chosen[0]["measured_us"]), float(best["measured_us"])
        log_sum += math.log(t_new / t_old)
        n += 1
        if best is not chosen[0]:
            changed.append((i, round(t_old, 1), round(t_new, 1)))
    return math.exp(log_sum / n), changed


def main():
    files = {p.split("/")[-1].replace(".csv.gz", ""): load(p) for p in sorted(glob.glob(sys.argv[1] + "/*.csv.gz"))}
    current = (SECONDS0, STEP_SECONDS, BYTE_SECONDS)
    fitted_rows, held_rows = table_rows(files, FITTED), table_rows(files, HELD_OUT)
    refit = fit(fitted_rows)
    print("refitted terms", refit)
    print("current on fitted files", error(current, fitted_rows))
    print("current on held-out files", error(current, held_rows))
    print("refitted on fitted files", error(refit, fitted_rows))
    print("refitted on held-out files", error(refit, held_rows))
    for nm in FITTED + HELD_OUT:
        g, changed = replay(files[nm], refit)
        print(nm, "new/old time geomean %.4f; changed (case, old us, new us):" % g, changed)


if __name__ == "__main__":
    main()
