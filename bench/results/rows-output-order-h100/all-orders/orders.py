# Every rows case of these two case files with all three row orders timed (same tile), on the tree before the
# output-order rule: the heuristic (then: input order unless the sector cost chose output) against each
# order. Beside the unpacked candidate-times.tgz and features.tgz: python3 orders.py
import csv,math,collections
g=lambda v: math.exp(sum(map(math.log,v))/len(v)) if v else float('nan')
R=[]
for name in ['rows-dram','rows-wf']:
    t={}
    for r in csv.DictReader(open(f'times-{name}-base.csv')):
        t[(int(r['case']),int(r['candidate']))]=(float(r['seconds']),float(r['copy_seconds'])); assert r['same']=='1'
    f={}
    for l in open(f'feat-{name}.csv'):
        v=l.strip().split(',');f[(int(v[0]),int(v[1]))]=v
    desc=[l for l in open(f'desc-{name}.txt')]
    cases=[l.strip() for l in open(f'{name}.txt')]
    for c in range(len(cases)):
        if (c,0) not in f or f[(c,0)][16]!='2' or (c,0) not in t: continue
        la,lb=f[(c,0)][9],f[(c,0)][10]
        by={}
        for k in t:
            if k[0]==c and f[k][16]=='2' and f[k][9]==la and f[k][10]==lb:
                o=f[k][19]; by[o]=min(by.get(o,9),t[k][0])
        if len(by)<3: continue
        parts=desc[c].split('|')
        elem=int(cases[c].split()[0])
        B=[tuple(int(x) for x in d.split(':')) for d in parts[3].split()]
        A=[tuple(int(x) for x in d.split(':')) for d in parts[2].split()]
        rowb=A[0][0]*elem
        outnext=min(B,key=lambda d:d[2]); innext=min(B,key=lambda d:d[1])
        vol=1
        for d in A+B: vol*=d[0]
        for d in parts[4].split() if len(parts)>5 else []: pass
        R.append(dict(name=name,case=cases[c],heur=f[(c,0)][19],t0=t[(c,0)][0],inp=by['0'],out=by['1'],pair=by['2'],copy=t[(c,0)][1],rowb=rowb,elem=elem,
          read_jump=outnext[1]*elem, write_jump=innext[2]*elem, on_ext=outnext[0], in_ext=innext[0], bytes=2*vol*elem, rows_tile=2**int(lb)))

print(len(R), collections.Counter(r['heur'] for r in R))
for r in R:
    r['best'] = min(r['inp'], r['out'], r['pair'])
rules = {'heuristic': 'heur_t', 'input order': 'inp', 'output order': 'out', 'paired order': 'pair'}
for grp in ['rows-dram', 'rows-wf', None]:
    S = [r for r in R if grp is None or r['name'] == grp]
    print('==', grp or 'all', len(S), 'cases')
    for label, key in rules.items():
        t = lambda r: r['t0'] if key == 'heur_t' else r[key]
        v = [t(r) / r['t0'] for r in S]
        w = [t(r) / r['best'] for r in S]
        pc = sorted(100 * r['copy'] / t(r) for r in S)
        print(f"  {label:14s} / heuristic: geomean {g(v):.3f}, slower by >5% {sum(x > 1.05 for x in v):3d}, faster {sum(x < 0.95 for x in v):3d}"
              f" | within 5% of the best order {sum(x <= 1.05 for x in w):3d} | % of copy median {pc[len(pc) // 2]:.1f} worst {pc[0]:.1f}")
