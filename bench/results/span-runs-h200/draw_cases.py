#!/usr/bin/env python3
"""Draws random rank 3-5 transposes of about 2^27 elements (a batch dimension fills the volume) and keeps
those whose plan the session-63 span rule (span_max_run_elems 8 -> 10; or 10 -> 12, given those trees) changes, judged by the two trees'
cuperm-plan-features --describe. Drawn after the rule was written; nothing here was tuned on.
    python3 draw_cases.py SEED ELEM PF_BEFORE PF_AFTER [N] > cases.txt   (lines: ELEM EXTENTS PERM)"""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools", "model"))
from plan_changes import changed_cases  # noqa: E402

seed, elem, before, after = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
want = int(sys.argv[5]) if len(sys.argv) > 5 else 12
rng = random.Random(seed * 10 + elem)
lines = []
for _ in range(20000):
    rank = rng.randint(3, 5)
    ext = [rng.choice([rng.randint(2, 12), rng.randint(2, 40)]) for _ in range(rank - 1)]
    inner = 1
    for e in ext:
        inner *= e
    batch = max(1, (1 << 27) // inner)
    pos = rng.randint(0, rank - 1)  # the batch dimension anywhere
    ext.insert(pos, batch)
    perm = list(range(rank))
    rng.shuffle(perm)
    lines.append(f"{elem} {','.join(map(str, ext))} {','.join(map(str, perm))}")

changed = changed_cases(lines, before, after)
print(f"# seed {seed}, {elem}-byte: {len(changed)} of {len(lines)} drawn cases change plan; the first {want}")
print("\n".join(changed[:want]))
