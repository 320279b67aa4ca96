import csv, math, collections, sys, statistics as st
cols="case,candidate,class,bytes,in_run_bytes,out_run_bytes,tile_bytes,fill,tiles,tile_a_log2,tile_b_log2,vec_log2,band_tiles,in_sector_eff,out_sector_eff,sector_cost,kind".split(",")
def rd(f):
    return {(int(r["case"]),int(r["candidate"])):(float(r["seconds"]),float(r["copy_seconds"])) for r in csv.DictReader(open(f))}
g=lambda v: math.exp(sum(map(math.log,v))/len(v))
for s in sys.argv[1:]:
    feats={}
    for l in open(f"feat-{s}.csv"):
        d=dict(zip(cols,l.strip().split(","))); feats[(int(d["case"]),int(d["candidate"]))]=d
    b1,b2,v1,v2=rd(f"base1-{s}.csv"),rd(f"base2-{s}.csv"),rd(f"variant1-{s}.csv"),rd(f"variant2-{s}.csv")
    grp=collections.defaultdict(list); noise=[]; heur=[]; hpct=[[],[]]
    for k in b1:
        d=feats[k]
        tb=min(b1[k][0],b2[k][0]); tv=min(v1[k][0],v2[k][0])
        key=f"k{d['kind']} v{d['vec_log2']}"
        grp[key].append(tb/tv); noise.append(b1[k][0]/b2[k][0])
        if k[1]==0:
            heur.append(tb/tv); hpct[0].append(100*b1[k][1]/tb); hpct[1].append(100*v1[k][1]/tv)
    print(f"== {s}: noise base1/base2 geo {g(noise):.3f} p5 {sorted(noise)[len(noise)//20]:.3f} p95 {sorted(noise)[-len(noise)//20]:.3f}; heuristic plans base/variant {g(heur):.3f}, % copy median {st.median(hpct[0]):.1f} -> {st.median(hpct[1]):.1f}, worst {min(hpct[0]):.1f} -> {min(hpct[1]):.1f}")
    for key,v in sorted(grp.items()): print(f"   {key}: n={len(v)} base/variant geo {g(v):.3f} min {min(v):.2f} max {max(v):.2f}")
