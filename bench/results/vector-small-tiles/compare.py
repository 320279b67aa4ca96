# The new plan (candidate 0: scalar small tiles) against the rules' vector tile launch (candidate 1)
# per case, by where the case was drawn (origin.txt: the suite and element size whose plan changed).
# Run beside the unpacked candidate-times.tgz: python3 compare.py
import collections, csv, math

feat = collections.defaultdict(list)
for r in csv.reader(open('features.csv')):  # cuperm-plan-features --candidates of the new tree
    feat[int(r[0])].append(r)
t = collections.defaultdict(dict)
copy = {}
for r in list(csv.reader(open('times-vec-small-base.csv')))[1:]:
    t[int(r[0])][int(r[1])] = float(r[2])
    copy[int(r[0])] = float(r[3])
    assert r[4] == '1', 'a candidate wrote another output than candidate 0'
cases = [l.strip() for l in open('cases.txt')]
origin = {}
for l in open('origin.txt'):
    o, c = l.strip().split('|')
    origin.setdefault(c, o)
# the suites and sizes whose earlier timings (../small-tiles-h100/explore-graph-timing/) led to the rule
tuning = {'l2-4', 'l2-heldout-4', 'l2-heldout-2', 'small-4'}
groups = collections.defaultdict(list)
geo = lambda v: math.exp(sum(map(math.log, v)) / len(v))
for c in sorted(t):
    f = feat[c]
    assert f[0][11] == '0' and f[1][11] != '0'
    r = t[c][0] / t[c][1]
    groups['tuning' if origin[cases[c]] in tuning else 'drawn after the rule'].append(r)
    groups['all'].append(r)
    print(f"{r:.3f} {cases[c]:38s} {origin[cases[c]]:14s} vector {f[1][9]}x{f[1][10]}, {f[1][8]} tiles: "
          f"{t[c][1] / copy[c]:.2f}x copy -> small {f[0][9]}x{f[0][10]}, {f[0][8]} tiles: {t[c][0] / copy[c]:.2f}x")
for k, v in groups.items():
    print(f"{k}: {len(v)} cases, new / old time geomean {geo(v):.3f}, {sum(x < 0.95 for x in v)} faster by 5% or more, "
          f"{sum(x > 1.05 for x in v)} slower, range {min(v):.2f}-{max(v):.2f}")
