#!/usr/bin/env python3
"""Draws random transposes and keeps those whose plan the session-64 runs rule changes, judged by the two
trees' cuperm-plan-features --describe (drawn after the rule was written; nothing here was tuned on).
Families: "batch", rank 3-5 of about 2^27 elements with a batch dimension anywhere (the short-group kind);
"cube", n^6 for n in 12-40 with a random permutation; "mixed", rank 4-8 of extents 2-40 grown to 2^25-2^28
elements.
    python3 draw_cases.py FAMILY SEED ELEM PF_BEFORE PF_AFTER [N] > cases.txt   (lines: ELEM EXTENTS PERM)"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools", "model"))
from plan_changes import changed_cases  # noqa: E402

family, seed, elem, before, after = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
want = int(sys.argv[6]) if len(sys.argv) > 6 else 12
rng = random.Random(f"{family}-{seed}-{elem}")


def draw():
    if family == "batch":
        rank = rng.randint(3, 5)
        ext = [rng.choice([rng.randint(2, 12), rng.randint(2, 40)]) for _ in range(rank - 1)]
        inner = 1
        for e in ext:
            inner *= e
        ext.insert(rng.randint(0, rank - 1), max(1, (1 << 27) // inner))
    elif family == "cube":
        rank, n = 6, rng.randint(12, 40)
        ext = [n] * rank
    else:
        rank = rng.randint(4, 8)
        ext = [rng.randint(2, 40) for _ in range(rank)]
        target = 1 << rng.randint(25, 28)
        vol = 1
        for e in ext:
            vol *= e
        while vol < target:
            d = rng.randrange(rank)
            vol = vol // ext[d] * (ext[d] + 1)
            ext[d] += 1
        if vol > 1 << 29:
            return None
    perm = list(range(rank))
    rng.shuffle(perm)
    return f"{elem} {','.join(map(str, ext))} {','.join(map(str, perm))}"


lines = [x for x in (draw() for _ in range(6000)) if x]

changed = changed_cases(lines, before, after)
print(f"# {family}, seed {seed}, {elem}-byte: {len(changed)} of {len(lines)} drawn cases change plan; the first {want}")
print("\n".join(changed[:want]))
