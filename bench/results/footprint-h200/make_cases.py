#!/usr/bin/env python3
"""Random 6-D redistribution case lines (tools/model/dist_case.h) for cuperm-dist-anatomy --pieces:
extents drawn log-uniformly (2-160) and scaled to about GB gigabytes of f32 in all, a random
permutation, random source and destination modes, RANKS ranks.
    python3 make_cases.py SEED N RANKS [GB]"""
import math
import random
import sys

seed, n, ranks = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
gb = float(sys.argv[4]) if len(sys.argv) > 4 else 4.0
rng = random.Random(seed)
print(f"# make_cases.py {seed} {n} {ranks} {gb}")
for _ in range(n):
    while True:
        e = [math.exp(rng.uniform(math.log(2), math.log(160))) for _ in range(6)]
        scale = (gb * 1e9 / 4 / math.prod(e)) ** (1 / 6)
        e = [max(2, round(x * scale)) for x in e]
        a, b = rng.randrange(6), rng.randrange(6)
        perm = list(range(6))
        rng.shuffle(perm)
        if e[a] >= ranks and e[perm[b]] >= ranks and perm != list(range(6)):
            break
    print(ranks, "x".join(map(str, e)), ",".join(map(str, perm)), a, b)
