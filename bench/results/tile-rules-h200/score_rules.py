#!/usr/bin/env python3
"""Scores transpose planners on timed candidates: each planner's launch (cuperm-plan-features
--candidates, candidate 0) is looked up among a case's timed candidates by its features, and its time
is divided by the case's fastest candidate. Prints per group (names file) the geomean, worst, cases
more than 5% slower, and cases whose launch was never timed ("unknown"), then the second planner's
time over the first's on the cases where both were timed.

    python3 bench/results/tile-rules-h200/score_rules.py ENUM CASES TIMES NAMES PLANNER_A PLANNER_B

ENUM: cuperm-plan-features of the tree that timed the cases (its candidate numbering); PLANNER_A/B:
the builds to score (e.g. the tree before the rules, 18c922d, and after). The walk (band) is left out
of the match with NOBAND=1 (the walk rule is scored by ../walk-tiles-h200/walk_tiles.py). This
session's runs: heldout1 (ENUM: the first version of the rules, B side >= 128 bytes, the size rule
without the stores' condition; cases drawn after those rules) and heldout2 (ENUM: the final rules;
cases drawn after them):

    R=bench/results/tile-rules-h200
    python3 $R/score_rules.py FINAL $R/cases/heldout2-changed.txt $R/times/heldout2.csv.gz \\
        $R/cases/heldout2-names.txt BEFORE FINAL"""
import collections, math, os, sys

sys.path.insert(0, "tools/model")
import candidate_join  # noqa: E402

NOBAND = os.environ.get("NOBAND") == "1"


def key(v):  # kind, tile sides, vector, band, pipelined, row order, runs, fill
    return (v[16], v[9], v[10], v[11], "-" if NOBAND else v[12], v[20], v[19], v[4], v[5], v[7][:6])


def gm(x):
    return math.exp(sum(map(math.log, x)) / len(x)) if x else float("nan")


def opn(p):
    import gzip
    return gzip.open(p, "rt") if p.endswith(".gz") else open(p)


def main(enum, cases, times, names, *planners):
    lines = [l for l in opn(cases).read().splitlines() if l.strip()]
    group = opn(names).read().split()
    feats, _, secs = candidate_join.join(enum, lines, opn(times))
    picks = {}
    for tool in planners:
        chosen = {int(v[0]): v for v in (l.split(",") for l in candidate_join.run(tool, "--candidates", lines).splitlines())
                  if v[0].isdigit() and v[1] == "0"}
        res, unk, pick = collections.defaultdict(list), collections.Counter(), {}
        for c, tc in secs.items():
            if len(feats[c]) != len(tc):
                continue
            best = min(tc.values())
            ks = [k for k, f in feats[c].items() if key(f) == key(chosen[c])]
            if not ks:
                unk[group[c]] += 1
                unk["all"] += 1
                continue
            pick[c] = min(tc[k] for k in ks)
            for g in (group[c], "all"):
                res[g].append(pick[c] / best)
        picks[tool] = pick
        print(tool)
        for g in sorted(res):
            v = res[g]
            print(f"  {g:10s} n={len(v):3d} unknown={unk[g]:3d} over fastest: geomean {gm(v):.4f} worst {max(v):.3f} "
                  f"> 1.05: {sum(x > 1.05 for x in v)}")
    if len(planners) == 2:
        a, b = picks[planners[0]], picks[planners[1]]
        r = [b[c] / a[c] for c in a if c in b]
        print(f"second over first where both timed: {len(r)} cases, geomean {gm(r):.3f}, best {min(r):.3f}, "
              f"worst {max(r):.3f}")


if __name__ == "__main__":
    main(*sys.argv[1:])
