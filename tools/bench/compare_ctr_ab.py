#!/usr/bin/env python3
"""Per case, a changed contraction library against the one before, from scripts/gpu-ctr-model-ab.sh's
CSVs (extracted ab.tgz: ab/{old,new}-rN/<suite>-<dtype>.csv):

    python3 tools/bench/compare_ctr_ab.py AB_DIR

For each suite: each library's time per case (the least over the rounds), new over old by geomean,
the cases that moved more than 5% either way, and each library's geomean ratio to the same-run
same-shape GEMM (plain_gemm_ms / time_ms)."""
import csv
import glob
import math
import os
import sys


def read(path):
    with open(path) as f:
        return {int(r["id"]): r for r in csv.DictReader(line for line in f if not line.startswith("#"))}


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    root = argv[1]
    suites = sorted({os.path.basename(p) for p in glob.glob(os.path.join(root, "*-r*", "*.csv"))})
    for suite in suites:
        best = {}
        for v in ("old", "new"):
            for path in glob.glob(os.path.join(root, f"{v}-r*", suite)):
                for i, r in read(path).items():
                    t, g = float(r["time_ms"]), float(r["plain_gemm_ms"])
                    if (v, i) not in best or t < best[v, i][0]:
                        best[v, i] = (t, g, r.get("plan", r.get("description", ""))[:90])
        ids = sorted(i for (v, i) in best if v == "old" and ("new", i) in best)
        if not ids:
            continue
        q = [best["new", i][0] / best["old", i][0] for i in ids]
        geo = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))
        ratio = {v: geo([best[v, i][1] / best[v, i][0] for i in ids]) for v in ("old", "new")}
        print(f"{suite}: {len(ids)} cases; new / old time geomean {geo(q):.4f}; GEMM / time geomean old "
              f"{ratio['old']:.4f}, new {ratio['new']:.4f}")
        for i, x in zip(ids, q):
            if abs(math.log(x)) > math.log(1.05):
                print(f"  case {i}: {best['old', i][0]:.4f} -> {best['new', i][0]:.4f} ms ({x:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
