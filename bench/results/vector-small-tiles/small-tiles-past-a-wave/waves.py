# Best small-tile candidate (quarter-size scalar tiles, both sides within a block) over the heuristic plan,
# binned by how many waves of the small kernels (660 blocks on an H100) its tiles make and by whether the
# heuristic already took small tiles. Beside the unpacked candidate-times.tgz and features.tgz: python3 waves.py
import csv,glob,math,collections,sys
g=lambda v: math.exp(sum(map(math.log,v))/len(v)) if v else float('nan')
def small_log2(e): return 10 if e<=4 else (8 if e==8 else 6)  # 256 * items/4: items 16 (<=4B), 8 (8B), 4 (16B)
out=[]
for p in sorted(glob.glob('times-*-base.csv')):
    name=p[6:-9]; elem=int(name.split('-')[-1])
    t={}
    for r in csv.DictReader(open(p)): t[(int(r['case']),int(r['candidate']))]=(float(r['seconds']),float(r['copy_seconds']))
    f={}
    for l in open(f'feat-{name}.csv'):
        v=l.strip().split(',');f[(int(v[0]),int(v[1]))]=v
    for c in sorted(set(k[0] for k in t)):
        f0=f[(c,0)]
        sm=[i for (cc,i) in f if cc==c and (c,i) in t and f[(c,i)][11]=='0' and f[(c,i)][16] in('1','2') and int(f[(c,i)][9])+int(f[(c,i)][10])==small_log2(elem) and int(f[(c,i)][9])<=8 and int(f[(c,i)][10])<=8]
        std=[i for (cc,i) in f if cc==c and (c,i) in t and f[(c,i)][16] in('1','2') and int(f[(c,i)][9])+int(f[(c,i)][10])>small_log2(elem)]
        if not sm: continue
        bs=min(sm,key=lambda i:t[(c,i)][0])
        cand0_small = 0 in sm
        out.append(dict(suite=name,case=c,elem=elem,heur=t[(c,0)][0],small=t[(c,bs)][0],copy=t[(c,0)][1],small_tiles=int(f[(c,bs)][8]),cand0_small=cand0_small,std_tiles=int(f[(c,std[0])][8]) if std else -1, vec=f0[11]))
bins=collections.defaultdict(list)
for r in out:
    w=r['small_tiles']/660
    b='a<1' if w<=1 else 'b1-2' if w<=2 else 'c2-4' if w<=4 else 'd4-8' if w<=8 else 'e8+'
    key=(b, 'heur-small' if r['cand0_small'] else 'heur-std')
    bins[key].append(r['small']/r['heur'])
for k, v in sorted(bins.items()):
    print(k, len(v), 'best small / heuristic: geomean', round(g(v), 3), '; faster by 5% or more', sum(x < 0.95 for x in v),
          '; slower by 5% or more', sum(x > 1.05 for x in v))
