"""Scores walk rules on walk_pairs.py's output: per suite, the cases whose chosen walk is within 5%
of the faster one, and the time of rule B over rule A (geomean, worst, best).
    python3 evaluate.py pairs.txt"""
import collections
import math
import sys

L2 = 50 << 20  # the H100's L2


def parse(line):
    tag, ratio = line.split()[0], float(line.split()[1])
    f = line.split()
    desc = line.split("| ", 1)[1]
    parts = [p.strip() for p in desc.split("|")]
    head = parts[0].split()
    grp = lambda s: [tuple(map(int, x.split(":"))) for x in s.split()] if s else []
    ext = [int(x) for x in head[1].split(",")]
    return dict(tag=tag, ratio=ratio, oe=float(f[5]), lb=int(parts[1].split()[2]), B=grp(parts[3]),
                bytes=math.prod(ext) * int(head[0]))


def out_run(B):
    run = 1
    for e, i, o in B:
        if o != run:
            break
        run *= e
    return run


RULES = {
    "sectors (the planner's: out_eff < 1)": lambda r: r["oe"] < 0.995,
    "sectors, or B's output run split over B tiles in DRAM": lambda r: r["oe"] < 0.995 or (
        (1 << r["lb"]) < out_run(r["B"]) and r["bytes"] > L2),
    "sectors, or ... split with a partial last tile in DRAM": lambda r: r["oe"] < 0.995 or (
        (1 << r["lb"]) < out_run(r["B"]) and out_run(r["B"]) % (1 << r["lb"]) and r["bytes"] > L2),
}

rows = [parse(l) for l in open(sys.argv[1]) if l.strip()]
base = RULES["sectors (the planner's: out_eff < 1)"]
for name, rule in RULES.items():
    by = collections.defaultdict(lambda: [0, 0])
    for r in rows:
        t = r["ratio"] if rule(r) else 1.0
        by[r["tag"]][0] += t <= 1.05 * min(r["ratio"], 1.0)
        by[r["tag"]][1] += 1
    print("%s: %d of %d within 5%%" % (name, sum(v[0] for v in by.values()), len(rows)))
    for tag in sorted(by):
        rs = [r for r in rows if r["tag"] == tag]
        g = [(r["ratio"] if rule(r) else 1.0) / (r["ratio"] if base(r) else 1.0) for r in rs]
        print("  %-16s %3d/%-3d  time / planner's: geomean %.3f, worst %.3f, best %.3f"
              % (tag, by[tag][0], by[tag][1], math.exp(sum(map(math.log, g)) / len(g)), max(g), min(g)))
