#!/usr/bin/env python3
"""Every-candidate times of 16- and 8-byte transposes (cuperm-candidate-times), read two ways:
per suite, the planner's launch (candidate 0) against the fastest candidate (% of the same-run
copy, and which kind won: 1 tiled, 2 rows, 3 whole dims); and, where the planner's tiled launch
walks in bands, its twin walking A-fastest (same tile) against it. Usage, from the repository root:

    python3 bench/results/band-c64-h200/band_ab.py FEATURES NAME ...

FEATURES: cuperm-plan-features of tree 2fb75bb (the candidate order is its planner's); NAME: a case
list in cases/NAME.txt whose times are times-NAME-base.csv in times-suites-c64.tgz or times-band17.tgz."""
import collections, csv, io, math, os, subprocess, sys, tarfile

HERE = os.path.dirname(os.path.abspath(__file__))


def times(name):
    for tgz in ("times-suites-c64.tgz", "times-band17.tgz"):
        with tarfile.open(os.path.join(HERE, tgz)) as t:
            if f"times-{name}-base.csv" in t.getnames():
                return list(csv.DictReader(io.TextIOWrapper(t.extractfile(f"times-{name}-base.csv"))))
    raise SystemExit(f"no times for {name}")


def main(features, names):
    for name in names:
        cases = os.path.join(HERE, "cases", name + ".txt")
        out = subprocess.run([features, "--candidates"], stdin=open(cases), capture_output=True, text=True,
                             check=True).stdout
        feat = collections.defaultdict(dict)
        for line in out.split():
            f = line.split(",")
            feat[int(f[0])][int(f[1])] = f
        t, copy = collections.defaultdict(dict), {}
        for r in times(name):
            t[int(r["case"])][int(r["candidate"])] = float(r["seconds"])
            copy[int(r["case"])] = float(r["copy_seconds"])
        lines = open(cases).read().split("\n")
        heur, best, kinds, band = [], [], collections.Counter(), []
        for c, d in t.items():
            if 0 not in d:
                continue
            f = feat[c]
            fastest = min(d, key=d.get)
            heur.append(100 * copy[c] / d[0])
            best.append(100 * copy[c] / d[fastest])
            kinds[f[fastest][16]] += 1
            h = f[0]
            twin = [k for k in d if k and f[k][16] == "1" and f[k][4:12] == h[4:12] and f[k][20] == h[20]
                    and f[k][12] != h[12]]
            if h[16] == "1" and h[12] != "0" and twin:
                band.append((d[0] / d[twin[0]], lines[c]))
        heur.sort(), best.sort()
        print(f"{name}: {len(heur)} cases; planner % of copy median {heur[len(heur) // 2]:.1f} worst {heur[0]:.1f}; "
              f"fastest candidate median {best[len(best) // 2]:.1f} worst {best[0]:.1f}; fastest kinds {dict(kinds)}")
        if band:
            v = [b[0] for b in band]
            print(f"  banded planner launches: {len(v)}; A-fastest twin's speed over them: geomean "
                  f"{math.exp(sum(map(math.log, v)) / len(v)):.3f}, >1.1x on {sum(x > 1.1 for x in v)}, "
                  f"<0.95x on {sum(x < 0.95 for x in v)}")
            for r, line in sorted(band, reverse=True)[:4]:
                print(f"    {r:.2f}  {line}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
