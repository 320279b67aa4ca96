#!/usr/bin/env python3
"""Scores tile-walk rules on every case whose planned tile launch was timed with both walks
(banded and A-fastest, the same tile otherwise, not pipelined): the rule's choice over the
faster of the two (geomean, worst, cases more than 5% slower). Run from the repository root with two
builds of cuperm-plan-features: BEFORE from the tree before the rule (7324c20; its candidate
enumeration is the one the earlier data were timed with: which candidate walks which way follows
the planner's rule), AFTER from this tree (for the cases timed after the rule):

    python3 bench/results/walk-tiles-h200/walk_tiles.py BEFORE AFTER

Data: H200 candidate times of this session (times/, cases/), of sessions 45-46
(../walk-l2-h200-dropped/, ../band-c64-h200/), and the H100 pairs of session 8
(../walk-rule-h100-dropped/pairs.txt.gz, which carry their own launch descriptions)."""
import gzip, io, math, sys, tarfile

sys.path.insert(0, "tools/model")
import candidate_join  # noqa: E402

R = "bench/results/"
TOL = 0.995  # the tuning's sector_eff_tolerance: out_eff below this counts as partly filled sectors
RULES = {
    "sectors (until session 48): out_eff < 1": lambda a, b, oe: oe < TOL and a > 8,
    "tiles (session 48): a_tiles > b_tiles > 1": lambda a, b, oe: a > b and b > 1 and a > 8,
    "never band": lambda a, b, oe: False,
}


def opn(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def tiles(desc_kind, groups_a, groups_b):
    g = lambda s: [tuple(map(int, x.split(":"))) for x in s.split()] if s else []
    la, lb = int(desc_kind[1]), int(desc_kind[2])
    return (math.ceil(math.prod(x[0] for x in g(groups_a)) / 2 ** la),
            math.ceil(math.prod(x[0] for x in g(groups_b)) / 2 ** lb))


def timed_pairs(tool, cases_path, times):
    """[(t_banded / t_afastest, a_tiles, b_tiles, out_eff)] of one candidate-times run."""
    lines = [l for l in opn(cases_path).read().splitlines() if l.strip()]
    feats, desc, t = candidate_join.join(tool, lines, times)
    out = []
    for c, tc in t.items():
        f = feats[c]
        if len(f) != len(tc) or f[0][16] != "1":  # an incomplete case, or no tile launch planned
            continue
        key = (f[0][9], f[0][10], f[0][11])
        walk = {v[12]: tc[k] for k, v in f.items() if v[16] == "1" and (v[9], v[10], v[11]) == key and v[20] == "0"}
        if "0" in walk and "8" in walk:
            parts = [p.strip() for p in desc[c].split("|")]
            a, b = tiles(parts[1].split(), parts[2], parts[3])
            out.append((walk["8"] / walk["0"], a, b, float(f[0][14])))
    return out


def h100_pairs():
    out = []
    for l in gzip.open(R + "walk-rule-h100-dropped/pairs.txt.gz", "rt"):
        p = [x.strip() for x in l.split("|")]
        head = p[0].split()
        a, b = tiles(p[2].split(), p[3], p[4])
        out.append((float(head[1]), a, b, float(head[5])))
    return out


def score(rule, pairs):
    g = [(r if rule(a, b, oe) else 1.0) / min(r, 1.0) for r, a, b, oe in pairs]
    return math.exp(sum(map(math.log, g)) / len(g)), max(g), sum(x > 1.05 for x in g), len(g)


def main(tool, after):
    here = R + "walk-tiles-h200/"
    W, B = R + "walk-l2-h200-dropped/", R + "band-c64-h200/"
    old = tarfile.open(B + "times-suites-c64.tgz"), tarfile.open(B + "times-band17.tgz")
    member = lambda name: io.TextIOWrapper(next(t.extractfile(name) for t in old if name in t.getnames()))
    sets = {"H100, session 8 (697)": h100_pairs()}
    s45 = []
    for n in ("w-permn-heldout-f64", "w-permn-heldout-f32", "w-primes-heldout-f64", "w-primes-heldout-f32",
              "w-random-f64"):
        s45 += timed_pairs(tool, W + f"cases-{n}.txt", gzip.open(W + f"times-{n}.csv.gz", "rt"))
    for n in ("a-ttc57", "b-perm720", "c-permn15", "d-permn17", "e-primes", "band17-16", "band17-8"):
        s45 += timed_pairs(tool, B + f"cases/{n}.txt", member(f"times-{n}-base.csv"))
    sets["H200, sessions 45-46"] = s45
    s48 = []
    for n in ("s48-fit", "s48-primes", "s48-check"):
        s48 += timed_pairs(tool, here + f"cases/{n}.txt", gzip.open(here + f"times/{n}.csv.gz", "rt"))
    sets["H200, session 48"] = s48
    sets["H200, session 48, fresh cases (after the rule)"] = timed_pairs(
        after, here + "cases/s48-fresh36.txt", gzip.open(here + "times/s48-fresh36.csv.gz", "rt"))
    for name, pairs in sets.items():
        print(f"{name}: {len(pairs)} cases")
        for rn, rule in RULES.items():
            print("  %-44s %.3f / %.3f / %d" % ((rn,) + score(rule, pairs)[:3]))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
