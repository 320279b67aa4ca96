"""The rule's threshold read off call 4 (the final kernel, every candidate timed): for each case whose
previous plan (65b1557) is a scalar rows launch with a row-tiles candidate, the row tiles' time over
that launch's, against the rows launch's tile fill (cuperm_tile_fill: the share of its tiles' slots
its elements fill). Then, for thresholds around the rule's 0.75: the geomean over those cases of the
time the rule would give (row tiles where the fill is under the threshold, rows of a sector or more,
not vector rows) over the previous plan's, and the worst case. Suites a and b are the ones the rule was
read from; c was looked at after (the sector minimum and the vector exemption come from it and b).

usage: fill_rule.py   (reads call4-final-kernel/ and features-65b1557/ beside it)
"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import times_over_copy  # noqa: E402
sys.path.insert(0, os.path.join(HERE, "../../../tools/model"))
from candidate_ab import features  # noqa: E402

CALL = os.path.join(HERE, "call4-final-kernel")


def row_bytes(text):
    """Bytes of the shared fastest dimension after fusing (the leading dimensions the permutation keeps)."""
    elem, ext, perm = text.split()
    ext, perm = [int(x) for x in ext.split(",")], [int(x) for x in perm.split(",")]
    n, k = 1, 0
    while k < len(perm) and perm[k] == k:
        n, k = n * ext[k], k + 1
    return n * int(elem)


def points(suite):
    t = times_over_copy(f"{CALL}/ab-times.tgz", suite)
    new, old = features(f"{CALL}/features-{suite}.txt"), features(f"{HERE}/features-65b1557/{suite}.txt")
    cases = [l.strip() for l in open(f"{HERE}/cases/{suite}.txt") if l.strip()]
    for c, text in enumerate(cases):
        cands = {k[1]: v for k, v in new.items() if k[0] == c}
        at = [i for i, v in cands.items() if (c, 0) in old and v[2:] == old[(c, 0)][2:]]
        rt = [i for i, v in cands.items() if v[16] == "4"]
        if at and rt and cands[at[0]][16] == "2" and (c, at[0]) in t and (c, rt[0]) in t:
            rows = cands[at[0]]
            yield (float(rows[7]), rows[11] != "0", row_bytes(text), t[(c, rt[0])] / t[(c, at[0])], text)


def main():
    data = {s: list(points(s)) for s in ("a-seen-f64", "b-seen-f32", "c-heldout-suites")}
    print("suite  fill  vector  row bytes  row tiles / rows  case")
    for s, pts in data.items():
        for fill, vec, rb, r, text in sorted(pts):
            print(f"{s[0]}  {fill:.3f}  {int(vec)}  {rb:5d}  {r:.3f}  {text}")
    print("\nthreshold: geomean (worst) of the rule's time over the previous plan's, per suite")
    for thr in (0.6, 0.7, 0.72, 0.75, 0.8, 0.85, 0.9, 1.01):
        cols = []
        for s, pts in data.items():
            r = [p[3] if p[0] < thr and not p[1] and p[2] >= 32 else 1.0 for p in pts]
            cols.append(f"{s[0]} {math.exp(sum(map(math.log, r)) / len(r)):.3f} ({max(r):.3f})")
        print(f"  {thr:.2f}: " + "  ".join(cols))


if __name__ == "__main__":
    main()
