#!/usr/bin/env python3
"""Fits the redistribution model's dist_unpack_overlap (src/core/tuning.c) to forced candidates.

Reads cuperm-dist-test --bench --random logs made with DT_SWEEP=1 (scripts/gpu-dist-heldout.sh:
every transport, variant and stage count forced and timed, every output element checked), prices
every candidate of every case on the CPU with cuperm-dist-plan-time at each scanned value, and
reports per log how far the model's choice (the candidate whose slowest rank it prices lowest, as
the planner's agreement does) is from the fastest forced candidate: geomean and worst of their
time ratio. Fit on some logs, check on others (held out).

    python3 tools/model/dist_fit.py --tool build/tools/model/cuperm-dist-plan-time \\
        [--dram 4.8e12] [--overlaps 0,0.25,0.5,0.75,1] [--scan link-overlap=0,0.5 ...] LOG [LOG ...]

--overlaps scans dist_unpack_overlap; each --scan NAME=V,V,... scans another of the tool's options
(unpack-overlap, link-overlap, permuting-stores), every combination of the values.
"""
import argparse
import itertools
import csv
import io
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dist_heldout  # noqa: E402

# a held-out case's model row names its permutation and modes: "r03 p524130 S1->S2 model"
CASE = re.compile(r"^(r\d+) p(\d+) S(\d)->S(\d) model\s+\S+\s+(\S+)")


def case_lines(lines, ranks=2):
    """[(case, 'RANKS EXTENTS PERM IN OUT')] from a log's model rows (cuperm-dist-plan-time's input)."""
    out = []
    for line in lines:
        m = CASE.match(line)
        if m:
            perm = ",".join(m.group(2))
            out.append((m.group(1), f"{ranks} {m.group(5)} {perm} {m.group(3)} {m.group(4)}"))
    return out


def choices(priced_csv):
    """{case index: (transport, 'vV', 'kK')} of the lowest price over the slowest rank."""
    worst = {}
    for r in csv.DictReader(io.StringIO(priced_csv)):
        if not r["model_us"]:  # a bound output's direct stores: not a candidate of the plan
            continue
        key = (int(r["case"]), r["transport"], "v" + r["variant"], "k" + r["stages"])
        worst[key] = max(worst.get(key, 0.0), float(r["model_us"]))
    best = {}
    for key, t in worst.items():
        if key[0] not in best or t < best[key[0]][0]:
            best[key[0]] = (t, key[1:])
    return {c: v[1] for c, v in best.items()}


def gaps(cases, names, chosen):
    """Chosen candidate's time over the fastest forced one, per case with a complete sweep."""
    out = []
    for i, name in enumerate(names):
        rows = cases.get(name, {})
        forced = {tuple(k.split()[1:]): v[3] for k, v in rows.items() if k.startswith("sweep ") and v[2]}
        if i in chosen and chosen[i] in forced:
            out.append(forced[chosen[i]] / min(forced.values()))
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tool", required=True, help="cuperm-dist-plan-time")
    ap.add_argument("--dram", default="4.8e12", help="the stand-in device's DRAM bytes a second (H200: 4.8e12)")
    ap.add_argument("--overlaps", default="0,0.25,0.5,0.75,1", help="dist_unpack_overlap's values")
    ap.add_argument("--scan", action="append", default=[], metavar="NAME=V,V",
                    help="another option of the tool and its values (every combination is priced)")
    ap.add_argument("logs", nargs="+")
    a = ap.parse_args(argv)
    grid = [("unpack-overlap", a.overlaps.split(","))]
    for item in a.scan:
        name, _, values = item.partition("=")
        grid = [g for g in grid if g[0] != name] + [(name, values.split(","))]
    for path in a.logs:
        with open(path) as f:
            lines = f.readlines()
        named = case_lines(lines)
        cases = dist_heldout.parse(lines)
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as tf:
            tf.write("".join(line + "\n" for _, line in named))
        try:
            print(f"== {path} ({len(named)} cases)")
            for combo in itertools.product(*(values for _, values in grid)):
                flags = [x for (name, _), v in zip(grid, combo) for x in (f"--{name}", v)]
                label = " ".join(f"{name} {v}" for (name, _), v in zip(grid, combo))
                priced = subprocess.run([a.tool, tf.name, "--dram", a.dram] + flags, check=True,
                                        capture_output=True, text=True).stdout
                g = gaps(cases, [n for n, _ in named], choices(priced))
                if g:
                    geo = math.exp(sum(math.log(x) for x in g) / len(g))
                    print(f"  {label}: the model's choice over the fastest forced candidate: "
                          f"geomean {geo:.3f}, worst {max(g):.3f} ({len(g)} cases)")
                else:
                    print(f"  {label}: no case with forced candidates")
        finally:
            os.unlink(tf.name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
