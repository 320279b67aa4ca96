"""Row tiles against the planner's previous launch, from one build's candidate times: every candidate
of a case timed in one run, so the previous planner's launch (found among the timed candidates by its
cuperm-plan-features line, as the tree before row tiles, 65b1557, planned it) and the new one are
timed side by side.

usage: compare.py CALL_DIR [--features DIR] SUITE...
  CALL_DIR/ab-times.tgz             times-SUITE-base.csv of cuperm-candidate-times (the call's build)
  CALL_DIR/features-SUITE.txt       cuperm-plan-features --candidates of the call's tree (--features: another
                                    call's, where the host code was the same)
  features-65b1557/SUITE.txt        the same of the tree before row tiles
  cases/SUITE.txt                   the cases ("ELEM EXTENTS PERM")
"""
import csv
import io
import os
import statistics
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../../tools/model"))
from candidate_ab import features, geomean  # noqa: E402

ROW_TILES = "4"


def times_over_copy(tgz, suite):
    """Each timed candidate's seconds over the same-run copy's, from the call's archive."""
    with tarfile.open(tgz) as tar:
        rows = csv.DictReader(io.TextIOWrapper(tar.extractfile(f"times-{suite}-base.csv")))
        return {(int(r["case"]), int(r["candidate"])): float(r["seconds"]) / float(r["copy_seconds"])
                for r in rows if float(r["seconds"]) > 0 and float(r["copy_seconds"]) > 0}


def launches(call, fdir, suite):
    """Per case: (text, the previous plan's time / copy, the new plan's, the row tiles', the fastest other
    candidate's, whether the new plan is row tiles)."""
    t = times_over_copy(f"{call}/ab-times.tgz", suite)
    new, old = features(f"{fdir}/features-{suite}.txt"), features(f"{HERE}/features-65b1557/{suite}.txt")
    cases = [l.strip() for l in open(f"{HERE}/cases/{suite}.txt") if l.strip()]
    out = []
    for c, text in enumerate(cases):
        cands = {k[1]: v for k, v in new.items() if k[0] == c}
        if not cands or (c, 0) not in old:
            continue
        old_at = [i for i, v in cands.items() if v[2:] == old[(c, 0)][2:]]
        rt = [i for i, v in cands.items() if v[16] == ROW_TILES and (c, i) in t]
        timed = {i: t[(c, i)] for i in cands if (c, i) in t}
        if not old_at or old_at[0] not in timed or 0 not in timed:
            continue
        others = [v for i, v in timed.items() if i not in rt]
        out.append((text, timed[old_at[0]], timed[0], timed[rt[0]] if rt else None, min(others),
                    cands[0][16] == ROW_TILES))
    return out


def summary(pcts):
    return f"{statistics.median(pcts):.1f} / {min(pcts):.1f}" if pcts else "-"


def main():
    args = sys.argv[1:]
    call = os.path.abspath(args.pop(0))
    fdir = call
    if args and args[0] == "--features":
        fdir = os.path.abspath(os.path.join(HERE, args[1]))
        args = args[2:]
    for suite in args:
        rows = launches(call, fdir, suite)
        changed = [r for r in rows if r[5]]
        print(f"## {suite}: {len(rows)} cases, {len(changed)} planned with row tiles")
        print(f"  planner's launch, % of copy median / worst: before {summary([100 / r[1] for r in rows])}, "
              f"now {summary([100 / r[2] for r in rows])}")
        if changed:
            ratio = [r[2] / r[1] for r in changed]
            print(f"  changed plans, now / before: geomean {geomean(ratio):.3f} (best {min(ratio):.3f}, worst "
                  f"{max(ratio):.3f}); % of copy before {summary([100 / r[1] for r in changed])}, now "
                  f"{summary([100 / r[2] for r in changed])}")
            vs = [r[2] / r[4] for r in changed]
            print(f"  changed plans against the fastest other candidate: geomean {geomean(vs):.3f}, worst {max(vs):.3f}")
            for r in sorted(changed, key=lambda r: r[2] / r[1], reverse=True)[:3]:
                print(f"  slowest change: {r[0]} before {100 / r[1]:.1f}%, now {100 / r[2]:.1f}%")
        kept = [r[3] / r[2] for r in rows if not r[5] and r[3] is not None]
        if kept:
            print(f"  where the planner keeps its launch, row tiles as a candidate: {len(kept)} cases, "
                  f"geomean {geomean(kept):.3f} of its time (best {min(kept):.3f}, worst {max(kept):.3f})")


if __name__ == "__main__":
    main()
