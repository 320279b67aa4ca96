// cuperm-skinny-probe --direct: the skinny contraction with no bulk copy, no shared-memory ring and no
// barrier in the main loop (issue 15, TCCG 1-8). Included by skinny_tma.cu (its Case).
//
// Calls 3-6 of the TMA form found A's loads alone limited near 1.2-1.7 TB/s, rising with the TMA box's
// row width (16-128 bytes) and not with the bytes in flight. Here each thread reads A itself, 16 bytes
// (8 indices of muA, A's unit-stride M mode) a load, and builds its mma.sync fragments from its own
// registers: the M and K indices of an m16n8k16 product are labels, so thread (g, q) of a warp takes
// the rows muD = g and k = 4q .. 4q + 3 of every product and reads them as whole vectors, pairing
// the k halves with a byte permute. B (K x N, at most 32 x 2048) stays in shared memory, k-major, its
// pitch chosen so that the 8-byte fragment reads meet no bank conflicts. Loads run NBUF - 1 k16 steps
// ahead of the products across item boundaries (a persistent block walks items with a grid stride).
//
// Block tile: BA = WA x warpsA indices of muA by BD = 8 x warpsD of muD (D's unit-stride M mode), with
// A's other M modes one index an item. Warp (wa, wd) multiplies WA x 8 rows by all N (WA / 2 m16 tiles,
// fp32 accumulators in registers) over all of K, then the block stages alpha x its tile in shared
// memory as [n][muA][muD] and writes D in 16-byte runs along muD (two barriers an item).
//
// Limits (not for this kernel otherwise): A's unit-stride mode is an M mode (muA), D's is another
// (muD); both extents, A's and D's other strides and K's offsets multiples of 8 elements; N at most 32;
// K at most 2048; no batch modes; beta = 0.
#pragma once

