#!/usr/bin/env python3
"""The README's numbers that compare.py does not print, from the new builds' timings of calls 1-2:
the final rule replayed on call 1 (whose new build ran every standard tile lean), run 1's tables by
tile sides and of the planner's checked launches with their twins, how often the
planner's launch is within 5% of the fastest candidate, the banded walk against the A-fastest one on
the same tile and form, and banding every planner launch whose stores leave sectors partly written.

    tar xzf call1-heldout-rule-fit/ab-times.tgz -C T1; tar xzf call2-heldout/ab-times.tgz -C T2
    cuperm-plan-features --candidates < call1-heldout-rule-fit/cases/NAME.txt > RULE/NAME.csv   (final library)
    python3 leads.py T1 T2 RULE

Features columns (tools/model/plan_features.c): 9-11 tile_a_log2, tile_b_log2, vec_log2; 12 band_tiles;
14 out_sector_eff; 16 kind (1: tiled); 20 pipelined; 21 lean."""
import collections
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "tools", "model"))
from candidate_ab import features, geomean, times_over_copy  # noqa: E402

CALL1 = ["a-permn-heldout", "b-primes-heldout"]
CALL2 = ["a-perm720-f64", "b-permn15-17-f64", "c-permn15-17-c64", "d-perm720-c64", "e-ttc57-c64"]


def suites(t1, t2):
    for tdir, call, names in ((t1, "call1-heldout-rule-fit", CALL1), (t2, "call2-heldout", CALL2)):
        for name in names:
            yield (name, times_over_copy(os.path.join(tdir, f"times-{name}-new.csv")),
                   times_over_copy(os.path.join(tdir, f"times-{name}-base.csv")),
                   features(os.path.join(here, call, "features-new", name + ".csv")))


def rule_replay(t1, rule_dir):
    print("The final rule on call 1 (not held out): planner's launch new/base")
    for name in CALL1:
        n, b, _, _ = call1(t1, name)
        lean = {c: v[21] == "1" and v[20] == "0" for (c, k), v in features(os.path.join(rule_dir, name + ".csv")).items()
                if k == 0}
        cases = [c for c in sorted(lean) if (c, 0) in n and (c, 0) in b]
        r = [(n[(c, 0)] if lean[c] else b[(c, 0)]) / b[(c, 0)] for c in cases]
        print(f"  {name}: {len(cases)} cases, {sum(lean[c] for c in cases)} lean, geomean {geomean(r):.3f}, "
              f"worst {max(r):.3f}")


def call1(t1, name):
    """Call 1's timings of a case file by the new and base builds, and both builds' features."""
    feats = [features(os.path.join(here, "call1-heldout-rule-fit", f"features-{b}", name + ".csv"))
             for b in ("base", "new")]
    return (times_over_copy(os.path.join(t1, f"times-{name}-new.csv")),
            times_over_copy(os.path.join(t1, f"times-{name}-base.csv")), feats[0], feats[1])


def sides_table(t1):
    """Run 1's table: tiles base ran checked and new ran spread, new/base by sides and warp fill."""
    print("\nCall 1, checked (base) -> spread (new), by 2^la x 2^lb and whether each warp's stores fill their sectors:")
    groups = collections.defaultdict(list)
    for name in CALL1:
        n, b, fb, fn = call1(t1, name)
        for k in b:
            if k in n and k in fb and k in fn and fb[k][21] == "0" and fb[k][20] == "0" and fn[k][21] == "1":
                v = fn[k]
                groups[(int(v[9]), int(v[10]), float(v[18]) >= 0.999)].append(n[k] / b[k])
    for (la, lb, fills), r in sorted(groups.items()):
        print(f"  {1 << la} x {1 << lb}, warp fills {'yes' if fills else 'no'}: {len(r)} tiles, geomean "
              f"{geomean(r):.3f} ({min(r):.3f}-{max(r):.3f})")


def twin_table(t1):
    """Call 1's planner launches that base ran checked, with their twins: % of copy (geomean) of the
    checked form (base), session 53's lean form (base's twin) and the spread form (new)."""
    print("\nCall 1, the planner's checked launches and their twins, % of copy by geomean:")
    groups = collections.defaultdict(list)
    for name in CALL1:
        n, b, fb, _ = call1(t1, name)
        for c in sorted({c for c, _ in fb}):
            keys = sorted(k for k in fb if k[0] == c)
            twin = keys[-1]
            orig = [k for k in keys[:-1] if fb[k][2:20] == fb[twin][2:20] and fb[k][21] != fb[twin][21]]
            if not orig or fb[twin][20] == "1" or fb[orig[0]][21] == "1":
                continue
            o = orig[0]
            if all(k in b for k in (o, twin)) and o in n:
                groups[(int(fb[o][9]), int(fb[o][10]))].append((b[o], b[twin], n[o]))
    for (la, lb), r in sorted(groups.items()):
        g = [100 / geomean([x[i] for x in r]) for i in range(3)]
        print(f"  {1 << la} x {1 << lb}: {len(r)} cases, checked {g[0]:.1f}, session 53's lean {g[1]:.1f}, "
              f"spread {g[2]:.1f}")


def same_but_band(f, k0):
    v0 = f[k0]
    return [k for k, v in f.items() if k[0] == k0[0] and v[9:12] == v0[9:12] and v[20:22] == v0[20:22]
            and v[16] == "1" and v[12] != "0"]


def main():
    t1, t2, rule_dir = sys.argv[1:4]
    rule_replay(t1, rule_dir)
    sides_table(t1)
    twin_table(t1)
    pairs = collections.defaultdict(list)
    print("\nPlanner's launch within 5% of the fastest candidate; banding every partial-store plan, replayed:")
    for name, n, _, f in suites(t1, t2):
        cases = sorted(c for c, k in n if k == 0)
        within = sum(n[(c, 0)] <= 1.05 * min(v for k, v in n.items() if k[0] == c) for c in cases)
        ratio, changed, before, after = [], 0, [], []
        for c in cases:
            v0, t0 = f[(c, 0)], n[(c, 0)]
            new = t0
            if v0[16] == "1" and v0[20] == "0" and v0[12] == "0" and float(v0[14]) < 0.995:
                alt = [k for k in same_but_band(f, (c, 0)) if k in n]
                if alt:
                    new, changed = n[alt[0]], changed + 1
            ratio.append(new / t0)
            before.append(100 / t0)
            after.append(100 / new)
        print(f"  {name}: within 5% {within}/{len(cases)}; banded replay: {changed} change, {geomean(ratio):.3f} "
              f"(worst {max(ratio):.3f}), median {statistics.median(before):.1f} -> {statistics.median(after):.1f}")
        for k, v in f.items():
            if v[16] == "1" and v[12] == "0" and k in n:
                for kb in same_but_band(f, k):
                    if kb in n:
                        key = ("c64" if "c64" in name else "f64", "lean" if v[21] == "1" else "checked",
                               "pipelined" if v[20] == "1" else "plain",
                               "full" if float(v[14]) >= 0.995 else "partial")
                        pairs[key].append(n[kb] / n[k])
    print("\nBanded over A-fastest walk, same tile and form (element, form, kernel, store sectors):")
    for key, r in sorted(pairs.items()):
        print(f"  {' '.join(key)}: {len(r)} pairs, geomean {geomean(r):.3f} ({min(r):.3f}-{max(r):.3f})")


if __name__ == "__main__":
    main()
