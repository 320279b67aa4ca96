#!/usr/bin/env python3
"""Before / after a change of the span rule (session 63) on drawn cases, from one run's timing of every
candidate (cuperm-candidate-times, numbered by the planner of the tree that timed them, PF_TIMED): each
case's pick by both trees (found among the timed candidates by their features), its time over the
same-run copy, after over before, and each pick over the case's fastest candidate.
    python3 compare.py TIMES_DIR PF_TIMED PF_BEFORE PF_AFTER CASES_PREFIX
(TIMES_DIR/cand-changed-E.csv timed the cases of CASES_PREFIX-E.txt, E = 1, 2, 4)"""
import csv
import math
import os
import statistics
import subprocess
import sys

times_dir, timed, before, after, prefix = sys.argv[1:6]


def candidates(tool, lines):
    out = subprocess.run([tool, "--candidates"], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout
    feats = {}
    for line in out.splitlines():
        v = line.split(",")
        if v[0].isdigit():
            feats.setdefault(int(v[0]), {})[int(v[1])] = tuple(v[2:])
    return feats


print("| elements | cases | before: % of copy, median / worst | after | after / before: geomean, best, worst "
      "| within 5% of the fastest: before, after |")
print("| --- | ---: | --- | --- | --- | --- |")
for e in (1, 2, 4):
    if not os.path.exists(f"{prefix}-{e}.txt"):
        continue
    lines = [l.strip() for l in open(f"{prefix}-{e}.txt") if l.strip() and not l.startswith("#")]
    ft, fb, fa = candidates(timed, lines), candidates(before, lines), candidates(after, lines)
    t = {}
    with open(os.path.join(times_dir, f"cand-changed-{e}.csv")) as f:
        for r in csv.DictReader(f):
            s, c = float(r["seconds"]), float(r["copy_seconds"])
            if s > 0 and c > 0:
                t[(int(r["case"]), int(r["candidate"]))] = (s, c)
    pb, pa, ratio, near_b, near_a = [], [], [], 0, 0
    for case in range(len(lines)):
        mb = [k for k, v in ft[case].items() if v == fb[case][0]]
        ma = [k for k, v in ft[case].items() if v == fa[case][0]]
        if not mb or not ma or (case, mb[0]) not in t or (case, ma[0]) not in t:
            print(f"case {case} ({lines[case]}): a pick not timed", file=sys.stderr)
            continue
        sb, c = t[(case, mb[0])]
        sa, _ = t[(case, ma[0])]
        fastest = min(s for (k, _), (s, _) in t.items() if k == case)
        pb.append(100 * c / sb)
        pa.append(100 * c / sa)
        ratio.append(sa / sb)
        near_b += sb <= 1.05 * fastest
        near_a += sa <= 1.05 * fastest
        print(f"{e}-byte case {case} {lines[case]}: before {100 * c / sb:.1f}% after {100 * c / sa:.1f}% "
              f"({sa / sb:.3f}x the time)", file=sys.stderr)
    n = len(ratio)
    g = math.exp(sum(map(math.log, ratio)) / n) if n else float("nan")
    print(f"| {e}-byte | {n} | {statistics.median(pb):.1f} / {min(pb):.1f} | {statistics.median(pa):.1f} / "
          f"{min(pa):.1f} | {g:.3f}, {min(ratio):.3f}, {max(ratio):.3f} | {near_b} / {n}, {near_a} / {n} |")
