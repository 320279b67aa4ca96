import csv,collections,subprocess,math,sys,os
PF='build-prof/tools/model/cuperm-plan-features'
def gm(v): return math.exp(sum(math.log(x) for x in v)/len(v))
allr=[]
for s in sys.argv[1:]:
    cf=f'build-ab/cases/{s}.txt'
    out=subprocess.run([PF,'--candidates'],stdin=open(cf),capture_output=True,text=True).stdout
    F=collections.defaultdict(dict)
    for line in out.split('\n'):
        if line: f=line.split(','); F[int(f[0])][int(f[1])]=f
    T=collections.defaultdict(dict)
    for r in csv.DictReader(open(f'/tmp/ab5/times-{s}-base.csv')):
        T[int(r['case'])][int(r['candidate'])]=(float(r['seconds']),float(r['copy_seconds']))
    rat=[]; newp=[]; oldp=[]; best=[]
    for c in T:
        d=T[c]; f=F[c]
        key=(f[0][9],f[0][10],f[0][11])
        b8=[k for k in d if f[k][16]=='1' and (f[k][9],f[k][10],f[k][11])==key and f[k][12]=='8' and f[k][20]=='0']
        if f[0][12]!='0' or not b8: print('skip',s,c,f[0][12],b8); continue
        t0=d[0][0]; t8=d[b8[0]][0]; cp=d[0][1]
        rat.append(t8/t0); newp.append(100*cp/t0); oldp.append(100*cp/t8); best.append(100*cp/min(v[0] for v in d.values()))
    allr+=rat
    med=lambda v: sorted(v)[len(v)//2]
    print('%-24s n=%2d  A-fastest (new) speed over band 8 (old): geomean %.3f, min %.3f, max %.3f | %% of copy old median %.1f worst %.1f -> new median %.1f worst %.1f (best candidate median %.1f)'%(s,len(rat),gm(rat),min(rat),max(rat),med(oldp),min(oldp),med(newp),min(newp),med(best)))
print('all: n=%d geomean %.3f, %d of %d faster'%(len(allr),gm(allr),sum(1 for x in allr if x>1),len(allr)))
