# One more GEMM feature (index 19) refitted alone on session 52s timed candidates and replayed
# (tools/model/ctr_candidates.py --fit, monkeypatched): run from the repository root,
#   python3 bench/results/contraction/batch-octaves-dropped/batch_fit.py none|oct1024|oct256|blocks
import sys, math, numpy as np
sys.path.insert(0, 'tools/model')
import ctr_candidates as cc
D = "bench/results/gett-h100/skinny-h200/session52/candidates/"
train = [D + 'tccg48-f16.csv.gz', D + 'random-contractions-f16-s1.csv.gz']
held = [D + 'random-contractions-f16-s2.csv.gz', D + 'short-k-f16-s1.csv.gz']
variant = sys.argv[1]
orig_features = cc.features
def extra(r):
    m, n, k, b = (int(r[c]) for c in ("m", "n", "k", "batch"))
    ptr = int(r["pointers"])
    lb = math.log2(max(b, 1))
    if variant == 'oct1024': return [0.0 if ptr else max(0.0, lb - 10)]
    if variant == 'oct256': return [0.0 if ptr else max(0.0, lb - 8)]
    if variant == 'blocks':
        t = lambda x: min(128, max(16, 1 << math.ceil(math.log2(max(x, 1)))))
        blocks = b * math.ceil(m / t(m)) * math.ceil(n / t(n))
        return [0.0 if ptr else max(0.0, math.log2(max(blocks, 1)) - 12)]
    if variant == 'none': return [0.0]
cc.features = lambda r: np.concatenate([orig_features(r), extra(r)])
ow = cc.current_weights
def cw():
    w = ow(); return {k: np.concatenate([v, [0.0]]) for k, v in w.items()}
cc.current_weights = cw
dw = cc.data_weights
def data_w():
    if not hasattr(data_w, 'w'):
        w = cw()['f16'].copy(); w[17:] = 0.0; data_w.w = w
    return data_w.w
cc.data_weights = data_w
cc.fit(train, held, None, 0.01, [19])
