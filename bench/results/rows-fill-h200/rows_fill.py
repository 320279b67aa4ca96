#!/usr/bin/env python3
"""Scores the rows kernel's tile side on every case whose planned launch is a scalar rows launch and
whose candidates (timed with every candidate launch) hold rows tiles of several sides: the planner's
side before session 48 (as long as the row, up to 256) and the side that fills the row best (of the
sides down to 32, the longer unless a shorter fills 2% more: rows_wide_min_side_log2), each over the
fastest of those sides (geomean / worst / cases more than 5% slower). Run from the repository root
with cuperm-plan-features built from the tree before the rule (7324c20: its candidate
enumeration is the one the data were timed with):

    python3 bench/results/rows-fill-h200/rows_fill.py BEFORE
"""
import gzip, io, math, sys, tarfile

sys.path.insert(0, "tools/model")
import candidate_join  # noqa: E402

R = "bench/results/"


def fill(row, side_log2):
    side = 2 ** side_log2
    return row / (math.ceil(row / side) * side)


def rule_side(row, la):
    best = la
    for s in range(la - 1, 4, -1):
        if fill(row, s) > fill(row, best) * 1.02:
            best = s
    return best


def cases_of(tool, cases_path, times):
    lines = [l for l in open(cases_path).read().splitlines() if l.strip()]
    feats, desc, t = candidate_join.join(tool, lines, times)
    out = []
    for c, tc in t.items():
        f = feats[c]
        if len(f) != len(tc) or f[0][16] != "2" or f[0][11] != "0":  # incomplete, or no scalar rows launch
            continue
        parts = [p.strip() for p in desc[c].split("|")]
        row = int(parts[2].split()[0].split(":")[0])
        la0 = int(f[0][9])
        by_side = {}
        for k, v in f.items():
            if v[16] == "2" and v[11] == "0" and v[20] == f[0][20]:
                by_side.setdefault(int(v[9]), tc[k])
        la = rule_side(row, la0)
        if la in by_side:
            best = min(by_side.values())
            out.append((by_side[la0] / best, by_side[la] / best, la0 != la, lines[c], la0, la))
    return out


def main(tool):
    B, H = R + "band-c64-h200/", R + "walk-tiles-h200/"
    tars = [tarfile.open(B + "times-suites-c64.tgz")]
    member = lambda n: io.TextIOWrapper(tars[0].extractfile(n))
    sets = {}
    for n in ("a-ttc57", "b-perm720", "c-permn15", "d-permn17", "e-primes"):
        sets[f"held out: session 46, c64 {n}"] = cases_of(tool, B + f"cases/{n}.txt", member(f"times-{n}-base.csv"))
    for n in ("s48-fit", "s48-primes", "s48-check"):
        sets[f"seen: session 48, {n}"] = cases_of(tool, H + f"cases/{n}.txt", gzip.open(H + f"times/{n}.csv.gz", "rt"))
    gm = lambda v: math.exp(sum(map(math.log, v)) / len(v))
    for name, rows in sets.items():
        if not rows:
            continue
        a, b = [r[0] for r in rows], [r[1] for r in rows]
        print("%-40s rows cases %3d, changed %2d | before %.3f / %.3f / %d | fill rule %.3f / %.3f / %d" % (
            name, len(rows), sum(r[2] for r in rows), gm(a), max(a), sum(x > 1.05 for x in a), gm(b), max(b),
            sum(x > 1.05 for x in b)))
        for r in rows:
            if r[2]:
                print("    %-36s side 2^%d -> 2^%d: %.3f -> %.3f of the fastest side" % (r[3], r[4], r[5], r[0], r[1]))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
