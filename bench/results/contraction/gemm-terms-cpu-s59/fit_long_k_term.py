import sys, math, numpy as np
sys.path.insert(0,'tools/model')
import ctr_candidates as cc
D='bench/results/gett-h100/skinny-h200/session52/candidates/'
orig=cc.features
mode=sys.argv[1] if len(sys.argv) > 1 else 'ramp'
def lk(r):
    m,n,k=(int(r[c]) for c in ('m','n','k'))
    L=math.log2(k/max(m,n))
    if mode=='step': return 1.0 if L>=4 else 0.0
    if mode=='ramp': return min(1.0,max(0.0,(L-2)/6))
    if mode=='lin': return max(0.0,L-3)/8
def feat(r):
    x=orig(r)
    mn=float(r['op_first']=='N')+float(r['op_second']!='N')
    return np.append(x, mn*lk(r)*(1-float(cc.misaligned(r))))
cc.features=feat
cw=cc.current_weights
def cw2():
    w=cw(); return {k:np.append(v,0.0) for k,v in w.items()}
cc.current_weights=cw2
cc.data_weights.w = None
del cc.data_weights.w
train=[D+'tccg48-f16.csv.gz',D+'random-contractions-f16-s1.csv.gz']
held=[D+'random-contractions-f16-s2.csv.gz',D+'short-k-f16-s1.csv.gz']
cc.fit(train,held,None,1e-3,[19])
