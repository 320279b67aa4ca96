#!/usr/bin/env python3
"""Scores the transpose model on cuperm-dist-anatomy --pieces rows: measured time over the prediction
with the footprint term and without it (dense), per file: median and 10th-90th percentiles of the
ratio, the median absolute log error, and the rows the term moved (footprint > 1.05).
    python3 score.py call1/pieces-*.csv"""
import csv
import math
import statistics
import sys


def stats(r):
    r = sorted(r)
    q = lambda f: r[min(len(r) - 1, int(f * len(r)))]
    return f"{statistics.median(r):.3f} ({q(0.1):.3f}-{q(0.9):.3f}), |log| {statistics.median(abs(math.log(x)) for x in r):.3f}"


print("| file | rows | footprint > 1.05 | measured / predicted, with the term | without (dense) | rows the term moved: with | without |")
print("| --- | ---: | ---: | --- | --- | --- | --- |")
for path in sys.argv[1:]:
    rows = [r for r in csv.DictReader(l for l in open(path) if l[0].isdigit() or l.startswith("case,"))]
    w = [float(r["ms"]) / float(r["predicted_ms"]) for r in rows]
    d = [float(r["ms"]) / float(r["dense_predicted_ms"]) for r in rows]
    moved = [i for i, r in enumerate(rows) if float(r["footprint"]) > 1.05]
    mw = stats([w[i] for i in moved]) if moved else "-"
    md = stats([d[i] for i in moved]) if moved else "-"
    print(f"| {path.split('/')[-1]} | {len(rows)} | {len(moved)} | {stats(w)} | {stats(d)} | {mw} | {md} |")
