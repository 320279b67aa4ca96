#!/usr/bin/env python3
"""Scores transpose planners on timed candidates: each planner's launch (cuperm-plan-features
--candidates, candidate 0) is looked up among a case's timed candidates by its features, and its time
divided by the case's fastest candidate's. Prints per group (NAMES: one group name a case) the
geomean, worst, cases more than 5% slower and cases whose launch was never timed ("unknown"), then,
with two planners, the second's time over the first's where both were timed.

    python3 tools/model/score_planner.py ENUM CASES TIMES NAMES PLANNER [PLANNER_B]

ENUM: cuperm-plan-features of the tree that timed the cases (cuperm-candidate-times numbers the
candidates as its planner lists them); PLANNER(s): builds to score (e.g. the trees before and after a
rule). NOBAND=1 leaves the tile walk (band) out of the match (walk rules are scored apart:
bench/results/walk-tiles-h200/walk_tiles.py). Used by bench/results/tile-rules-h200/."""
import collections
import gzip
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import candidate_join  # noqa: E402


def key(v, noband=False):
    """A candidate's identity: kind, tile sides, vector, band, pipelined, row order, runs, fill."""
    return (v[16], v[9], v[10], v[11], "-" if noband else v[12], v[20], v[19], v[4], v[5], v[7][:6])


def gm(x):
    return math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")


def opn(p):
    return gzip.open(p, "rt") if p.endswith(".gz") else open(p)


def picks(enum, lines, times, planner, noband=False):
    """{case: (the planner's launch's seconds or None if never timed, the fastest candidate's)}."""
    feats, _, secs = candidate_join.join(enum, lines, times)
    chosen = {int(v[0]): v for v in (l.split(",") for l in candidate_join.run(planner, "--candidates", lines).splitlines())
              if v[0].isdigit() and v[1] == "0"}
    out = {}
    for c, tc in secs.items():
        if len(feats[c]) != len(tc) or c not in chosen:
            continue  # timed by another enumeration, or cut
        ks = [k for k, f in feats[c].items() if key(f, noband) == key(chosen[c], noband)]
        out[c] = (min(tc[k] for k in ks) if ks else None, min(tc.values()))
    return out


def main(enum, cases, times, names, *planners):
    lines = [l for l in opn(cases).read().splitlines() if l.strip()]
    group = opn(names).read().split()
    noband = os.environ.get("NOBAND") == "1"
    got = {}
    for tool in planners:
        got[tool] = p = picks(enum, lines, opn(times), tool, noband)
        res, unk = collections.defaultdict(list), collections.Counter()
        for c, (t, best) in p.items():
            for g in (group[c], "all"):
                if t is None:
                    unk[g] += 1
                else:
                    res[g].append(t / best)
        print(tool)
        for g in sorted(set(res) | set(unk)):
            v = res[g]
            print(f"  {g:10s} n={len(v):3d} unknown={unk[g]:3d} over fastest: geomean {gm(v):.4f} "
                  f"worst {max(v, default=float('nan')):.3f} > 1.05: {sum(x > 1.05 for x in v)}")
    if len(planners) == 2:
        a, b = got[planners[0]], got[planners[1]]
        r = [b[c][0] / a[c][0] for c in a if c in b and a[c][0] and b[c][0]]
        print(f"second over first where both timed: {len(r)} cases, geomean {gm(r):.3f}, "
              f"best {min(r, default=float('nan')):.3f}, worst {max(r, default=float('nan')):.3f}")


if __name__ == "__main__":
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__)
    main(*sys.argv[1:])
