"""Copies with one 16-byte vector a thread (new) against four (base, the library before): both builds'
cuperm-candidate-times timed each case's copy launch in one call (call1/, AXPBY=1 adds out = 2 in +
0.5 out for the 4- and 8-byte files), alternating which ran first. Prints each case's times, new / base
and the geomean by size class (input and output within the H200's 63 MB of L2 together, or not).
usage: python3 compare.py [CALL_DIR]   (default call1)"""
import csv
import io
import math
import os
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
L2 = 63 << 20


def times(tar, name):
    try:
        f = tar.extractfile(name)
    except KeyError:
        return {}
    return {int(r["case"]): float(r["seconds"]) for r in csv.DictReader(io.TextIOWrapper(f)) if float(r["seconds"]) > 0}


def main():
    tar = tarfile.open(os.path.join(HERE, sys.argv[1] if len(sys.argv) > 1 else "call1", "ab-times.tgz"))
    for suite in ["copy-f32", "copy-f64", "copy-f16", "copy-i8", "copy-f32_axpby", "copy-f64_axpby"]:
        base, new = times(tar, f"times-{suite}-base.csv"), times(tar, f"times-{suite}-new.csv")
        cases = [l.split() for l in open(os.path.join(HERE, suite.split("_")[0] + ".txt")) if l.strip()]
        ratios = {"in L2": [], "DRAM": []}
        print(suite)
        for c, (elem, ext, _) in enumerate(cases):
            vol = math.prod(int(e) for e in ext.split(","))
            cls = "in L2" if 2 * vol * int(elem) <= L2 else "DRAM"
            b, n = base.get(c), new.get(c)
            if b and n:
                ratios[cls].append(n / b)
            fmt = lambda t: f"{t * 1e6:9.2f} us" if t else "        -   "
            print(f"  {elem} {ext:>14s} {vol * int(elem) / 2**20:9.1f} MB {cls:5s}  base {fmt(b)}  new {fmt(n)}"
                  + (f"  new/base {n / b:.3f}" if b and n else ""))
        for cls, r in ratios.items():
            if r:
                g = math.exp(sum(map(math.log, r)) / len(r))
                print(f"  {cls}: {len(r)} cases, new/base geomean {g:.3f}, range {min(r):.3f}-{max(r):.3f}")


main()
