# rows-primes-random.txt by the suite each case came from (origin-primes-random.txt: "SUITE-ELEM|case",
# from cuperm-plan-features --describe before and after the change), new plan over the same rows in
# input order. Beside the unpacked candidate-times.tgz and features.tgz: python3 split.py
import collections, csv, math

g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
origin = {}
for l in open('origin-primes-random.txt'):
    o, c = l.strip().split('|')
    origin.setdefault(c, o)
name = 'rows-primes-random'
t, f = {}, {}
for r in csv.DictReader(open(f'times-{name}-base.csv')):
    t[(int(r['case']), int(r['candidate']))] = (float(r['seconds']), float(r['copy_seconds']))
for l in open(f'feat-{name}.csv'):
    v = l.strip().split(',')
    f[(int(v[0]), int(v[1]))] = v
cases = [l.strip() for l in open(f'{name}.txt')]
groups = collections.defaultdict(list)
for c in sorted(set(k[0] for k in t)):
    f0 = f[(c, 0)]
    if f0[16] != '2':
        continue
    old = [k for k in sorted(t) if k[0] == c and k[1] > 0 and f[k][16] == '2' and f[k][19] == '0' and
           f[k][9:12] == f0[9:12]]
    if not old:
        continue
    suite, elem = origin[cases[c]].rsplit('-', 1)
    groups[(suite, elem)].append((t[(c, 0)][0] / t[old[0]][0], 100 * t[(c, 0)][1] / t[old[0]][0],
                                  100 * t[(c, 0)][1] / t[(c, 0)][0]))
for (suite, elem), v in sorted(groups.items()):
    x = [a for a, _, _ in v]
    po, pn = sorted(a for _, a, _ in v), sorted(a for _, _, a in v)
    print(f"{suite:15s} {elem:>2s}B n={len(v):2d} new/old {g(x):.3f} faster {sum(a < 0.95 for a in x)} "
          f"slower {sum(a > 1.05 for a in x)} max {max(x):.2f} | % of copy old median {po[len(po) // 2]:.1f} "
          f"worst {po[0]:.1f} -> new median {pn[len(pn) // 2]:.1f} worst {pn[0]:.1f}")
