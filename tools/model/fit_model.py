#!/usr/bin/env python3
"""Fits the transpose performance model (src/plan/transpose/model.h) to benchmark results.

    t = t0 + bytes / (peak * efficiency[class] * min(1, run_bytes / 128) ** gamma)

Reads cuperm-bench CSV files (heuristic-mode rows), asks `cuperm-plan-features`
(built from tools/model/plan_features.c) for each case's model features, and
searches t0 and gamma on a grid; for each pair, every class's efficiency is the
median that makes its cases' errors balance. The pair with the smallest mean
absolute log error wins (a median let a steep gamma mispredict a few
short-run cases tenfold). Writes the architecture's coefficients,
src/core/tuning_model_smARCH.h, which that architecture's tuning table
(src/core/tuning.c) reads, and prints the fit.

    python3 tools/model/fit_model.py --arch 90 --features build/tools/model/cuperm-plan-features \\
        --peak 3.352e12 bench/results/h100/*.csv

A new architecture (say --arch 100) gets its own file; src/core/tuning.c's table for it
then includes that file and takes its CUPERM_SM100_MODEL_* values.
"""
import argparse
import csv
import os
import math
import statistics
import subprocess
import sys

ELEM = {"f64": 8, "f32": 4, "f16": 2, "bf16": 2, "c64": 16, "c32": 8, "i64": 8, "u64": 8,
        "i32": 4, "u32": 4, "i16": 2, "i8": 1, "u8": 1}
CLASSES = ["copy", "rows", "rows (16-byte vectors)", "tiled", "tiled (16-byte vectors)"]


def load(paths):
    cases = []
    for path in paths:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                if r["mode"] != "heuristic" or not r["exec_ms"] or r.get("error"):
                    continue
                cases.append({"elem": ELEM[r["dtype"]], "extents": r["extents"].replace(" ", ","),
                              "perm": r["perm"].replace(" ", ","), "seconds": float(r["exec_ms"]) * 1e-3,
                              "suite": r["suite"]})
    return cases


def features(tool, cases):
    text = "".join(f'{c["elem"]} {c["extents"]} {c["perm"]}\n' for c in cases)
    out = subprocess.run([tool], input=text, capture_output=True, text=True, check=True).stdout.split()
    if len(out) != len(cases):
        sys.exit(f"fit_model: {tool} answered {len(out)} lines for {len(cases)} cases")
    for c, line in zip(cases, out):
        cls, nbytes, run = line.split(",")
        c.update(cls=int(cls), bytes=float(nbytes), run=float(run))


def shape(run, gamma):
    return 1.0 if run >= 128 else (run / 128) ** gamma


def fit(cases, peak):
    best = None
    for t0_us in [x * 0.5 for x in range(0, 21)]:
        t0 = t0_us * 1e-6
        for gamma in [x * 0.05 for x in range(0, 41)]:
            eff = []
            for k in range(len(CLASSES)):
                vals = [c["bytes"] / ((c["seconds"] - t0) * peak * shape(c["run"], gamma))
                        for c in cases if c["cls"] == k and c["seconds"] > t0]
                eff.append(statistics.median(vals) if vals else 0.85)
            err = statistics.fmean(abs(math.log(predict(c, t0, gamma, eff, peak) / c["seconds"])) for c in cases)
            if best is None or err < best[0]:
                best = (err, t0, gamma, eff)
    return best


def predict(c, t0, gamma, eff, peak):
    return t0 + c["bytes"] / (peak * eff[c["cls"]] * shape(c["run"], gamma))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--features", required=True, help="path of the cuperm-plan-features program")
    ap.add_argument("--peak", type=float, required=True,
                    help="the device's DRAM bytes/s as cuperm computes it (2 x memory clock x bus width)")
    ap.add_argument("--arch", default="90",
                    help="compute capability the data was measured on, as in sm_ARCH (default 90)")
    ap.add_argument("--out", help="default: src/core/tuning_model_smARCH.h")
    args = ap.parse_args()
    if not args.arch.isalnum():
        sys.exit(f"fit_model: --arch {args.arch!r}: expected digits like 90 or 100")
    out = args.out or f"src/core/tuning_model_sm{args.arch}.h"
    prefix = f"CUPERM_SM{args.arch.upper()}_MODEL_"
    guard = f"CUPERM_CORE_TUNING_MODEL_SM{args.arch.upper()}_H"
    sources = " ".join(sorted({os.path.dirname(p) or "." for p in args.csv}))
    cases = load(args.csv)
    features(args.features, cases)
    err, t0, gamma, eff = fit(cases, args.peak)
    errs = sorted(abs(predict(c, t0, gamma, eff, args.peak) / c["seconds"] - 1) for c in cases)
    print(f"{len(cases)} cases; t0 = {t0 * 1e6:.1f} us, gamma = {gamma:.2f}")
    for name, e in zip(CLASSES, eff):
        n = sum(1 for c in cases if CLASSES[c["cls"]] == name)
        print(f"  efficiency {name:26s} {e:.3f}  ({n} cases)")
    print(f"relative error |predicted/measured - 1|: median {100 * errs[len(errs) // 2]:.1f}%, "
          f"90th percentile {100 * errs[int(0.9 * len(errs))]:.1f}%, worst {100 * errs[-1]:.1f}%")
    with open(out, "w") as f:
        f.write(f"/* Generated by tools/model/fit_model.py --arch {args.arch} from the cuperm-bench CSV files in\n"
                f" * {sources} (see docs/model.md); do not edit by hand. */\n")
        f.write(f"#ifndef {guard}\n#define {guard}\n\n")
        f.write(f"#define {prefix}T0 {t0:.3g}\n#define {prefix}GAMMA {gamma:.3g}\n")
        f.write("/* " + ", ".join(CLASSES) + ": fraction of peak DRAM bandwidth */\n")
        f.write(f"#define {prefix}EFFICIENCY {{" + ", ".join(f"{e:.4f}" for e in eff) + "}\n\n#endif\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
