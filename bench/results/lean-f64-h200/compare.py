#!/usr/bin/env python3
"""Session 53's A/B of the lean tile form for 8-byte elements (new) against the checked form (base):
per case file, the planner's launch (candidate 0) new over base, both builds' planner launch and
fastest candidate as % of the same-run copy, and every candidate's new/base by kernel kind and by
the plan's lean flag (the features' last column, cuperm_tile_params_t.lean). "rule": the planner's
launch new/base where its flag is set and 1 elsewhere (seen/: new was lean on every 8-byte tile).

    tar xzf DIR/ab-times.tgz -C TIMES_DIR
    cuperm-plan-features --candidates < DIR/cases/NAME.txt > FEATURES_DIR/NAME.csv   (each NAME)
    python3 compare.py TIMES_DIR FEATURES_DIR"""
import glob, os, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools", "model"))
from candidate_ab import features as feats, geomean as gm, times_over_copy as times  # noqa: E402

KINDS = {"0": "copy", "1": "tiled", "2": "rows", "3": "whole-dims"}

d, fd = sys.argv[1], sys.argv[2]
print("| cases | planner's launch new/base: geomean, best, worst | rule: geomean, worst (lean plans) "
      "| planner % of copy base -> new: median, worst | fastest % of copy base -> new: median, worst |")
print("| --- | --- | --- | --- | --- |")
bykind = {}
for path in sorted(glob.glob(os.path.join(d, "times-*-base.csv"))):
    name = os.path.basename(path)[6:-9]
    b, n = times(path), times(path[:-8] + "new.csv")
    f = feats(os.path.join(fd, name + ".csv"))
    cases = sorted({c for c, _ in b} & {c for c, _ in n})
    r0 = [n[(c, 0)] / b[(c, 0)] for c in cases if (c, 0) in b and (c, 0) in n]
    lean0 = [f[(c, 0)][21] == "1" and f[(c, 0)][20] == "0" for c in cases if (c, 0) in b and (c, 0) in n]
    rule = [r if l else 1.0 for r, l in zip(r0, lean0)]
    p_b = [100 / b[(c, 0)] for c in cases if (c, 0) in b and (c, 0) in n]
    p_n = [100 / n[(c, 0)] for c in cases if (c, 0) in b and (c, 0) in n]
    f_b = [100 / min(v for (cc, _), v in b.items() if cc == c) for c in cases]
    f_n = [100 / min(v for (cc, _), v in n.items() if cc == c) for c in cases]
    print(f"| {name} ({len(r0)}) | {gm(r0):.3f}, {min(r0):.3f}, {max(r0):.3f} | {gm(rule):.3f}, {max(rule):.3f} ({sum(lean0)}) "
          f"| {statistics.median(p_b):.1f}, {min(p_b):.1f} -> "
          f"{statistics.median(p_n):.1f}, {min(p_n):.1f} | {statistics.median(f_b):.1f}, {min(f_b):.1f} -> "
          f"{statistics.median(f_n):.1f}, {min(f_n):.1f} |")
    for k in b:
        if k in n and k in f:
            v = f[k]
            kind = (KINDS.get(v[16], v[16]), "vec" if v[11] != "0" else "scalar", "pipe" if v[20] == "1" else "plain",
                    f"tile 2^{int(v[9]) + int(v[10])}", "lean" if v[21] == "1" and v[20] == "0" else "-")
            bykind.setdefault(kind, []).append(n[k] / b[k])
print()
print("| candidate kind | n | new/base: geomean, min, max |")
print("| --- | ---: | --- |")
for k, r in sorted(bykind.items()):
    print(f"| {' '.join(k)} | {len(r)} | {gm(r):.3f}, {min(r):.3f}, {max(r):.3f} |")
