#!/usr/bin/env python3
"""Reads cuperm-dist-test --bench --random logs (scripts/gpu-dist-heldout.sh) and prints, per random
case, the model plan's, measure mode's and the bound output's time over the same run's exchange,
the plan the model chose (transport/variant/stages) and, where the log has DT_SWEEP=1's forced
candidates (every transport, variant and stage count), the fastest of them; then how far the
model's choice is from that fastest candidate, and the model's price of each forced candidate over
its measured time, by transport (the data to refit the model with). Rows whose output check failed
are left out and counted.

    python3 tools/model/dist_heldout.py LOG [LOG ...]
"""
import math
import re
import sys

# a row: NAME TYPE EXTENTS GB SENT T/V/K DIST A2A MODEL RATIO HOST A2AHOST SIZE CHECK (NAME has spaces)
ROW = re.compile(r"^(r\d+) (.*?)\s+(f32|f64|f16|bf16|c32|c64|i8|u8)\s+(\S+)\s+\S+\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)"
                 r"\s+(\S+)\s+(\S+)\s+\S+\s+\S+\s+(large|small)\s+(\S+)\s*$")


def parse(lines):
    """{case: {label: (ratio, 't/v/k', ok, dist ms, model ms)}}: label 'model', 'measure',
    'bound output' or 'sweep T vV kK' (T: sr, ps or pk)."""
    cases = {}
    for line in lines:
        m = ROW.match(line.rstrip("\n"))
        if not m:
            continue
        case, rest, tvk, check = m.group(1), m.group(2), m.group(6), m.group(12)
        if rest.startswith("sweep "):
            label = rest
        else:
            label = rest.split(" ", 2)[2] if rest.count(" ") >= 2 else rest  # after "pPERM S->S"
        cases.setdefault(case, {})[label] = (float(m.group(10)), tvk, check == "ok", float(m.group(7)),
                                             float(m.group(9)))
    return cases


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else float("nan")


def report(cases, out=sys.stdout):
    bad = sum(1 for c in cases.values() for r in c.values() if not r[2])
    gaps, priced = [], {}
    for case in sorted(cases):
        rows = {k: v for k, v in cases[case].items() if v[2] and v[0] > 0}
        model = rows.get("model")
        sweep = {k[len("sweep "):]: v for k, v in rows.items() if k.startswith("sweep ")}
        best = min(sweep.items(), key=lambda kv: kv[1][0]) if sweep else None
        parts = [f"{case}:"]
        for label in ("model", "measure", "bound output"):
            if label in rows:
                parts.append(f"{label} {rows[label][0]:.3f} ({rows[label][1]})")
        if best:
            parts.append(f"fastest forced {best[1][0]:.3f} ({best[0]})")
            cheapest = min(sweep.items(), key=lambda kv: kv[1][4])
            parts.append(f"priced cheapest {cheapest[1][0]:.3f} ({cheapest[0]})")
            if model:
                gaps.append(model[0] / best[1][0])
        for label, v in sweep.items():
            if v[3] > 0:
                priced.setdefault(label.split(" ")[0], []).append(v[4] / v[3])
        print("  ".join(parts), file=out)
    if gaps:
        print(f"model plan over the fastest forced candidate: geomean {geomean(gaps):.3f}, "
              f"worst {max(gaps):.3f} ({len(gaps)} cases)", file=out)
    for t in sorted(priced):
        v = sorted(priced[t])
        print(f"forced {t}: the model's price over the measured time, geomean {geomean(v):.3f}, "
              f"range {v[0]:.3f}-{v[-1]:.3f} ({len(v)} rows)", file=out)
    print(f"rows with a failed output check: {bad}", file=out)
    return bad


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    bad = 0
    for path in argv:  # one report a log: every log numbers its cases from r00
        if len(argv) > 1:
            print(f"== {path}")
        with open(path) as f:
            bad |= report(parse(f.readlines()))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
