# The whole-dims candidate over the heuristic plan (candidate 0) per case. Beside the unpacked
# candidate-times.tgz: python3 compare.py wd-i8 wd-f16 wd-f32
import csv,sys,math,collections
def load(name):
    feat=collections.defaultdict(list)
    for r in csv.reader(open(f'features-{name}.csv')): feat[int(r[0])].append(r)
    times=collections.defaultdict(dict); copy={}
    for r in list(csv.reader(open(f'times-{name}-base.csv')))[1:]:
        times[int(r[0])][int(r[1])]=float(r[2]); copy[int(r[0])]=float(r[3]); assert r[4]=='1'
    cases=[l.strip() for l in open(f'{name}.txt')]
    return feat,times,copy,cases
for name in sys.argv[1:]:
    feat,times,copy,cases=load(name)
    rs=[]
    for c in sorted(times):
        f=feat[c]; t=times[c]
        wd=[i for i,r in enumerate(f) if r[16]=='3']
        if not wd or wd[0] not in t: continue
        w=wd[0]
        rs.append((t[w]/t[0], cases[c], 100*copy[c]/t[0], 100*copy[c]/t[w], float(f[0][4]), float(f[0][5]), float(f[w][4]), float(f[w][5]), f[0][16]))
    g=math.exp(sum(math.log(r[0]) for r in rs)/len(rs))
    print(name, len(rs), f"wd/heur geomean {g:.3f}; wd faster>5%: {sum(r[0]<0.95 for r in rs)}, slower>5%: {sum(r[0]>1.05 for r in rs)}; worst {max(r[0] for r in rs):.2f} best {min(r[0] for r in rs):.2f}")
    for r in sorted(rs)[:: max(1,len(rs)//12)]: print(f"  {r[0]:.3f} {r[1]:42s} heur {r[2]:.1f}% wd {r[3]:.1f}%  rules runs {r[4]:.0f}/{r[5]:.0f} wd runs {r[6]:.0f}/{r[7]:.0f} kind{r[8]}")
