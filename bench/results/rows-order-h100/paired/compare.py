import csv,glob,math
g=lambda v: math.exp(sum(map(math.log,v))/len(v)) if v else float('nan')
med=lambda v: sorted(v)[len(v)//2] if v else float('nan')
tot=[]
for p in sorted(glob.glob('times-*-base.csv')):
    name=p[6:-9]
    t={}
    for r in csv.DictReader(open(p)): t[(int(r['case']),int(r['candidate']))]=(float(r['seconds']),float(r['copy_seconds']))
    f={}
    for l in open('feat-rows-%s.csv'%name):
        v=l.strip().split(',')
        if v[0].isdigit(): f[(int(v[0]),int(v[1]))]=v
    r_paired=[];r_other=[];wins=0;n=0;best_paired=[]; pc0=[]; pbest=[]
    for c in sorted(set(k[0] for k in t)):
        cands=[k for k in t if k[0]==c]
        t0,cp=t[(c,0)]
        pk=[k for k in cands if f[k][19]=='2']
        ok=[k for k in cands if f[k][19] in ('0','1') and k[1]!=0]
        if not pk: continue
        n+=1
        tp=min(t[k][0] for k in pk)
        r_paired.append(tp/t0)
        best_other=min([t[k][0] for k in cands if k not in pk])
        best_paired.append(tp/best_other)
        pc0.append(100*cp/t0); pbest.append(100*cp/min(tp,best_other))
        tot.append(tp/t0)
    print('%-24s cases %3d  paired/heuristic geo %.3f (min %.2f max %.2f, <0.95: %d, >1.05: %d) | paired/best-other geo %.3f (<0.95: %d) | %%copy heur med %.1f worst %.1f -> best med %.1f worst %.1f'%(
        name,n,g(r_paired),min(r_paired) if r_paired else 0,max(r_paired) if r_paired else 0,sum(x<0.95 for x in r_paired),sum(x>1.05 for x in r_paired),g(best_paired),sum(x<0.95 for x in best_paired),med(pc0),min(pc0) if pc0 else 0,med(pbest),min(pbest) if pbest else 0))
