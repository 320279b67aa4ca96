#!/usr/bin/env python3
"""Session 54's A/B of the spread lean form of 8- and 16-byte tiles (new: every standard scalar tile
lean, threads taking rows and columns a block-side apart) against main at 1e42e47 (base: lean, with
a thread's neighbouring columns, only where the stores fill their sectors; checked elsewhere).
Every candidate of each case file was timed by both builds in one device call
(scripts/gpu-candidates-ab.sh). Prints, per case file: the planner's launch (candidate 0) new/base
and as % of the same-run copy, the fastest candidate, and every candidate's new/base grouped by the
forms the two builds ran (features' last column: cuperm_tile_params_t.lean; column 20: pipelined).

    tar xzf ab-times.tgz -C TIMES_DIR
    cuperm-plan-features --candidates < cases/NAME.txt > BASE_FEATURES/NAME.csv    (base build)
    cuperm-plan-features --candidates < cases/NAME.txt > NEW_FEATURES/NAME.csv     (new build)
    python3 compare.py TIMES_DIR BASE_FEATURES NEW_FEATURES"""
import glob, os, statistics, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "tools", "model"))
from candidate_ab import features as feats, geomean as gm, times_over_copy as times  # noqa: E402


def form(v):
    return "pipelined" if v[20] == "1" else "lean" if v[21] == "1" else "other"


def summary(x):
    return f"{gm(x):.3f} (n {len(x)}, {min(x):.3f}-{max(x):.3f})" if x else "-"


d, fb, fn = sys.argv[1:4]
groups = {}
print("| cases | planner's launch new/base: geomean, best, worst | planner % of copy base -> new: median, worst "
      "| fastest % of copy base -> new: median, worst |")
print("| --- | --- | --- | --- |")
for path in sorted(glob.glob(os.path.join(d, "times-*-base.csv"))):
    name = os.path.basename(path)[6:-9]
    if not os.path.exists(path[:-8] + "new.csv"):
        continue
    b, n = times(path), times(path[:-8] + "new.csv")
    f_b, f_n = feats(os.path.join(fb, name + ".csv")), feats(os.path.join(fn, name + ".csv"))
    cases = sorted(c for c, k in b if k == 0 and (c, 0) in n)
    if not cases:
        continue
    r0 = [n[(c, 0)] / b[(c, 0)] for c in cases]
    pb, pn = [100 / b[(c, 0)] for c in cases], [100 / n[(c, 0)] for c in cases]
    fast_b = [100 / min(v for (cc, _), v in b.items() if cc == c) for c in cases]
    fast_n = [100 / min(v for (cc, _), v in n.items() if cc == c) for c in cases]
    print(f"| {name} ({len(cases)}) | {gm(r0):.3f}, {min(r0):.3f}, {max(r0):.3f} | {statistics.median(pb):.1f}, "
          f"{min(pb):.1f} -> {statistics.median(pn):.1f}, {min(pn):.1f} | {statistics.median(fast_b):.1f}, "
          f"{min(fast_b):.1f} -> {statistics.median(fast_n):.1f}, {min(fast_n):.1f} |")
    for k in b:
        if k in n and k in f_b and k in f_n:
            key = (name, form(f_b[k]) + " -> " + form(f_n[k]))
            groups.setdefault(key, []).append(n[k] / b[k])
print("\nEvery candidate, new/base time by the forms base -> new ran (lean: base's neighbouring-column "
      "form, new's spread form):\n")
print("| cases | forms | new/base geomean (count, range) |")
print("| --- | --- | --- |")
for (name, g), x in sorted(groups.items()):
    print(f"| {name} | {g} | {summary(x)} |")
