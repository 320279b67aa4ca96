#!/usr/bin/env python3
"""How would other rules pick among the planner's candidates? Reads every candidate's time
from a collect_candidates.sh run made with CUPERM_MODEL_EXPLORE=1 (the rule-based launch with
band widths 0, 2, 4, 8, 16 and 32 among the candidates; whole-dims launches where they apply)
and prints, per suite, the median and worst % of copy and the share of cases within 5% of the
fastest candidate for: the planner's launch as collected, the oracle walk (fastest band for
the planner's tile), simple rules "band w when CONDITION" over the sector efficiencies, and,
when the data has whole-dims candidates, the best candidate with and without them and
whole-dims alone.

    CUPERM_MODEL_EXPLORE=1 python3 tools/model/rank_candidates.py \\
        --features BUILD/tools/model/cuperm-plan-features bench/results/walk-h100

--features must be built from the tree the times were collected with (the candidate order is
the planner's); each results README names its commit.
"""
import argparse
import csv
import glob
import gzip
import os
import statistics
import subprocess


def load(directory, tool):
    data = {}
    for tp in sorted(glob.glob(os.path.join(directory, "times-*.csv.gz"))):
        tag = os.path.basename(tp)[len("times-"):-len(".csv.gz")]
        with open(os.path.join(directory, f"cases-{tag}.txt")) as f:
            feats = subprocess.run([tool, "--candidates"], stdin=f, capture_output=True, text=True,
                                   check=True).stdout.split()
        fmap = {}
        for line in feats:
            v = line.split(",")
            fmap[(int(v[0]), int(v[1]))] = dict(cls=int(v[2]), la=int(v[9]), lb=int(v[10]), vec=int(v[11]),
                                                band=int(v[12]), ie=float(v[13]), oe=float(v[14]),
                                                kind=int(v[16]) if len(v) > 16 else -1)
        cases = {}
        with gzip.open(tp, "rt", newline="") as f:
            for r in csv.DictReader(f):
                key = (int(r["case"]), int(r["candidate"]))
                c = dict(fmap[key], t=float(r["seconds"]), copy=float(r["copy_seconds"]), cand=key[1])
                cases.setdefault(key[0], []).append(c)
        data[tag] = cases
    return data


def pct(c):
    return 100 * c["copy"] / c["t"]


WHOLE_DIMS = 3  # cuperm_launch_kind_t


def same_tile(a, b):
    return all(a[k] == b[k] for k in ("cls", "la", "lb", "vec", "kind"))


def with_band(cs, w):
    h = cs[0]
    if h["cls"] not in (3, 4):  # tiled launches only
        return h
    return next((c for c in cs if c["band"] == w and same_tile(c, h)), h)


def oracle(cs):
    return min((c for c in cs if same_tile(c, cs[0])), key=lambda c: c["t"])


def rule(w, cond):
    return lambda cs: with_band(cs, w if cond(cs[0]) else 0)


def report(data, name, pick):
    row = []
    for tag, cases in data.items():
        ps, within = [], 0
        for cs in cases.values():
            p = pick(cs)
            ps.append(pct(p))
            within += p["t"] <= 1.05 * min(c["t"] for c in cs)
        row.append(f"{statistics.median(ps):5.1f}/{min(ps):4.1f}/{100 * within / len(cases):3.0f}")
    print(f"{name:22} " + " ".join(f"{x:>15}" for x in row))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--features", required=True)
    ap.add_argument("directory")
    a = ap.parse_args()
    data = load(a.directory, a.features)
    print("median / worst % of copy / % of cases within 5% of the fastest candidate")
    print(f"{'':22} " + " ".join(f"{t[:15]:>15}" for t in data))
    report(data, "as collected", lambda cs: cs[0])
    report(data, "oracle walk", oracle)
    conds = {"out_eff < 0.995": lambda h: h["oe"] < 0.995, "either eff < 0.995": lambda h: min(h["ie"], h["oe"]) < 0.995,
             "always": lambda h: True}
    for name, cond in conds.items():
        for w in (2, 4, 8, 16, 32):
            report(data, f"band {w} if {name}", rule(w, cond))
    if any(c["kind"] == WHOLE_DIMS for cases in data.values() for cs in cases.values() for c in cs):
        others = lambda cs: [c for c in cs if c["kind"] != WHOLE_DIMS]
        report(data, "best tile launch", lambda cs: min(others(cs), key=lambda c: c["t"]))
        report(data, "best with whole-dims", lambda cs: min(cs, key=lambda c: c["t"]))
        report(data, "whole-dims alone", lambda cs: next((c for c in cs if c["kind"] == WHOLE_DIMS), cs[0]))


if __name__ == "__main__":
    main()
