#!/usr/bin/env python3
"""Compares two builds' timings of every candidate launch (scripts/gpu-candidates-ab.sh) per case file.

For each NAME with times-NAME-base.csv and times-NAME-new.csv in DIR: the whole-dims candidate's time
new over base (median, best, worst), each case's fastest candidate (time over the same-run copy, base and
new), and how many cases whole-dims wins. Candidate kernels come from FEATURES_DIR/NAME.csv
(cuperm-plan-features --candidates < NAME.txt, made on the development machine: host planning only).

    python3 tools/model/compare_candidates_ab.py DIR FEATURES_DIR
"""
import glob
import os
import statistics
import sys

from candidate_ab import features, times_and_copy as times

KINDS = {"0": "copy", "1": "tiled", "2": "rows", "3": "whole-dims", "4": "row-tiles"}


def kinds(path):
    return {k: KINDS.get(v[16], v[16]) for k, v in features(path).items()}


def best(t, case):
    """(time over copy, kind key) of the case's fastest candidate."""
    rows = [(s / c, key) for key, (s, c) in t.items() if key[0] == case]
    return min(rows) if rows else (None, None)


def main():
    d, fd = sys.argv[1], sys.argv[2]
    print("| cases | whole-dims new/base: median, best, worst | fastest / copy, base: median, worst "
          "| new: median, worst | whole-dims fastest: base, new |")
    print("| --- | --- | --- | --- | --- |")
    for base_path in sorted(glob.glob(os.path.join(d, "times-*-base.csv"))):
        name = os.path.basename(base_path)[len("times-"):-len("-base.csv")]
        new_path = os.path.join(d, "times-%s-new.csv" % name)
        if not os.path.exists(new_path):
            continue
        tb, tn, kd = times(base_path), times(new_path), kinds(os.path.join(fd, name + ".csv"))
        ratios = [tn[k][0] / tb[k][0] for k in tb if k in tn and kd.get(k) == "whole-dims"]
        cases = sorted({k[0] for k in tb} & {k[0] for k in tn})
        fb, fn, wb, wn = [], [], 0, 0
        for c in cases:
            rb, kb = best(tb, c)
            rn, kn = best(tn, c)
            fb.append(rb)
            fn.append(rn)
            wb += kd.get(kb) == "whole-dims"
            wn += kd.get(kn) == "whole-dims"
        if not ratios:
            continue
        print("| %s (%d) | %.3f, %.3f, %.3f | %.3f, %.3f | %.3f, %.3f | %d, %d |" % (
            name, len(cases), statistics.median(ratios), min(ratios), max(ratios), statistics.median(fb), max(fb),
            statistics.median(fn), max(fn), wb, wn))
    return 0


if __name__ == "__main__":
    sys.exit(main())
