#!/usr/bin/env python3
"""Compares the plans of two cuperm trees on the CPU (no GPU).

Runs each tree's `cuperm-plan-features --describe` on case lists
("ELEM E0,E1,... P0,P1,..." per line) and prints, per list: cases, the share
whose launch changed, and the sector efficiencies of reads and writes
(bytes moved / bytes of the 32-byte sectors touched, cuperm_sector_efficiency;
the same function scores both trees' launches) -- mean, worst, and the share of
cases whose write efficiency is below 0.9.

usage: compare_plans.py --before OLD_TOOL --after NEW_TOOL LIST...
"""
import argparse
import os
import statistics
import subprocess


def describe(tool, path):
    with open(path) as f:
        out = subprocess.run([tool, "--describe"], stdin=f, capture_output=True, text=True, check=True).stdout
    rows = []
    for line in out.splitlines():
        parts = [p.strip() for p in line.split("|")]
        eff = parts[-1].split()
        rows.append({"case": parts[0], "launch": "|".join(parts[1:-1]),
                     "in": float(eff[0]), "out": float(eff[1]), "fill": float(eff[2])})
    return rows


def stats(rows, key):
    v = [r[key] for r in rows]
    return statistics.mean(v), min(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("lists", nargs="+")
    a = ap.parse_args()
    print(f"{'list':16} {'cases':>5} {'changed':>8} | {'read eff mean/worst':>20} | "
          f"{'write eff mean/worst':>21} | {'writes<0.9':>10} | {'fill mean':>9}")
    for path in a.lists:
        b, n = describe(a.before, path), describe(a.after, path)
        changed = sum(x["launch"] != y["launch"] for x, y in zip(b, n)) / len(b)
        name = os.path.basename(path).rsplit(".", 1)[0]
        cols = []
        for rows in (b, n):
            cols.append((stats(rows, "in"), stats(rows, "out"),
                         sum(r["out"] < 0.9 for r in rows) / len(rows), statistics.mean(r["fill"] for r in rows)))
        (bi, bo, bl, bf), (ni, no, nl, nf) = cols
        print(f"{name:16} {len(b):5} {100 * changed:7.1f}% | {bi[0]:.3f}/{bi[1]:.3f} -> {ni[0]:.3f}/{ni[1]:.3f} | "
              f"{bo[0]:.3f}/{bo[1]:.3f} -> {no[0]:.3f}/{no[1]:.3f} | {100 * bl:4.0f}->{100 * nl:3.0f}% | "
              f"{bf:.3f}->{nf:.3f}")


if __name__ == "__main__":
    main()
