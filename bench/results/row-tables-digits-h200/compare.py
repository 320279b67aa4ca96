"""Row tables built by carried digits (new) against a division and a modulo an entry (base, 7b194bf):
both builds' cuperm-candidate-times timed every candidate of each case in one call (call1), alternating
which ran first. Host planning is the same in both builds, so candidates match by index; kinds come from
features-SUITE.txt (cuperm-plan-features --candidates < cases-SUITE.txt).
usage: python3 compare.py [SUITE...]   (default: j-tables k-heldout-d)"""
import csv
import io
import os
import statistics
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../../tools/model"))
from candidate_ab import features, geomean  # noqa: E402


def times(tar, suite, build):
    rows = csv.DictReader(io.TextIOWrapper(tar.extractfile(f"times-{suite}-{build}.csv")))
    out = {}
    for r in rows:
        if float(r["seconds"]) > 0:
            assert r["same"] != "0", f"{suite} {build}: case {r['case']} candidate {r['candidate']} wrong"
            out[(int(r["case"]), int(r["candidate"]))] = (float(r["seconds"]), float(r["copy_seconds"]))
    return out


def main():
    tar = tarfile.open(os.path.join(HERE, "call1/ab-times.tgz"))
    for suite in sys.argv[1:] or ["j-tables", "k-heldout-d"]:
        tb, tn = times(tar, suite, "base"), times(tar, suite, "new")
        f = features(os.path.join(HERE, f"features-{suite}.txt"))
        cases = [l.strip() for l in open(os.path.join(HERE, f"cases-{suite}.txt")) if l.strip()]
        for elem in sorted({c.split()[0] for c in cases}, key=int):
            rt = [tn[k][0] / tb[k][0] for k in tb if k in tn and f[k][16] == "4" and cases[k[0]].split()[0] == elem]
            oth = [tn[k][0] / tb[k][0] for k in tb if k in tn and f[k][16] != "4" and cases[k[0]].split()[0] == elem]
            if rt:
                print(f"{suite} {elem}-byte: row-tiles candidates {len(rt)}, new/base time geomean {geomean(rt):.3f}"
                      f" median {statistics.median(rt):.3f} best {min(rt):.3f} worst {max(rt):.3f};"
                      f" other kernels ({len(oth)}) geomean {geomean(oth):.3f}")
        best_b, best_n = [], []
        for c in range(len(cases)):
            b = min((s / cp for (cc, _), (s, cp) in tb.items() if cc == c), default=None)
            n = min((s / cp for (cc, _), (s, cp) in tn.items() if cc == c), default=None)
            if b and n:
                best_b.append(100 / b)
                best_n.append(100 / n)
        print(f"{suite}: best candidate % of copy, median base {statistics.median(best_b):.1f} new"
              f" {statistics.median(best_n):.1f}; worst base {min(best_b):.1f} new {min(best_n):.1f}")


main()
