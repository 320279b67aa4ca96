#!/usr/bin/env python3
"""Would pricing the GETT table kernel beyond one wave of blocks choose better plans? (issue 15, session 52)

    python3 tools/model/gett_wave_replay.py CANDIDATES_DIR

CANDIDATES_DIR holds cuperm-ctr-candidate-times CSVs (scripts/gpu-ctr-candidates.sh):
tccg48-f16, random-contractions-f16-s1 (fitted), random-contractions-f16-s2, short-k-f16-s1 (held
out). The model prices the table kernel (not the skinny one) only on one wave
(src/plan/contraction/gett_cost.c: cuperm_ctr_gett_seconds); this extends its sm_90 f16 terms to
seconds0 + waves x steps x per-step + bytes x per-byte, scores that and a refit of the three terms
on the timed table-kernel candidates (log error), and replays model planning: a multi-wave
table-kernel candidate replaces the model's choice where its price x the GETT margin (1.25) is
below the choice's price; the geomean of the new choices' measured times over the old ones'.
"""
import csv,gzip,math,glob,collections,sys
import numpy as np
s0,stp,byt,res,margin=5.58e-6,1.71e-6,0.52e-12,2,1.25
def cdiv(a,b): return (a+b-1)//b
def feats(r):
    m,n,k,b=int(r['m']),int(r['n']),int(r['k']),int(r['batch'])
    blocks=cdiv(m,128)*cdiv(n,128)*b
    waves=math.ceil(blocks/(132*res)); steps=cdiv(k,32)
    by=2*(m*k*b+k*n*b+m*n*b)
    return waves,steps,by,blocks
def load(f):
    by=collections.defaultdict(list)
    for r in csv.DictReader(gzip.open(f,'rt')): by[r['id']].append(r)
    return by
files={f.split('/')[-1].replace('.csv.gz',''):load(f) for f in sorted(glob.glob(sys.argv[1] + '/*.csv.gz'))}
train=['tccg48-f16','random-contractions-f16-s1']; test=['random-contractions-f16-s2','short-k-f16-s1']
def table_rows(names):
    out=[]
    for nm in names:
        for i,c in files[nm].items():
            for r in c:
                if r['kind']=='gett' and not (int(r['n'])<=32 and int(r['k'])<=512):
                    w,s,b,bl=feats(r)
                    out.append((w,s,b,bl,float(r['measured_us'])*1e-6))
    return out
def pred(p,w,s,b):
    a0,a1,a2=p
    return a0+ w*s*a1 + b*a2
def fit(rows):
    # least squares on relative error: minimise sum((pred-meas)/meas)^2, linear in params
    X=np.array([[1/mt, w*s/mt, b/mt] for w,s,b,bl,mt in rows]); y=np.ones(len(rows))
    p,*_=np.linalg.lstsq(X,y,rcond=None); return p
def err(p,rows):
    e=[math.log(mt/pred(p,w,s,b)) for w,s,b,bl,mt in rows]; e=np.array(e)
    return 'n=%d median %.3f rms %.3f max %.2f min %.2f'%(len(e),np.median(e),np.sqrt((e**2).mean()),e.max(),e.min())
cur=(s0,stp,byt)
tr=table_rows(train); te=table_rows(test)
p=fit(tr)
print('fitted',p)
print('current on train',err(cur,tr)); print('current on test',err(cur,te))
print('fitted on train',err(p,tr)); print('fitted on test',err(p,te))
def replay(names,p,allow_multi=True):
    lg=0;n=0;changed=[]
    for nm in names:
        for i,c in files[nm].items():
            ch=[r for r in c if r['model_choice']=='1']
            if not ch: continue
            ch=ch[0]; t_ch=float(ch['measured_us'])
            # current choice's price (what the model had)
            best_price=float(ch['price_us']); best=ch
            for r in c:
                if r['kind']=='gett' and not (int(r['n'])<=32 and int(r['k'])<=512) and r['price_us']=='inf':
                    w,s,b,bl=feats(r)
                    if w<=1 or not allow_multi: continue
                    pr=pred(p,w,s,b)*1e6
                    if pr*margin < best_price: best_price=pr*margin; best=r
            t=float(best['measured_us']); lg+=math.log(t/t_ch); n+=1
            if best is not ch: changed.append((nm[:12],i,round(t_ch,1),round(t,1)))
    return math.exp(lg/n), changed
for nm in train+test:
    g,chg=replay([nm],p); print(nm,'new/old time geomean %.4f'%g, chg)
