import sys, math, numpy as np
sys.path.insert(0,'tools/model')
import ctr_candidates as cc
D='bench/results/gett-h100/skinny-h200/session52/candidates/'
orig=cc.features
def feat(r):
    x=orig(r)
    b=int(r['batch']); ptr=int(r['pointers'])
    return np.append(x, 0.0 if ptr else max(0.0, math.log2(max(b,1)) - 10))
cc.features=feat
cw=cc.current_weights
cc.current_weights=lambda: {k:np.append(v,0.0) for k,v in cw().items()}
train=[D+'tccg48-f16.csv.gz',D+'random-contractions-f16-s1.csv.gz']
held=[D+'random-contractions-f16-s2.csv.gz',D+'short-k-f16-s1.csv.gz']
cc.fit(train,held,None,1e-3,[19])
print("--- swapped: train on random s2 + short-k, held out tccg48 + s1")
cc.fit(held,train,None,1e-3,[19])
