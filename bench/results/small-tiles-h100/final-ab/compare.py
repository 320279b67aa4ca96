import csv,glob,math,os
med=lambda v: sorted(v)[len(v)//2]
g=lambda v: math.exp(sum(map(math.log,v))/len(v)) if v else float('nan')
print('%-16s %5s %7s %7s %7s %7s %7s %5s'%('suite','cases','before','after','worst0','worst1','chgeo','chmax'))
for p in sorted(glob.glob('times-*-base.csv')):
    name=p[6:-9]
    t={}
    for r in csv.DictReader(open(p)): t[(int(r['case']),int(r['candidate']))]=(float(r['seconds']),float(r['copy_seconds']))
    f={}
    for l in open('feat-%s.csv'%name):
        v=l.strip().split(',')
        if v[0].isdigit(): f[(int(v[0]),int(v[1]))]=v
    before=[];after=[];ch=[]
    for c in sorted(set(k[0] for k in t)):
        f0=f[(c,0)]; small=int(f0[9])+int(f0[10])==10 and f0[11]=='0' and f0[16] in ('1','2') and (c,1) in f and int(f[(c,1)][9])+int(f[(c,1)][10])>=12
        t0,cp=t[(c,0)]
        if small:
            t1=t[(c,1)][0]; before.append(t1/cp); after.append(t0/cp); ch.append(t0/t1)
        else:
            before.append(t0/cp); after.append(t0/cp)
    print('%-16s %5d %6.3fx %6.3fx %6.2fx %6.2fx %7.3f %5.2f  changed %d'%(name,len(before),med(before),med(after),max(before),max(after),g(ch),max(ch) if ch else 0,len(ch)))
