#!/usr/bin/env python3
"""Held-out cases for the vector row tiles (issue 14, session 56), written before any was timed.

e-heldout-n6: rows permutations of n^6 (perm[0] = 0) for even n, every 12th from the 11th of the 120
in lexicographic order (session 55's d suite took every 12th from the 5th), at f64 for n = 14, 18, 22
and f32 for n = 14, 18, 22, 26; permutations already in ../../row-tiles-h200/cases/ for the same
n and type are skipped.
f-heldout-random: random rank-3-5 tensors (seed 56) keeping their fastest dimension, of an even
length 2-64, the others drawn so the volume is 60-300 M elements; f32 and f64.
Run: python3 make_cases.py (writes e-heldout-n6.txt, f-heldout-random.txt)."""
import itertools
import os
import random

here = os.path.dirname(os.path.abspath(__file__))
seen = set()
old = os.path.join(here, "..", "..", "row-tiles-h200", "cases")
for f in os.listdir(old):
    if f.endswith(".txt"):
        for line in open(os.path.join(old, f)):
            if line.strip():
                seen.add(line.strip())

perms = [(0,) + p for p in itertools.permutations(range(1, 6))]
rows = []
for elem, ns in ((8, (14, 18, 22)), (4, (14, 18, 22, 26))):
    for n in ns:
        for p in perms[10::12]:
            line = "%d %s %s" % (elem, ",".join([str(n)] * 6), ",".join(map(str, p)))
            if line not in seen:
                rows.append(line)
open(os.path.join(here, "e-heldout-n6.txt"), "w").write("\n".join(rows) + "\n")

rng = random.Random(56)
rows = []
for elem in (4, 8):
    for _ in range(12):
        rank = rng.randint(3, 5)
        n = 2 * rng.randint(1, 32)
        target = rng.uniform(60e6, 300e6)
        ext = [n]
        rest = target / n
        for i in range(rank - 1):
            left = rank - 1 - i
            e = max(2, int(round(rest ** (1.0 / left) * rng.uniform(0.5, 1.6)))) if left > 1 else max(2, int(round(rest)))
            ext.append(e)
            rest /= e
        p = [0] + rng.sample(range(1, rank), rank - 1)
        while p == list(range(rank)):
            p = [0] + rng.sample(range(1, rank), rank - 1)
        rows.append("%d %s %s" % (elem, ",".join(map(str, ext)), ",".join(map(str, p))))
open(os.path.join(here, "f-heldout-random.txt"), "w").write("\n".join(rows) + "\n")
