import csv,math,collections
def load(p):
    t={}
    for r in csv.DictReader(open(p)):
        t[(int(r['case']),int(r['candidate']))]=(float(r['seconds']),float(r['copy_seconds']))
    return t
def feats(p):
    f={}
    for l in open(p):
        v=l.strip().split(',')
        if v[0].isdigit(): f[(int(v[0]),int(v[1]))]=v
    return f
def nstd(p):
    c=collections.Counter()
    for l in open(p):
        v=l.split(',')
        if v[0].isdigit(): c[int(v[0])]+=1
    return c
med=lambda v: sorted(v)[len(v)//2]
g=lambda v: math.exp(sum(map(math.log,v))/len(v))
for slots in (660,):
  for name in ['l2-f32','l2-heldout-f32','l2-heldout-f16','l2-heldout-i8','small-f32']:
    n=load('times-%s-base.csv'%name); f=feats('feat-%s.csv'%name); ns=nstd('std-%s.csv'%name)
    before=[];after=[];changed=[];near=[]
    for c in sorted(set(k[0] for k in n)):
        t0,cp=n[(c,0)]; f0=f[(c,0)]
        vec=int(f0[11]); kind=f0[16]
        le=int(f0[6])>>(int(f0[9])+int(f0[10])) if kind!='3' else 99
        before.append(t0/cp); t=t0
        sm=[i for i in range(ns[c], 99) if (c,i) in n and int(f[(c,i)][9])+int(f[(c,i)][10])==10]
        if kind in ('1','2') and vec==0 and le<=4 and sm and int(f0[9])+int(f0[10])>=12:
            T=int(f[(c,sm[0])][8])
            if T<=slots: t=n[(c,sm[0])][0]; changed.append(t/t0)
            elif T<=2*slots: near.append(n[(c,sm[0])][0]/t0)
        after.append(t/cp)
    print('  %-15s median %.2f -> %.2f worst %.2f -> %.2f  changed %d geo %.3f max %.2f | in (1,2] waves: %d geo %.3f'%(name,med(before),med(after),max(before),max(after),len(changed),g(changed) if changed else 1,max(changed) if changed else 0, len(near), g(near) if near else 1))
