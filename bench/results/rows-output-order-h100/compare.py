# The new plan (candidate 0: rows in output order) against the same rows tile in input order (the old
# plan, among the candidates), per case file and element size. Beside the unpacked candidate-times.tgz
# and features.tgz (cuperm-plan-features --candidates of this tree): python3 compare.py
import csv,math,collections,glob
g=lambda v: math.exp(sum(map(math.log,v))/len(v)) if v else float('nan')
allr=[]
for p in sorted(glob.glob('times-*-base.csv')):
    name=p[6:-9]
    t={}
    for r in csv.DictReader(open(p)):
        t[(int(r['case']),int(r['candidate']))]=(float(r['seconds']),float(r['copy_seconds'])); assert r['same']=='1'
    f={}
    for l in open(f'feat-{name}.csv'):
        v=l.strip().split(',');f[(int(v[0]),int(v[1]))]=v
    cases=[l.strip() for l in open(f'{name}.txt')]
    rs=collections.defaultdict(list)
    for c in sorted(set(k[0] for k in t)):
        f0=f[(c,0)]
        if f0[16]!='2': continue
        # the old plan: the same rows tile in the other order (input order) - first candidate of kind rows with row_order 0 and same la/lb/vec
        old=[k for k in sorted(t) if k[0]==c and k[1]>0 and f[k][16]=='2' and f[k][19]=='0' and f[k][9]==f0[9] and f[k][10]==f0[10] and f[k][11]==f0[11]]
        if not old: 
            continue
        r=t[(c,0)][0]/t[old[0]][0]
        e=cases[c].split()[0]
        rs[e].append((r,cases[c],100*t[(c,0)][1]/t[old[0]][0],100*t[(c,0)][1]/t[(c,0)][0]))
        allr.append((r,name,cases[c],100*t[(c,0)][1]/t[old[0]][0],100*t[(c,0)][1]/t[(c,0)][0]))
    for e,v in sorted(rs.items()):
        x=[a[0] for a in v]; po=sorted(a[2] for a in v); pn=sorted(a[3] for a in v)
        print(f"{name:20s} {e:>2s}B {len(x):3d} new/old {g(x):.3f} faster>5% {sum(a<0.95 for a in x):3d} slower>5% {sum(a>1.05 for a in x):2d} max {max(x):.2f} | %copy old med {po[len(po)//2]:.1f} worst {po[0]:.1f} -> new med {pn[len(pn)//2]:.1f} worst {pn[0]:.1f}")
print('all', len(allr), round(g([a[0] for a in allr]),3))
for a in sorted(allr)[-12:]: print('  slowest', round(a[0],3), a[1], a[2], f"{a[3]:.1f} -> {a[4]:.1f}")
