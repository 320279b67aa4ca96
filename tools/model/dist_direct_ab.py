#!/usr/bin/env python3
"""A bound output's direct stores against the plan's own transport, case by case (issue 17).

Reads the bound-output rows of cuperm-dist-test logs made by scripts/gpu-dist-experiment.sh with
CONFIGS="CUPERM_DIST_DIRECT=0;CUPERM_DIST_DIRECT=1;CUPERM_DIST_DIRECT=1 CUPERM_DIST_WHOLE=0"
(PREFIX-CUPERM_DIST_DIRECT-0.log and so on: the plan's transport, the direct stores as bound, the
direct stores one transpose per receiver), prices each case's direct stores on the CPU with
cuperm-dist-plan-time (its "direct" and "whole" rows, rank 0) and prints one line per case: the
same run's exchange, the three times (ms), and the direct pieces' kernel, dense runs and modelled
time beside the whole-block transpose's.

    python3 tools/model/dist_direct_ab.py --tool build/tools/model/cuperm-dist-plan-time \\
        [--dram 4.8e12] PREFIX [PREFIX ...]

A PREFIX's cases are read from its DIRECT-0 log (random rows, or the fixed suite's large ones).
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys
import tempfile

# "r03 p524130 S1->S2 bound output  f32  EXTENTS  GB  SENT  t/v/k  dist_ms  a2a_ms ..." (random
# suite) or "6-D reverse, Shard(5)->Shard(5), bound output  f32 ..." (fixed suite)
ROW = re.compile(r"^(r\d+ p(\d+) S(\d)->S(\d)|6-D (\w+), Shard\((\d)\)->Shard\((\d)\)),? bound output\s+\S+\s+(\S+)"
                 r"\s+\S+\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)")
FIXED_PERMS = {"reverse": "5,4,3,2,1,0", "swap01": "1,0,2,3,4,5", "mixed": "2,0,5,1,4,3"}


def bound_rows(path):
    """[(name, 'RANKS EXTENTS PERM IN OUT', transport, ms, exchange ms)] of the log's large cases."""
    out = []
    if not os.path.exists(path):
        return out
    for line in open(path):
        m = ROW.match(line)
        if not m or " large " not in line:
            continue
        if m.group(2):
            name, perm, i, o = m.group(1).split()[0], ",".join(m.group(2)), m.group(3), m.group(4)
        else:
            name, perm, i, o = m.group(5), FIXED_PERMS[m.group(5)], m.group(6), m.group(7)
        out.append((name, f"2 {m.group(8)} {perm} {i} {o}", m.group(10)[:2], float(m.group(11)),
                    float(m.group(12))))
    return out


def price(tool, dram, lines):
    """{case index: {'direct'|'whole': rank 0's row}} from cuperm-dist-plan-time."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    try:
        text = subprocess.run([tool, f.name, "--dram", dram], check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    rows = {}
    for r in csv.DictReader(io.StringIO(text)):
        if r["rank"] == "0" and r["transport"] in ("direct", "whole"):
            rows.setdefault(int(r["case"]), {})[r["transport"]] = r
    return rows


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="cuperm-dist-plan-time")
    ap.add_argument("--dram", default="4.8e12", help="the stand-in device's DRAM bytes a second (H200: 4.8e12)")
    ap.add_argument("prefixes", nargs="+")
    a = ap.parse_args(argv)
    print(f"{'case':<24} {'extents':<22} {'a2a':>7} {'plan':>10} {'bound':>10} {'pieces':>7} | "
          f"{'pieces: kind/in run':>19} {'out run':>10} {'model us':>8} {'local us':>8} | {'whole: model us':>15}")
    for prefix in a.prefixes:
        base = bound_rows(prefix + "-CUPERM_DIST_DIRECT-0.log")
        direct = bound_rows(prefix + "-CUPERM_DIST_DIRECT-1.log")
        pieces = bound_rows(prefix + "-CUPERM_DIST_DIRECT-1_CUPERM_DIST_WHOLE-0.log")
        priced = price(a.tool, a.dram, [r[1] for r in base])
        for i, (name, line, t0, ms0, a2a) in enumerate(base):
            d = priced.get(i, {}).get("direct")
            w = priced.get(i, {}).get("whole")
            bound = f"{direct[i][2]} {direct[i][3]:7.3f}" if i < len(direct) else "-"
            piece = f"{pieces[i][3]:7.3f}" if i < len(pieces) else "-"
            print(f"{os.path.basename(prefix)[5:] + ' ' + name:<24} {line.split()[1]:<22} {a2a:7.3f} {t0} {ms0:7.3f} "
                  f"{bound:>10} {piece:>7} | "
                  f"{(d['pack_kind'] + '/' + d['pack_in_run']) if d else '-':>19} {d['pack_out_run'] if d else '-':>10} "
                  f"{float(d['pack_us']) if d else 0:8.0f} {float(d['local_us']) if d else 0:8.0f} | "
                  f"{float(w['pack_us']) if w else 0:15.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
