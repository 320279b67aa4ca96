#!/usr/bin/env bash
# Rows of a shared fastest dimension packed in part (cuperm_problem_pack, session 19) against the
# plans before, on the library carried in build-carry/ built BEFORE the change: each changed case
# (DIR/orig-TYPE-as-WIDE.txt) against its packed equivalent (DIR/packed-TYPE-as-WIDE.txt: the same
# bytes as WIDE elements, dimension 0 shorter), whose plan there is the plan the change makes for
# the original (checked with cuperm-plan-features on the CPU). ROUNDS rounds, alternating;
# heuristic plans, every element checked. CSVs to $OUT/{orig,packed}-TYPE-as-WIDE-ROUND.csv.
#   run (carry build-carry): scripts/gpu-partial-pack.sh DIR [ROUNDS]
set -uo pipefail
cd "$(dirname "$0")/.."
dir=${1:?the folder of case lists}
rounds=${2:-2}
logs="${OUT:-$PWD/gpu-partial-pack-logs}"
mkdir -p "$logs"
source scripts/lib/carried.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$logs/gpu.txt"
for round in $(seq 1 "$rounds"); do
  for f in "$dir"/orig-*.txt; do
    tag=$(basename "$f" .txt); tag=${tag#orig-}
    timeout 200 "$bench" --cases "$f" --dtype "${tag%%-*}" --mode heuristic --quiet --target-ms 20 --out "$logs" \
      --tag "orig-$tag-$round" >"$logs/orig-$tag-$round.log" 2>&1 || echo "orig $tag $round rc=$?"
    timeout 200 "$bench" --cases "$dir/packed-$tag.txt" --dtype "${tag##*-}" --mode heuristic --quiet --target-ms 20 --out "$logs" \
      --tag "packed-$tag-$round" >"$logs/packed-$tag-$round.log" 2>&1 || echo "packed $tag $round rc=$?"
  done
done
python3 - "$logs" <<'PY' | tee "$logs/speedups.txt"
import csv, glob, sys, math
d = sys.argv[1]
def load(f):
    return [r for r in csv.DictReader(l for l in open(f) if not l.startswith("#"))]
allr = {}
for f in sorted(glob.glob(d + "/orig-*.csv")):
    tag = f.split("/orig-")[1][:-4]
    o, p = load(f), load(f.replace("/orig-", "/packed-"))
    for a, b in zip(o, p):
        r = float(a["exec_ms"]) / float(b["exec_ms"])
        allr.setdefault(tag.split("-")[0], []).append(r)
        print(f"{tag} {a['extents']} {a['perm']}: before {float(a['pct_copy']):.1f}% of copy, packed "
              f"{float(b['pct_copy']):.1f}%, speedup {r:.3f} (verified {a['verified']},{b['verified']})")
for t, rs in allr.items():
    g = math.exp(sum(map(math.log, rs)) / len(rs))
    print(f"{t}: {len(rs)} runs, speedup geomean {g:.3f} min {min(rs):.3f} max {max(rs):.3f}, "
          f"slower than 0.95: {sum(r < 0.95 for r in rs)}")
PY
tgz=$(mktemp) && tar czf "$tgz" -C "$logs" --exclude=all-logs.tgz . && mv "$tgz" "$logs/all-logs.tgz"
