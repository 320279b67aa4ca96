"""For every tiled case whose candidates include both tile walks of the planner's launch (banded
and A-fastest, same tile), prints: suite, time(banded) / time(A-fastest), the launch's in and out
sector efficiencies, and cuperm-plan-features --describe of the planned launch.
    python3 walk_pairs.py CANDIDATES_DIR (candidates.tgz unpacked) PLAN_FEATURES_TOOL > pairs.txt"""
import csv, subprocess, statistics, sys, glob, os, collections
d, tool = sys.argv[1], sys.argv[2]
rows=[]
for tp in sorted(glob.glob(d+'/times-*.csv')):
    tag=os.path.basename(tp)[6:-4]
    cf=f'{d}/cases-{tag}.txt'
    lines=[l for l in open(cf).read().split('\n') if l.strip()]
    feats=subprocess.run([tool,'--candidates'],stdin=open(cf),capture_output=True,text=True).stdout.split()
    desc=subprocess.run([tool,'--describe'],stdin=open(cf),capture_output=True,text=True).stdout.split('\n')
    F={}
    for l in feats:
        v=l.split(','); F[(int(v[0]),int(v[1]))]=dict(la=int(v[9]),lb=int(v[10]),vec=int(v[11]),band=int(v[12]),ie=float(v[13]),oe=float(v[14]),kind=int(v[16]),free=int(v[17]) if len(v)>17 else 0,tiles=float(v[8]))
    cases={}
    for r in csv.DictReader(open(tp)):
        k=(int(r['case']),int(r['candidate']))
        cases.setdefault(k[0],[]).append(dict(F[k],t=float(r['seconds']),cand=k[1]))
    for i,cs in cases.items():
        h=cs[0]
        if h['kind']!=1 or h['free']: continue
        other=[c for c in cs if c['kind']==1 and not c['free'] and (c['la'],c['lb'],c['vec'])==(h['la'],h['lb'],h['vec']) and c['band']!=h['band']]
        if not other: continue
        o=other[0]
        b8,b0=(h,o) if h['band'] else (o,h)
        rows.append((tag,lines[i],desc[i],b8['t']/b0['t'],h['ie'],h['oe']))
for r in rows: print("%-10s %.3f ie %.3f oe %.3f | %s" % (r[0], r[3], r[4], r[5], r[2]))
