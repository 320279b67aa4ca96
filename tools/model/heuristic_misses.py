#!/usr/bin/env python3
"""Where the transpose planner's launch misses the fastest candidate, per suite, from one
scripts/gpu-candidates-ab.sh run of a single build (times-NAME-base.csv, cases/NAME.txt):
the planner's launch (candidate 0) and the fastest candidate as % of the copy (median / worst),
the share of cases within 5% of the fastest, and what the fastest candidate of each miss changes:
the walk only (band), the tile shape (la), the vector path, or the kernel (kind).

    python3 tools/model/heuristic_misses.py --features BUILD/tools/model/cuperm-plan-features DIR

--features must be built from the tree the times were collected with (the candidate order is
the planner's; the results README names the commit)."""
import argparse
import collections
import csv
import glob
import os
import statistics
import subprocess

KINDS = {0: "copy", 1: "tiled", 2: "rows", 3: "whole-dims", 4: "row-tiles"}


def load(directory, tool):
    """{suite: {case: {candidate: (seconds, copy_seconds, features)}}}"""
    suites = {}
    for path in sorted(glob.glob(os.path.join(directory, "times-*-base.csv"))):
        name = os.path.basename(path)[len("times-"):-len("-base.csv")]
        with open(os.path.join(directory, "cases", name + ".txt")) as f:
            lines = subprocess.run([tool, "--candidates"], stdin=f, capture_output=True, text=True,
                                   check=True).stdout.split()
        feats = {}
        for line in lines:
            v = line.split(",")
            feats[(int(v[0]), int(v[1]))] = dict(la=int(v[9]), vec=int(v[11]), band=int(v[12]), kind=int(v[16]))
        cases = collections.defaultdict(dict)
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                c, i = int(r["case"]), int(r["candidate"])
                cases[c][i] = (float(r["seconds"]), float(r["copy_seconds"]), feats[(c, i)])
        suites[name] = cases
    return suites


def what_changes(f0, fb):
    if fb["kind"] != f0["kind"]:
        return f"{KINDS[f0['kind']]} -> {KINDS[fb['kind']]}"
    if fb["vec"] != f0["vec"]:
        return "vector path"
    if fb["la"] != f0["la"]:
        return f"tile la {fb['la'] - f0['la']:+d}"
    return "walk" if fb["band"] != f0["band"] else "same launch"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--features", required=True)
    ap.add_argument("dir")
    a = ap.parse_args()
    for name, cases in load(a.dir, a.features).items():
        planned, best, within, misses = [], [], 0, collections.Counter()
        for cs in cases.values():
            t0, copy, f0 = cs[0]
            ib = min(cs, key=lambda i: cs[i][0])
            planned.append(100 * copy / t0)
            best.append(100 * copy / cs[ib][0])
            if t0 <= 1.05 * cs[ib][0]:
                within += 1
            else:
                misses[what_changes(f0, cs[ib][2])] += 1
        print(f"{name:24} {len(cases):4} cases  planned {statistics.median(planned):5.1f} / {min(planned):5.1f}"
              f"  fastest {statistics.median(best):5.1f} / {min(best):5.1f}  within 5%: {100 * within / len(cases):5.1f}%")
        if misses:
            print(f"{'':24} misses: " + ", ".join(f"{k} {n}" for k, n in misses.most_common()))


if __name__ == "__main__":
    main()