namespace direct {

constexpr int kThreads = 256, kWarps = 8, kMaxK = 2048, kNP = 32;

struct Params {
    int extMuA, extMuD;               // extents of muA and muD
    long long aStrideMuD, dStrideMuA; // elements
    int tilesA, tilesD;               // block tiles along muA and muD
    int nOther;                       // A's other M modes: extent and strides in A and D
    long long otherCnt[4], otherA[4], otherD[4];
    long long items;
    int k, kp, steps; // K, padded to a multiple of 16, k16 steps
    int n;
    int warpsA;    // warps along muA; 8 / warpsA along muD
    int bPitch;    // bytes per row (an N index) of the resident B
    float alpha;
    int skip; // 2: no stores of D (diagnostic)
};

// A 16-byte read-only load.
__device__ __forceinline__ uint4 ldg16(const void* p)
{
    uint4 v;
    asm volatile("ld.global.nc.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

__device__ __forceinline__ unsigned word(const uint4& v, int w) { return w == 0 ? v.x : w == 1 ? v.y : w == 2 ? v.z : v.w; }

// The load side's place in the block's stream of (item, k16 step): this thread's A pointer at the
// item's origin and which of its vectors exist.
template <typename T, int WA> struct Cursor {
    long long it;
    int s;
    const T* base;
    bool rowOk;
    unsigned vecOk; // bit v: vector v (muA + 8 v) lies inside muA
    __device__ void at_item(const Params& p, const T* A, int wa, int muDLocal)
    {
        if (it >= p.items) return;
        long long r = it;
        const int tA = (int)(r % p.tilesA);
        r /= p.tilesA;
        const int tD = (int)(r % p.tilesD);
        r /= p.tilesD;
        long long off = 0;
#pragma unroll
        for (int i = 0; i < 4; ++i)
            if (i < p.nOther) {
                const long long q = r / p.otherCnt[i];
                off += (r - q * p.otherCnt[i]) * p.otherA[i];
                r = q;
            }
        const int BA = WA * p.warpsA, BD = 8 * (kWarps / p.warpsA);
        const int muA = tA * BA + wa * WA, muD = tD * BD + muDLocal;
        rowOk = muD < p.extMuD;
        vecOk = 0;
#pragma unroll
        for (int v = 0; v < WA / 8; ++v)
            if (muA + 8 * v < p.extMuA) vecOk |= 1u << v;
        base = A + off + muA + (long long)(rowOk ? muD : 0) * p.aStrideMuD;
    }
};

// MINB: blocks an SM the registers are limited for (2: 128 a thread, some spilled).
template <typename T, int WA, int NT, int NBUF, int MINB>
__global__ void __launch_bounds__(kThreads, MINB)
    kernel(const Params p, const T* A, const T* B, T* D, const int* aK, const long long* bK, const long long* bN,
           const long long* dN)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    constexpr int MT = WA / 2, NV = WA / 8; // m16 tiles and 16-byte vectors of a warp's rows
    extern __shared__ __align__(16) unsigned char smem[];
    const int BA = WA * p.warpsA, BD = 8 * (kWarps / p.warpsA);
    unsigned char* sB = smem;                                                       // NT*8 rows of kp
    long long* sDN = reinterpret_cast<long long*>(sB + NT * 8 * p.bPitch);          // D offsets of N
    int* sAK = reinterpret_cast<int*>(sDN + kNP);                                   // kp A offsets (-1 past K)
    T* stage = reinterpret_cast<T*>(sAK + p.kp);                                    // [n][BA][BD]
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, q = lane % 4;
    const int wa = warp % p.warpsA, wd = warp / p.warpsA;

    // B(k, n) into rows (n, k), zeros past K and N; its tables first pass through the staging area
    long long* sbK = reinterpret_cast<long long*>(stage);
    long long* sbN = sbK + p.kp;
    for (int i = tid; i < p.kp; i += kThreads) sbK[i] = bK[i], sAK[i] = aK[i];
    if (tid < kNP) sbN[tid] = bN[tid], sDN[tid] = dN[tid];
    __syncthreads();
    for (int i = tid; i < NT * 8 * p.kp; i += kThreads) {
        const int n = i / p.kp, k = i - n * p.kp;
        const long long o = n < p.n ? sbK[k] : -1;
        reinterpret_cast<T*>(sB + n * p.bPitch)[k] = o >= 0 ? B[o + sbN[n]] : T(0.0f);
    }
    __syncthreads();

    uint4 buf[NBUF][4][NV]; // a k16 step's A: k = 4q + j, muA + 8v .. + 7
    float acc[MT][NT][4];
#pragma unroll
    for (int t = 0; t < MT; ++t)
#pragma unroll
        for (int nt = 0; nt < NT; ++nt)
#pragma unroll
            for (int v = 0; v < 4; ++v) acc[t][nt][v] = 0.0f;

    Cursor<T, WA> ld;
    ld.it = blockIdx.x, ld.s = 0;
    ld.at_item(p, A, wa, wd * 8 + g);
    auto load = [&](uint4 (&b)[4][NV]) {
        const bool live = ld.it < p.items;
        const int4 kq = *reinterpret_cast<const int4*>(sAK + (live ? ld.s * 16 + 4 * q : 0));
        const int ko[4] = {kq.x, kq.y, kq.z, kq.w};
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int v = 0; v < NV; ++v) {
                b[j][v] = make_uint4(0, 0, 0, 0);
                if (live && ld.rowOk && ((ld.vecOk >> v) & 1) && ko[j] >= 0) b[j][v] = ldg16(ld.base + ko[j] + 8 * v);
            }
        if (live && ++ld.s == p.steps) {
            ld.s = 0, ld.it += gridDim.x;
            ld.at_item(p, A, wa, wd * 8 + g);
        }
    };
    auto multiply = [&](const uint4 (&b)[4][NV], int s) {
        unsigned bf[NT][2];
#pragma unroll
        for (int nt = 0; nt < NT; ++nt) {
            const uint2 x = *reinterpret_cast<const uint2*>(sB + (nt * 8 + g) * p.bPitch + 2 * (s * 16 + 4 * q));
            bf[nt][0] = x.x, bf[nt][1] = x.y;
        }
#pragma unroll
        for (int t = 0; t < MT; ++t) {
            const int v = t / 4, w = t % 4; // rows muA 2t (g) and 2t + 1 (g + 8)
            const unsigned x0 = word(b[0][v], w), x1 = word(b[1][v], w), x2 = word(b[2][v], w), x3 = word(b[3][v], w);
            const unsigned a[4] = {__byte_perm(x0, x1, 0x5410), __byte_perm(x0, x1, 0x7632), __byte_perm(x2, x3, 0x5410),
                                   __byte_perm(x2, x3, 0x7632)};
#pragma unroll
            for (int nt = 0; nt < NT; ++nt) mma<T>(acc[t][nt], a, bf[nt][0], bf[nt][1]);
        }
    };
    auto epilogue = [&](long long it) {
#pragma unroll
        for (int t = 0; t < MT; ++t)
#pragma unroll
            for (int nt = 0; nt < NT; ++nt)
#pragma unroll
                for (int v = 0; v < 4; ++v) {
                    const int col = nt * 8 + 2 * q + (v & 1), ra = wa * WA + 2 * t + (v >> 1);
                    if (col < p.n) stage[((long long)col * BA + ra) * BD + wd * 8 + g] = T(p.alpha * acc[t][nt][v]);
                    acc[t][nt][v] = 0.0f;
                }
        __syncthreads();
        long long r = it;
        const int tA = (int)(r % p.tilesA);
        r /= p.tilesA;
        const int tD = (int)(r % p.tilesD);
        r /= p.tilesD;
        long long off = (long long)tA * BA * p.dStrideMuA + (long long)tD * BD;
        for (int i = 0; i < p.nOther; ++i) {
            const long long qq = r / p.otherCnt[i];
            off += (r - qq * p.otherCnt[i]) * p.otherD[i];
            r = qq;
        }
        const int runs = BD / 8, chunks = p.n * BA * runs;
        if (!(p.skip & 2))
            for (int c = tid; c < chunks; c += kThreads) {
                const int rd = c % runs, ra = c / runs % BA, col = c / (runs * BA);
                if (tA * BA + ra < p.extMuA && tD * BD + rd * 8 < p.extMuD)
                    *reinterpret_cast<uint4*>(D + off + ra * p.dStrideMuA + sDN[col] + rd * 8) =
                        *reinterpret_cast<const uint4*>(stage + ((long long)col * BA + ra) * BD + rd * 8);
            }
        __syncthreads();
    };

#pragma unroll
    for (int u = 0; u < NBUF - 1; ++u) load(buf[u]);
    long long it = blockIdx.x;
    int s = 0;
    while (it < p.items) {
#pragma unroll
        for (int u = 0; u < NBUF; ++u) {
            if (it >= p.items) break;
            load(buf[(u + NBUF - 1) % NBUF]);
            multiply(buf[u], s);
            if (++s == p.steps) {
                epilogue(it);
                s = 0, it += gridDim.x;
            }
        }
    }
#else
    __trap(); // mma.sync needs sm_80
#endif
}

// Host side: the kernel's parameters from a case, or why it does not apply.
struct Plan {
    Params p;
    std::vector<int> aK;                 // A offset of K index k (-1 past K)
    std::vector<long long> bK, bN, dN; // dN: D offset of N index c
    long long m, n, k;
    int smem;
    std::string why;
};

inline bool plan(const Case& c, int wa, int warpsA, Plan* pl)
{
    Params& p = pl->p;
    memset(&p, 0, sizeof p);
    std::string M, N, K;
    for (char x : c.a) (c.b.find(x) != std::string::npos ? K : M) += x;
    for (char x : c.b)
        if (c.a.find(x) == std::string::npos) N += x;
    for (char x : c.d)
        if (M.find(x) == std::string::npos && N.find(x) == std::string::npos) return pl->why = "batch modes", false;
    pl->m = c.volume(M), pl->n = c.volume(N), pl->k = c.volume(K);
    const char muA = c.a[0], muD = c.d[0];
    if (M.find(muA) == std::string::npos) return pl->why = "A's unit-stride mode is not an M mode", false;
    if (M.find(muD) == std::string::npos || muD == muA) return pl->why = "D's unit-stride mode is not another M mode", false;
    if (pl->n > kNP) return pl->why = "N above 32", false;
    if (pl->k > kMaxK) return pl->why = "K above 2048", false;
    p.extMuA = (int)c.ext[muA - 'a'], p.extMuD = (int)c.ext[muD - 'a'];
    p.aStrideMuD = c.stride(c.a, muD), p.dStrideMuA = c.stride(c.d, muA);
    bool eights = p.extMuA % 8 == 0 && p.extMuD % 8 == 0 && p.aStrideMuD % 8 == 0 && p.dStrideMuA % 8 == 0;
    p.warpsA = warpsA;
    const int BA = wa * warpsA, BD = 8 * (kWarps / warpsA);
    p.tilesA = (p.extMuA + BA - 1) / BA, p.tilesD = (p.extMuD + BD - 1) / BD;
    p.items = (long long)p.tilesA * p.tilesD;
    for (char x : c.a)
        if (M.find(x) != std::string::npos && x != muA && x != muD) {
            if (p.nOther == 4) return pl->why = "more than 4 other M modes", false;
            const int i = p.nOther++;
            p.otherCnt[i] = c.ext[x - 'a'], p.otherA[i] = c.stride(c.a, x), p.otherD[i] = c.stride(c.d, x);
            eights = eights && p.otherA[i] % 8 == 0 && p.otherD[i] % 8 == 0;
            p.items *= p.otherCnt[i];
        }
    p.n = (int)pl->n, p.k = (int)pl->k, p.kp = (p.k + 15) / 16 * 16, p.steps = p.kp / 16;
    // K's flat index (A's order of its K modes) -> offsets in A and B
    pl->aK.assign(p.kp, -1), pl->bK.assign(p.kp, -1);
    for (int kk = 0; kk < p.k; ++kk) {
        long long rest = kk, oa = 0, ob = 0;
        for (char x : c.a)
            if (K.find(x) != std::string::npos) {
                const long long v = rest % c.ext[x - 'a'];
                rest /= c.ext[x - 'a'];
                oa += v * c.stride(c.a, x), ob += v * c.stride(c.b, x);
            }
        if (oa > INT32_MAX) return pl->why = "A's K offsets above 32 bits", false;
        pl->aK[kk] = (int)oa, pl->bK[kk] = ob;
        eights = eights && oa % 8 == 0;
    }
    pl->bN.assign(kNP, 0), pl->dN.assign(kNP, 0);
    for (int col = 0; col < p.n; ++col) {
        long long rest = col, od = 0, ob = 0;
        for (char x : c.d)
            if (N.find(x) != std::string::npos) {
                const long long v = rest % c.ext[x - 'a'];
                rest /= c.ext[x - 'a'];
                od += v * c.stride(c.d, x), ob += v * c.stride(c.b, x);
            }
        pl->dN[col] = od, pl->bN[col] = ob;
        eights = eights && od % 8 == 0;
    }
    if (!eights) return pl->why = "an extent or stride not a multiple of 8", false;
    // B's rows: a pitch of 32 mod 128 bytes, so that the 8 rows g of a fragment read fall in distinct banks
    p.bPitch = (p.kp * 2 + 127) / 128 * 128 + 32;
    const int nt = (p.n + 7) / 8;
    pl->smem = nt * 8 * p.bPitch + kNP * 8 + p.kp * 4 + std::max(p.n * BA * BD * 2, (p.kp + kNP) * 8);
    return true;
}

template <typename T, int WA, int NT, int MINB> inline auto pick_nbuf(int nbuf)
{
    return nbuf == 4 ? kernel<T, WA, NT, 4, MINB> : nbuf == 3 ? kernel<T, WA, NT, 3, MINB> : kernel<T, WA, NT, 2, MINB>;
}

template <typename T> inline auto pick(int wa, int n, int nbuf, int minb)
{
    const int nt = (n + 7) / 8;
    if (wa == 16) return nt <= 3 ? pick_nbuf<T, 16, 3, 1>(nbuf) : pick_nbuf<T, 16, 4, 1>(nbuf);
    if (minb == 2) return nt <= 3 ? pick_nbuf<T, 8, 3, 2>(nbuf) : pick_nbuf<T, 8, 4, 2>(nbuf);
    return nt <= 3 ? pick_nbuf<T, 8, 3, 1>(nbuf) : pick_nbuf<T, 8, 4, 1>(nbuf);
}

} // namespace direct
