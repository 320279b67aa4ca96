#!/usr/bin/env python3
"""Prices two planners' transpose plans with candidate times measured on the GPU.

For each suite S, DIR holds (as written by cuperm-candidate-times and cuperm-plan-features of the
tree whose candidates were timed):
  cases-S.txt      "ELEM E0,E1,... P0,P1,..." per line
  times-S.csv[.gz] cuperm-candidate-times: case,candidate,seconds,copy_seconds
  feat-S.csv[.gz]  cuperm-plan-features --candidates of the timed tree (the candidates' shapes)
  before-S.txt, after-S.txt  cuperm-plan-features --describe of the two planners
Each planner's launch is looked up among the timed candidates by its kind, tile sides, vector
width and band. Prints per suite: cases whose launch changed, the share within 5% of the fastest
candidate and the median / worst % of copy of each planner, and, over the changed cases, the
geometric mean of before / after time with the counts of gains and losses over 2%.

usage: price_plans.py DIR SUITE...
"""
import csv
import gzip
import math
import os
import statistics
import sys

FEATURES = ("case,candidate,class,bytes,in_run_bytes,out_run_bytes,tile_bytes,fill,tiles,tile_a_log2,tile_b_log2,"
            "vec_log2,band_tiles,in_sector_eff,out_sector_eff,sector_cost,kind").split(",")
KINDS = {"copy": "0", "tiled": "1", "rows": "2", "whole-dims": "3", "row-tiles": "4"}


def lines(path):
    for p in (path, path + ".gz"):
        if os.path.exists(p):
            with (gzip.open(p, "rt") if p.endswith(".gz") else open(p)) as f:
                return f.read().splitlines()
    raise FileNotFoundError(path)


def launch_key(describe_line):
    """(kind, la, lb, vec, band) of a --describe line ("... | kind la lb vec band | ...")."""
    kind, la, lb, vec, band = describe_line.split("|")[1].split()[:5]
    return KINDS[kind.replace("(packed)", "")], la, lb, vec, band


def price(d, suite):
    feats = {}
    for line in lines(f"{d}/feat-{suite}.csv"):
        f = dict(zip(FEATURES, line.split(",")))
        feats[(int(f["case"]), int(f["candidate"]))] = (f["kind"], f["tile_a_log2"], f["tile_b_log2"], f["vec_log2"],
                                                        f["band_tiles"])
    times = {}
    for r in csv.DictReader(lines(f"{d}/times-{suite}.csv")):
        times.setdefault(int(r["case"]), {})[int(r["candidate"])] = (float(r["seconds"]), float(r["copy_seconds"]))
    before = [launch_key(x) for x in lines(f"{d}/before-{suite}.txt")]
    after = [launch_key(x) for x in lines(f"{d}/after-{suite}.txt")]
    cases = lines(f"{d}/cases-{suite}.txt")

    def timed(c, key):
        hits = [t for i, t in times[c].items() if feats[(c, i)] == key]
        return hits[0] if hits else None

    res = {"n": 0, "missing": 0, "changed": []}
    within = [0, 0]
    pct = [[], []]
    for c in sorted(times):
        fastest = min(s for s, _ in times[c].values())
        tb, ta = timed(c, before[c]), timed(c, after[c])
        if tb is None or ta is None:
            res["missing"] += 1
            continue
        res["n"] += 1
        for k, (s, copy) in enumerate((tb, ta)):
            within[k] += s <= 1.05 * fastest
            pct[k].append(100 * copy / s)
        if before[c] != after[c]:
            res["changed"].append((tb[0] / ta[0], cases[c], " ".join(before[c][1:3]), " ".join(after[c][1:3])))
    n = res["n"]
    print(f"{suite}: {n} cases ({res['missing']} without both launches timed), {len(res['changed'])} changed; "
          f"within 5% of the fastest candidate {100 * within[0] / n:.0f}% -> {100 * within[1] / n:.0f}%; "
          f"% of copy median {statistics.median(pct[0]):.1f} -> {statistics.median(pct[1]):.1f}, "
          f"worst {min(pct[0]):.1f} -> {min(pct[1]):.1f}")
    if res["changed"]:
        r = [x[0] for x in res["changed"]]
        g = math.exp(sum(map(math.log, r)) / len(r))
        print(f"  changed: before / after time geomean {g:.3f} (min {min(r):.2f}, max {max(r):.2f}); "
              f"{sum(x > 1.02 for x in r)} faster, {sum(x < 0.98 for x in r)} slower by more than 2%")
        for x in sorted(res["changed"])[:2]:
            print("    least gain: %.2f  %s  (la lb %s -> %s)" % x)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    for suite in sys.argv[2:]:
        price(sys.argv[1], suite)


if __name__ == "__main__":
    main()
