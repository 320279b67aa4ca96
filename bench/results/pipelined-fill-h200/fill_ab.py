#!/usr/bin/env python3
"""The pipelined twin of the planner's tile launch against the launch itself, by tile fill, from
every-candidate timings (cuperm-candidate-times). Usage, from the repository root:

    python3 bench/results/pipelined-fill-h200/fill_ab.py FEATURES [--explore] CASES TIMES [CASES TIMES ...]

FEATURES: cuperm-plan-features of the tree the times were collected with (the candidate order is
its planner's); --explore: the pairs after it were collected with CUPERM_MODEL_EXPLORE=1."""
import collections, csv, gzip, math, os, subprocess, sys


def pairs(features, cases, times, explore):
    env = dict(os.environ, CUPERM_MODEL_EXPLORE="1") if explore else dict(os.environ)
    out = subprocess.run([features, "--candidates"], stdin=open(cases), capture_output=True, text=True,
                         env=env, check=True).stdout
    feat = collections.defaultdict(dict)
    for line in out.split():
        f = line.split(",")
        feat[int(f[0])][int(f[1])] = f
    t = collections.defaultdict(dict)
    with (gzip.open(times, "rt") if times.endswith(".gz") else open(times)) as fh:
        for r in csv.DictReader(fh):
            t[int(r["case"])][int(r["candidate"])] = float(r["seconds"])
    text = open(cases).read().split("\n")
    for c, d in t.items():
        f = feat[c]
        if f[0][16] != "1" or f[0][20] != "0":  # a plain tiled launch
            continue
        twin = [k for k in d if f[k][20] == "1" and f[k][9:13] == f[0][9:13]]
        if twin:
            yield text[c], float(f[0][7]), d[0] / d[twin[0]]


def main(argv):
    features, explore, rows = argv[0], False, []
    args = argv[1:]
    while args:
        if args[0] == "--explore":
            explore, args = True, args[1:]
            continue
        rows += [(os.path.basename(args[0]),) + p for p in pairs(features, args[0], args[1], explore)]
        args = args[2:]
    for lo, hi in ((0, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 0.95), (0.95, 1.01)):
        for elem in ("4", "8", "16"):
            v = [r[3] for r in rows if lo <= r[2] < hi and r[1].split()[0] == elem]
            if v:
                g = math.exp(sum(map(math.log, v)) / len(v))
                print(f"fill {lo:.2f}-{hi:.2f}, {elem:>2}-byte: {len(v):3d} cases, pipelined twin's speed over the "
                      f"plain launch: geomean {g:.3f}, min {min(v):.3f}, max {max(v):.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
