"""Row tiles read by 16-byte units (call 5) against one cp.async an element or vector (the base, the
tree before): both builds' cuperm-candidate-times timed every candidate of each case in one call,
alternating which ran first. Candidates are matched by their cuperm-plan-features --candidates line
(features-base-SUITE.txt from the tree 3407c83, features-new-SUITE.txt from the change), so the plans'
order may differ between the builds.
usage: python3 compare_ab.py [SUITE...]   (default: h-seen i-heldout-d)"""
import csv
import io
import os
import statistics
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../../../tools/model"))
from candidate_ab import features, geomean  # noqa: E402

ROW_TILES = "4"


def times(tar, suite, build):
    rows = csv.DictReader(io.TextIOWrapper(tar.extractfile(f"times-{suite}-{build}.csv")))
    return {(int(r["case"]), int(r["candidate"])): float(r["copy_seconds"]) / float(r["seconds"])
            for r in rows if float(r["seconds"]) > 0}


def main():
    tar = tarfile.open(os.path.join(HERE, "ab-times.tgz"))
    for suite in sys.argv[1:] or ["h-seen", "i-heldout-d"]:
        tb, tn = times(tar, suite, "base"), times(tar, suite, "new")
        fb = features(os.path.join(HERE, f"features-base-{suite}.txt"))
        fn = features(os.path.join(HERE, f"features-new-{suite}.txt"))
        cases = [l.strip() for l in open(os.path.join(HERE, f"cases-{suite}.txt")) if l.strip()]
        by_type = {}
        plans = []
        others = []
        for c, text in enumerate(cases):
            match = {}
            for (k, i), v in fb.items():
                if k != c:
                    continue
                j = [j for (kk, j), w in fn.items() if kk == c and w[2:] == v[2:]]
                if j and (c, i) in tb and (c, j[0]) in tn:
                    match[i] = j[0]
            for i, j in match.items():
                ratio = tb[(c, i)] / tn[(c, j)]  # time new / time base
                if fb[(c, i)][16] == ROW_TILES:
                    key = (text.split()[0], fb[(c, i)][11] != "0")
                    by_type.setdefault(key, []).append((ratio, 100 * tb[(c, i)], 100 * tn[(c, j)], text))
                else:
                    others.append(ratio)
            if (c, 0) in tn and 0 in [j for j in match.values()] and fn[(c, 0)][16] == ROW_TILES:
                i = [i for i, j in match.items() if j == 0][0]
                plans.append((100 * tb[(c, i)], 100 * tn[(c, 0)]))
        print(f"== {suite}: {len(cases)} cases")
        for (elem, vec), rs in sorted(by_type.items()):
            r = [x[0] for x in rs]
            print(f"  row tiles, {elem}-byte elements{', vectors' if vec else ''} ({len(rs)}): time new / base geomean "
                  f"{geomean(r):.3f} (best {min(r):.3f}, worst {max(r):.3f}); % of copy median "
                  f"{statistics.median(x[1] for x in rs):.1f} -> {statistics.median(x[2] for x in rs):.1f}, worst "
                  f"{min(x[1] for x in rs):.1f} -> {min(x[2] for x in rs):.1f}")
        print(f"  other candidates ({len(others)}): time new / base geomean {geomean(others):.3f}")
        if plans:
            print(f"  plans that are row tiles ({len(plans)}): % of copy median {statistics.median(p[0] for p in plans):.1f}"
                  f" -> {statistics.median(p[1] for p in plans):.1f}, worst {min(p[0] for p in plans):.1f} -> "
                  f"{min(p[1] for p in plans):.1f}")


if __name__ == "__main__":
    main()
