#!/usr/bin/env python3
"""Compares two cuperm-bench contraction runs of the same cases (e.g. --algo ttgt against the default
plans): how many plans of the second are GETT, the geometric mean of its times over the first's,
its slowest GETT plan against the first, and both runs' geometric-mean ratio to the same-shape GEMM.

    compare_ctr_runs.py BASE.csv[.gz] OTHER.csv[.gz] [BASE2 OTHER2 ...]
"""
import csv
import gzip
import math
import sys


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return {r["id"]: r for r in csv.DictReader(line for line in f if not line.startswith("#"))}


def geomean(logs):
    return math.exp(sum(logs) / len(logs))


def main():
    args = sys.argv[1:]
    for base_path, other_path in zip(args[::2], args[1::2]):
        base, other = load(base_path), load(other_path)
        ids = [i for i in base if i in other and base[i]["time_ms"] and other[i]["time_ms"]]
        times, ratio_base, ratio_other, worst, gett = [], [], [], (0.0, "-"), 0
        for i in ids:
            b, o = float(base[i]["time_ms"]), float(other[i]["time_ms"])
            times.append(math.log(o / b))
            ratio_base.append(math.log(float(base[i]["plain_gemm_ms"]) / b))
            ratio_other.append(math.log(float(other[i]["plain_gemm_ms"]) / o))
            if other[i]["description"].startswith("GETT"):
                gett += 1
                worst = max(worst, (o / b, i))
        print(f"{other_path}: {gett}/{len(ids)} GETT plans, time {geomean(times):.3f}x of {base_path}'s, slowest GETT "
              f"plan {worst[0]:.2f}x (case {worst[1]}), ratio to the same-shape GEMM {geomean(ratio_base):.3f} -> "
              f"{geomean(ratio_other):.3f}")


if __name__ == "__main__":
    main()
