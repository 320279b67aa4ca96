"""Per suite: the planner's launch, the same without free sides, the fastest candidate, and the
free-sided twin's speed against the power-of-two launch. Needs e6ae68c's cuperm-plan-features
(free_sides, tile_a, tile_b after the other --candidates columns).
    python3 analyse.py CANDIDATES_DIR (candidates.tgz unpacked) PLAN_FEATURES_TOOL"""
import csv, subprocess, statistics, sys, glob, os
d, tool = sys.argv[1], sys.argv[2]
for tp in sorted(glob.glob(d+'/times-*.csv')):
    tag=os.path.basename(tp)[6:-4]
    feats=subprocess.run([tool,'--candidates'],stdin=open(f'{d}/cases-{tag}.txt'),capture_output=True,text=True).stdout.split()
    F={}
    for l in feats:
        v=l.split(','); F[(int(v[0]),int(v[1]))]=dict(cost=float(v[15]),kind=int(v[16]),free=int(v[17]),ta=int(v[18]),tb=int(v[19]),vec=int(v[11]),band=int(v[12]))
    cases={}
    for r in csv.DictReader(open(tp)):
        k=(int(r['case']),int(r['candidate']))
        if k not in F: print("missing",tag,k); continue
        c=dict(F[k],t=float(r['seconds']),copy=float(r['copy_seconds']),cand=k[1])
        cases.setdefault(k[0],[]).append(c)
    heur=[];best=[];nofree=[];within=0;within_nf=0;freechosen=0;freebest=0;gains=[]
    for i,cs in cases.items():
        h=cs[0]; b=min(cs,key=lambda c:c['t'])
        nf=[c for c in cs if not c['free']]
        bnf=min(nf,key=lambda c:c['t'])
        # heuristic without free rule: if h is free, the pow2 rules' launch is the first non-free TILED candidate with same band? approximate: first non-free candidate
        h_old = h if not h['free'] else nf[0]
        pct=lambda c:100*c['copy']/c['t']
        heur.append(pct(h)); best.append(pct(b)); nofree.append(pct(h_old))
        within += h['t'] <= 1.05*b['t']; within_nf += h_old['t'] <= 1.05*bnf['t']
        freechosen += h['free']; freebest += b['free']
        fr=[c for c in cs if c['free']]
        if fr and not h['free']:
            gains.append(h['t']/fr[0]['t'])
        if h['free']:
            gains.append(h_old['t']/h['t'])
    n=len(cases)
    print(f"{tag:10} n={n:3} heur med/worst {statistics.median(heur):5.1f}/{min(heur):5.1f}  old-heur {statistics.median(nofree):5.1f}/{min(nofree):5.1f}  best {statistics.median(best):5.1f}/{min(best):5.1f}  within5% {100*within/n:4.0f}% (old {100*within_nf/n:4.0f}%)  free chosen {freechosen} best {freebest}  free/pow2 speedup med {statistics.median(gains) if gains else 0:.3f} max {max(gains) if gains else 0:.2f} min {min(gains) if gains else 0:.2f}")
