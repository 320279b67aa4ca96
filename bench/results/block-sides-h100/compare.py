# Compares the heuristic before (candidate 0) and after (the candidate matching new-NAME.txt, the
# new tree's cuperm-plan-features --describe) with every timed candidate; run beside the unpacked
# candidate-times.tgz and features.tgz: python3 compare.py NAME
import csv,sys,math,collections
name=sys.argv[1]
feat=collections.defaultdict(list)
for r in csv.reader(open(f'feat-{name}.csv')): feat[int(r[0])].append(r)
times=collections.defaultdict(dict); copy={}
rows=list(csv.reader(open(f'times-{name}-base.csv')))[1:]
for r in rows:
    times[int(r[0])][int(r[1])]=float(r[2]); copy[int(r[0])]=float(r[3])
    assert r[4]=='1'
cases=[l.strip() for l in open(f'{name}.txt')]
new=[l.split('|')[1].split() for l in open(f'new-{name}.txt')]
ratios=[];out=[]
for c in sorted(times):
    f=feat[c]; t=times[c]
    # new heuristic: find candidate with matching kind/la/lb/vec/band
    nk=new[c]
    kmap={'tiled':'3','rows':'1'}
    match=[i for i,r in enumerate(f) if r[9]==nk[1] and r[10]==nk[2] and r[11]==nk[3] and r[12]==nk[4] and (nk[0]!='rows' or r[19]=='1' )]
    best=min(t,key=t.get)
    b=t[0]; n=t[match[0]] if match else float('nan')
    if match: ratios.append(n/b)
    desc=lambda i: f"{f[i][9]},{f[i][10]}{'b' if f[i][12]!='0' else ''}k{f[i][16]}"
    out.append((n/b, cases[c], f"base {desc(0)} {100*copy[c]/b:.1f}%  new {desc(match[0]) if match else '?'} {100*copy[c]/n:.1f}%  best {desc(best)} {100*copy[c]/t[best]:.1f}%"))
for r in sorted(out, key=lambda r: (math.isnan(r[0]), r[0])): print(f"{r[0]:.3f} {r[1]:45s} {r[2]}")
g=math.exp(sum(math.log(x) for x in ratios)/len(ratios)); print(f'new/base: geomean {g:.3f} over {len(ratios)} cases with the new plan among the candidates; '
      f'{sum(x < 0.95 for x in ratios)} faster by 5% or more, {sum(x > 1.05 for x in ratios)} slower')
