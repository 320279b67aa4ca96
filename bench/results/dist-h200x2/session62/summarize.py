#!/usr/bin/env python3
"""Reads cuperm-dist-anatomy logs: per case and candidate, the times over the same case's exchange
as one send a peer (the v2/k1 row's: the k-stage rows time k sends a peer, slower on NCCL), the
local transposes over a copy of the same bytes, and how much of the local piece the stores hide.
    python3 summarize.py call1/anatomy.log"""
import re
import sys

cases, cur = [], None
for line in open(sys.argv[1]):
    m = re.match(r"case (\d+): \d+ ranks, (S\d -> S\d), (\S+) perm (\S+)", line)
    if m:
        cur = {"id": int(m[1]), "dist": m[2], "ext": m[3], "perm": m[4], "rows": {}}
        cases.append(cur)
        continue
    m = re.match(r"\s+v(\d)/k(\d+)\s+sent ([\d.]+) GB\s+local ([\d.]+) GB:(.*?)\|", line)
    if m and cur:
        t = dict(zip(*[iter(m[5].split())] * 2))
        cur["rows"][f"v{m[1]}/k{m[2]}"] = {k: float(v) for k, v in t.items()}
print("| case | dist | extents | perm | exchange ms | candidate | pipeline / exch | stores / exch | local / copy"
      " | unpacks / copy | local hidden by stores |")
print("| --- | --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
for c in cases:
    x = c["rows"].get("v2/k1", next(iter(c["rows"].values())))["exchange"]
    for name, r in c["rows"].items():
        hidden = 1 - (r["stores+local"] - r["stores"]) / r["local"]
        print(f"| {c['id']} | {c['dist']} | {c['ext']} | {c['perm']} | {x:.3f} | {name} | {r['pipeline'] / x:.3f} |"
              f" {r['stores'] / x:.3f} | {r['local'] / r['copy']:.2f} | {r['unpacks'] / r['copy']:.2f} | {hidden:.2f} |")
