import random, math, sys
rng = random.Random(int(sys.argv[1]))
n = int(sys.argv[2])
for _ in range(n):
    elem = rng.choice([4, 8, 8, 16])
    rank = rng.randint(2, 6)
    target = math.exp(rng.uniform(math.log(8e6), math.log(6e8))) / elem   # elements
    # draw extents log-uniform then scale
    while True:
        w = [rng.uniform(0.3, 3) for _ in range(rank)]
        s = math.log(target) / sum(w)
        ext = [max(2, int(round(math.exp(x * s) + rng.uniform(-0.5, 0.5)))) for x in w]
        if all(e < 200000 for e in ext): break
    perm = list(range(rank))
    while perm == sorted(perm): rng.shuffle(perm)
    print(elem, ",".join(map(str, ext)), ",".join(map(str, perm)))
