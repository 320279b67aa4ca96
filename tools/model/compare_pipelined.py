#!/usr/bin/env python3
"""The pipelined tile kernel against the same tiles unpipelined, from cuperm-candidate-times runs.

  tools/model/compare_pipelined.py DIR

DIR holds times-NAME-base.csv (scripts/gpu-candidates-ab.sh, unpacked) and features-NAME.csv
(cuperm-plan-features --candidates of the timed tree on the same cases: each candidate's tile shape
and walk, host planning only). Per suite: the time of every
pipelined candidate over its unpipelined twin (same tile sides, vector width and walk, same case),
and the planner's own launch (candidate 0) over its other form wherever it has one, which is the
effect of choosing either way (the heuristic's rule, or its absence)."""
import csv
import glob
import math
import os
import statistics
import sys


def features(path):
    f = {}
    for line in open(path):
        v = line.split(",")
        # tile_a_log2, tile_b_log2, vec_log2, band_tiles, kind; pipelined
        f[(int(v[0]), int(v[1]))] = (tuple(int(x) for x in (v[9], v[10], v[11], v[12], v[16])), int(v[20]))
    return f


def geomean(x):
    return math.exp(sum(map(math.log, x)) / len(x))


def main():
    times_dir = sys.argv[1]
    print("| suite | cases | pairs | pipelined / plain: median, best, worst | planner's launch, other form / "
          "its own: geomean, best, worst (cases) | candidate 0, % of copy: median, worst |")
    print("| --- | ---: | ---: | --- | --- | --- |")
    for path in sorted(glob.glob(os.path.join(times_dir, "times-*-base.csv"))):
        name = os.path.basename(path)[len("times-"):-len("-base.csv")]
        f = features(os.path.join(times_dir, "features-%s.csv" % name))
        t = {}
        for r in csv.DictReader(open(path)):
            key = (int(r["case"]), int(r["candidate"]))
            if int(r["pipelined"]) != f[key][1]:
                sys.exit("%s %s: the device planned another candidate list than this tree" % (name, key))
            t[key] = (float(r["seconds"]), float(r["copy_seconds"]))
        pairs, other, cand0 = [], [], []
        for case in sorted({k[0] for k in t}):
            keys = [k for k in t if k[0] == case]
            for k in keys:
                twin = [j for j in keys if f[j][1] != f[k][1] and f[j][0] == f[k][0]]
                if f[k][1] and twin:
                    pairs.append(t[k][0] / t[twin[0]][0])
                if k[1] == 0 and twin:
                    other.append(t[twin[0]][0] / t[k][0])
            cand0.append(100 * t[(case, 0)][1] / t[(case, 0)][0])
        if not pairs:
            continue
        print("| %s | %d | %d | %.3f, %.3f, %.3f | %s | %.1f, %.1f |" % (
            name, len(cand0), len(pairs), statistics.median(pairs), min(pairs), max(pairs),
            "%.3f, %.3f, %.3f (%d)" % (geomean(other), min(other), max(other), len(other)) if other else "-",
            statistics.median(cand0), min(cand0)))


if __name__ == "__main__":
    main()
