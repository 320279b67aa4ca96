// cuperm-skinny-probe: can a contraction with a small N stream A at copy speed? (issue 15)
//
// TCCG 1-8 are D[m, 24] = A[m, k] B[k, 24] with m of 10^5-10^6: they move A and D and little else, and
// cuperm's skinny GETT kernel (offset tables, cp.async) runs them at 1.0-1.9 TB/s, bound by the
// instructions that address its loads and stores. This standalone kernel, not the library's, takes the
// addressing off the threads: A's tiles come in by the bulk tensor copy (TMA) through a tensor map of A's
// own modes, D's tiles go out the same way through one of D's, and B stays in shared memory.
//
// Tile: BM = 128 or 256 rows of M made of RA indices of A's fastest M mode (muA) by RD of D's fastest
// (muD), 32 or 64 deep (--bk) along A's fastest K mode (kappa; A's other K modes are walked a step at a time). One
// producer warp issues the loads into a ring of S stages (full / empty mbarriers); 8 consumer warps each
// multiply BM / 8 rows by all N (mma.sync m16n8k16, fp32 accumulators; A's fragments by ldmatrix, .trans
// when A is M-major, through the 32/64/128-byte swizzle the map was encoded with), then stage the
// BM x N outputs in D's box layout for one TMA store (two staging buffers). Boxes past an extent are
// zero-filled on loads and clipped on stores: no predication. Persistent blocks take items round-robin,
// so the tiles in flight at once are neighbours along muA and share A's lines in L2.
//
// Limits (what a library version would check and fall back from): fp16 / bf16 A, B, D; beta = 0; no
// batch modes; every operand at most 5 modes; A's and D's strides beyond the first multiples of 16
// bytes; muA != muD; N of at most 32; RA, RD at most the extents of their modes.
//
// Timed in the same process, alternating: this kernel, cuperm's default plan of the contraction (public
// API), cuperm's GETT plan (CUPERM_ALGO_GETT: the skinny kernel), a cuBLAS GEMM of the same m, n, k
// (the issue's yardstick) and a device copy. Each contender's output is checked element by element
// against a simple reference after a poisoned run.
//
//   cuperm-skinny-probe [--plan] [--reps N] [--bm 128|256] [--bk 32|64] [--ra 8|16|32|64] [--ra-k N] [--stages 3|4|6] [--bf16] [--skip 1|2] CASE ...
//   cuperm-skinny-probe --direct WA:WARPS_A:NBUF[:MINB] [--plan] [--reps N] [--bf16] [--skip 2] CASE ...   (skinny_direct.cuh)
// --reps 0 checks without timing. --skip 1|2 times the kernel without its loads or its stores
// (diagnostics: the outputs are then wrong). --bm: the tile's rows (BM = RA x RD; 256: two m16 tiles a warp).
// --ra: RA where A is M-major (default 16); --ra-k: RA where A is K-major (default 2).
// CASE: "ID" of TCCG 1-8, or "D-A-B:e1,e2,..." (extents per mode letter a, b, ...).
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <functional>
#include <string>
#include <type_traits>

#include "cuperm.h"
#include "probe/probe_common.cuh"

namespace {

using namespace probe;

constexpr int kNP = 32, kConsumers = 8, kThreads = (kConsumers + 1) * 32, kMaxKp = 2048;

// A contraction's modes as the kernel sees them (host-planned below).
struct Params {
    // items: odometer over up to 6 dims (fastest first); a dim sets coordinate aDim of A's map and dDim
    // of D's (-1: none) to index x scale
    int nItem, itemCnt[6], itemScale[6], itemA[6], itemD[6];
    long long items;
    // K steps: odometer over up to 4 dims of A's map (kappa first, in chunks of bk)
    int nK, kCnt[4], kScale[4], kA[4], steps;
    int n, ntiles;              // N and its 8-wide mma tiles
    int bk;                     // the tile's depth (32 or 64: the kernel's BK)
    int bPitch;                 // bytes per row of the resident B (one row an N index)
    int RA, RD;                 // the tile's indices of muA and muD
    int aStrideMuA, aStrideMuD, aStrideK; // element strides of the smem A box
    int swz;                    // swizzle mask (0, 1, 3, 7: 16-byte chunk bits XORed with bits 7..9)
    int aKMajor;                // kappa is A's unit-stride mode
    int dStrideMuA, dStrideMuD; // element strides of the D box
    int dCol[kNP];              // D box offset of N index c
    int dBoxElems;
    float alpha;
    int skip; // diagnostics (--skip): 1 issues no loads (consumers multiply stale tiles), 2 no stores
};

__device__ __forceinline__ void ldsm_x4(unsigned r[4], unsigned addr, bool trans)
{
    if (trans)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr));
}

template <typename T> __device__ __forceinline__ void mma(float c[4], const unsigned a[4], unsigned b0, unsigned b1)
{
    if constexpr (std::is_same<T, __half>::value)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
    else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                     "{%0,%1,%2,%3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ void named_sync(int id, int threads)
{
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

// Item it's coordinates in A's and D's maps. Every index is a constant once the loops unroll, so the
// arrays stay in registers (indexed by the parameters they sat in local memory: call 5's profile).
__device__ __forceinline__ void item_coords(const Params& p, long long it, int ca[5], int cd[5])
{
#pragma unroll
    for (int d = 0; d < 5; ++d) ca[d] = cd[d] = 0;
#pragma unroll
    for (int i = 0; i < 6; ++i) {
        if (i >= p.nItem) break;
        const long long q = it / p.itemCnt[i];
        const int x = (int)(it - q * p.itemCnt[i]) * p.itemScale[i];
        it = q;
#pragma unroll
        for (int d = 0; d < 5; ++d) {
            if (p.itemA[i] == d) ca[d] = x;
            if (p.itemD[i] == d) cd[d] = x;
        }
    }
}

// Byte offset of tile element (row, k) in a stage: the box's layout, then the map's swizzle.
__device__ __forceinline__ unsigned a_byte(const Params& p, int row, int k)
{
    const unsigned e = (unsigned)((row % p.RA) * p.aStrideMuA + (row / p.RA) * p.aStrideMuD + k * p.aStrideK);
    const unsigned b = 2 * e;
    return b ^ (((b >> 7) & (unsigned)p.swz) << 4);
}

template <typename T, int S, int BM, int BK>
__global__ void __launch_bounds__(kThreads, 1) skinny_tma(const __grid_constant__ CUtensorMap aMap,
                                                          const __grid_constant__ CUtensorMap dMap, const Params p,
                                                          const T* B, const long long* bK, const long long* bN)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int STAGE = BM * BK * 2, MT = BM / 128, KS = BK / 16; // MT m16 tiles a warp, KS k16 steps a stage
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
    unsigned char* pipe = smem;                                   // S A tiles
    T* stageD = reinterpret_cast<T*>(smem + S * STAGE);           // 2 D boxes
    unsigned char* sB = smem + S * STAGE + 2 * BM * kNP * sizeof(T);
    const int kp = p.steps * BK;
    uint64_t* full = reinterpret_cast<uint64_t*>(sB + kNP * p.bPitch);
    uint64_t* empty = full + S;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;

    if (tid == 0) {
        for (int s = 0; s < S; ++s) mbar_init(&full[s], 1), mbar_init(&empty[s], kConsumers);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    // B(k, n) into rows (n, k padded), zeros past K, N and the chunks' ends. Its offset tables first go to
    // the D staging buffers (free until the first epilogue), so that each element is one independent load.
    long long* sbK = reinterpret_cast<long long*>(stageD);
    long long* sbN = sbK + kp;
    for (int i = tid; i < kp; i += kThreads) sbK[i] = bK[i];
    if (tid < kNP) sbN[tid] = bN[tid];
    __syncthreads();
#pragma unroll 4
    for (int i = tid; i < kNP * kp; i += kThreads) {
        const int n = i / kp, k = i - n * kp;
        const long long o = n < p.n ? sbK[k] : -1;
        reinterpret_cast<T*>(sB + n * p.bPitch)[k] = o >= 0 ? B[o + sbN[n]] : T(0.0f);
    }
    __syncthreads();

    if (warp == kConsumers) { // producer
        if (lane == 0) {
            int stage = 0;
            unsigned phase = 0;
            for (long long it = blockIdx.x; it < p.items; it += gridDim.x) {
                int ca[5], cd[5], kc[4] = {0, 0, 0, 0};
                item_coords(p, it, ca, cd);
                for (int s = 0; s < p.steps; ++s) {
                    mbar_wait(&empty[stage], phase ^ 1);
#pragma unroll
                    for (int i = 0; i < 4; ++i)
#pragma unroll
                        for (int d = 0; d < 5; ++d)
                            if (i < p.nK && p.kA[i] == d) ca[d] = kc[i] * p.kScale[i];
                    if (p.skip & 1) {
                        mbar_arrive(&full[stage]);
                    } else {
                        mbar_expect(&full[stage], STAGE);
                        tma_load5(pipe + stage * STAGE, &aMap, ca, &full[stage]);
                    }
                    bool carry = true; // the K odometer, unrolled (registers)
#pragma unroll
                    for (int i = 0; i < 4; ++i)
                        if (carry && i < p.nK) {
                            carry = ++kc[i] == p.kCnt[i];
                            if (carry) kc[i] = 0;
                        }
                    if (++stage == S) stage = 0, phase ^= 1;
                }
            }
        }
        return;
    }

    // consumers: warp w multiplies rows 16 MT w .. 16 MT (w + 1) - 1
    // ldmatrix lane addresses: matrix j = lane / 8 holds rows +8 (j & 1) and k +8 (j >> 1)
    const int j = lane >> 3, r = lane & 7;
    unsigned aOff[MT][KS];
    for (int mt = 0; mt < MT; ++mt) {
        const int aRow = (warp * MT + mt) * 16 + (j & 1) * 8 + (p.aKMajor ? r : 0), aK = (j >> 1) * 8 + (p.aKMajor ? 0 : r);
        for (int ks = 0; ks < KS; ++ks) aOff[mt][ks] = a_byte(p, aRow, aK + 16 * ks);
    }
    // B: matrix j holds N +8 (j >> 1), k +8 (j & 1)
    const unsigned bAddr = smem_u32(sB) + (unsigned)(((j >> 1) * 8 + r) * p.bPitch + 2 * (j & 1) * 8);
    const unsigned pipeAddr = smem_u32(pipe);
    // epilogue: this lane's rows g, g + 8 and columns 2t, 2t + 1 of each N tile
    int rowOff[MT][2];
    for (int mt = 0; mt < MT; ++mt)
        for (int h = 0; h < 2; ++h) {
            const int row = (warp * MT + mt) * 16 + (lane >> 2) + 8 * h;
            rowOff[mt][h] = (row % p.RA) * p.dStrideMuA + (row / p.RA) * p.dStrideMuD;
        }
    float acc[MT][4][4];
    for (int mt = 0; mt < MT; ++mt)
        for (int t = 0; t < 4; ++t)
            for (int v = 0; v < 4; ++v) acc[mt][t][v] = 0.0f;

    int stage = 0, ob = 0;
    unsigned phase = 0;
    for (long long it = blockIdx.x; it < p.items; it += gridDim.x) {
        for (int s = 0; s < p.steps; ++s) {
            mbar_wait(&full[stage], phase);
            const unsigned st = pipeAddr + stage * STAGE;
#pragma unroll
            for (int ks = 0; ks < KS; ++ks) {
                unsigned bf[2][4];
                const unsigned kb = (unsigned)(2 * (s * BK + ks * 16));
                ldsm_x4(bf[0], bAddr + kb, false);
                ldsm_x4(bf[1], bAddr + kb + 16 * p.bPitch, false);
#pragma unroll
                for (int mt = 0; mt < MT; ++mt) {
                    unsigned af[4];
                    ldsm_x4(af, st + aOff[mt][ks], !p.aKMajor);
#pragma unroll
                    for (int t = 0; t < 4; ++t)
                        if (t < p.ntiles) mma<T>(acc[mt][t], af, bf[t / 2][(t % 2) * 2], bf[t / 2][(t % 2) * 2 + 1]);
                }
            }
            __syncwarp();
            if (lane == 0) mbar_arrive(&empty[stage]);
            if (++stage == S) stage = 0, phase ^= 1;
        }
        // epilogue: alpha x acc into D's box layout, one TMA store
        if (tid == 0) bulk_wait_read<1>(); // the store from this buffer two items ago has read it
        named_sync(1, kConsumers * 32);
        T* out = stageD + ob * BM * kNP;
#pragma unroll
        for (int mt = 0; mt < MT; ++mt)
#pragma unroll
            for (int t = 0; t < 4; ++t)
#pragma unroll
                for (int v = 0; v < 4; ++v) {
                    const int col = t * 8 + (lane & 3) * 2 + (v & 1);
                    if (t < p.ntiles && col < p.n) out[rowOff[mt][v >> 1] + p.dCol[col]] = T(p.alpha * acc[mt][t][v]);
                    acc[mt][t][v] = 0.0f;
                }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        named_sync(1, kConsumers * 32);
        if (tid == 0) {
            int ca[5], cd[5];
            item_coords(p, it, ca, cd);
            if (!(p.skip & 2)) tma_store5(&dMap, cd, out);
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
        }
        ob ^= 1;
    }
    if (tid == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
#else
    __trap(); // the bulk tensor copy needs sm_90 (build with CMAKE_CUDA_ARCHITECTURES=90-real)
#endif
}

// ---- host: the case, its layouts and the kernel's parameters ----

struct Case {
    std::string name, d, a, b; // mode letters of D, A, B (column-major, first mode stride 1)
    long long ext[26] = {0};
    long long stride(const std::string& t, char m) const
    {
        long long s = 1;
        for (char c : t) {
            if (c == m) return s;
            s *= ext[c - 'a'];
        }
        return 0;
    }
    long long volume(const std::string& t) const
    {
        long long v = 1;
        for (char c : t) v *= ext[c - 'a'];
        return v;
    }
};

// TCCG 1-8 (bench/cases/tccg48.txt)
const char* const kTccg[8] = {"abc-bda-dc:312,312,24,312",          "abc-dca-bd:312,24,296,312",
                              "abcd-dbea-ec:72,72,24,72,72",        "abcd-deca-be:72,24,72,72,72",
                              "abcd-ebad-ce:72,72,24,72,72",        "abcde-efbad-cf:48,32,24,32,48,32",
                              "abcde-ecbfa-fd:48,32,32,24,48,48",   "abcde-efcad-bf:48,24,32,32,48,32"};

bool parse(const char* arg, Case* c)
{
    std::string s = arg;
    if (s.find('-') == std::string::npos) {
        const int id = atoi(arg);
        if (id < 1 || id > 8) return false;
        c->name = "tccg" + s;
        s = kTccg[id - 1];
    } else {
        c->name = s;
    }
    const size_t colon = s.find(':'), d1 = s.find('-'), d2 = s.find('-', d1 + 1);
    if (colon == std::string::npos || d2 == std::string::npos) return false;
    c->d = s.substr(0, d1), c->a = s.substr(d1 + 1, d2 - d1 - 1), c->b = s.substr(d2 + 1, colon - d2 - 1);
    const char* e = s.c_str() + colon + 1;
    for (int i = 0; *e && i < 26; ++i) {
        c->ext[i] = strtoll(e, const_cast<char**>(&e), 10);
        if (*e == ',') ++e;
    }
    return true;
}

bool in(const std::string& t, char m) { return t.find(m) != std::string::npos; }

#include "probe/skinny_direct.cuh"

// A dense map of tensor t (modes in memory order, padded to 5 with extent-1 dims), boxes box[].
CUtensorMap make_map(const Case& c, const std::string& t, void* base, const int box[5], int swizzleBytes)
{
    CUtensorMap m;
    cuuint64_t dims[5], strides[4];
    cuuint32_t bx[5], estr[5] = {1, 1, 1, 1, 1};
    long long s = 2;
    for (int i = 0; i < 5; ++i) {
        dims[i] = i < (int)t.size() ? (cuuint64_t)c.ext[t[i] - 'a'] : 1;
        bx[i] = (cuuint32_t)box[i];
        s *= (long long)dims[i];
        if (i < 4) strides[i] = (cuuint64_t)s;
    }
    const CUtensorMapSwizzle sw = swizzleBytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                                  : swizzleBytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                  : swizzleBytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                       : CU_TENSOR_MAP_SWIZZLE_NONE;
    CUresult r = encode_fn()(&m, CU_TENSOR_MAP_DATA_TYPE_UINT16, 5, base, dims, strides, bx, estr,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "%s: cuTensorMapEncodeTiled failed (%d)\n", c.name.c_str(), (int)r);
        exit(1);
    }
    return m;
}

struct Plan {
    Params p;
    int aBox[5], dBox[5], aSwizzle;
    std::vector<long long> bK, bN;
    long long m, n, k;
    std::string why;
};

bool plan(const Case& c, int bm, int bk, int ra, int rak, bool noStores, Plan* pl)
{
    Params& p = pl->p;
    memset(&p, 0, sizeof p);
    std::string M, N, K;
    for (char x : c.a) (in(c.b, x) ? K : M) += x;
    for (char x : c.b)
        if (!in(c.a, x)) N += x;
    for (char x : c.d)
        if (!in(M, x) && !in(N, x)) return pl->why = "batch modes", false;
    if (c.a.size() > 5 || c.d.size() > 5) return pl->why = "more than 5 modes", false;
    pl->m = c.volume(M), pl->n = c.volume(N), pl->k = c.volume(K);
    if (pl->n > kNP) return pl->why = "N above 32", false;
    const char muA = M[0];
    char muD = 0;
    for (char x : c.d)
        if (in(M, x)) {
            muD = x;
            break;
        }
    if (muA == muD) return pl->why = "A's and D's fastest M modes are one", false;
    const char kappa = K[0]; // A's fastest K mode (A's order)
    p.aKMajor = c.a[0] == kappa;
    p.RA = p.aKMajor ? rak : ra, p.RD = bm / p.RA; // K-major A reads its runs along K: D's runs take the tile
    if (p.RA > c.ext[muA - 'a'] || p.RD > c.ext[muD - 'a']) return pl->why = "box above an extent", false;
    const int kBK = bk;
    p.bk = bk;
    if (c.ext[kappa - 'a'] < kBK) return pl->why = "kappa below the tile's depth", false;
    if (in(N, c.d[0]) && (c.volume(N) * 2) % 16) return pl->why = "D's unit-stride N box not 16 bytes", false;
    if (c.d[0] == muD && (p.RD * 2) % 16 && !noStores) return pl->why = "D's unit-stride box not 16 bytes", false;
    // A's box and its smem strides (box order = A's order)
    long long sb = 1;
    for (int i = 0; i < 5; ++i) {
        const char x = i < (int)c.a.size() ? c.a[i] : 0;
        pl->aBox[i] = x == muA ? p.RA : x == muD ? p.RD : x == kappa ? kBK : 1;
        if (x == muA) p.aStrideMuA = (int)sb;
        if (x == muD) p.aStrideMuD = (int)sb;
        if (x == kappa) p.aStrideK = (int)sb;
        sb *= pl->aBox[i];
    }
    const int innerBytes = 2 * pl->aBox[0];
    pl->aSwizzle = innerBytes >= 128 ? 128 : innerBytes >= 64 ? 64 : innerBytes >= 32 ? 32 : 0;
    if (innerBytes > 128) return pl->why = "A's inner box above 128 bytes", false;
    p.swz = pl->aSwizzle / 16 - 1 < 0 ? 0 : pl->aSwizzle / 16 - 1;
    // D's box: muA, muD, every N mode whole
    sb = 1;
    for (int i = 0; i < 5; ++i) {
        const char x = i < (int)c.d.size() ? c.d[i] : 0;
        pl->dBox[i] = x == muA ? p.RA : x == muD ? p.RD : x && in(N, x) ? (int)c.ext[x - 'a'] : 1;
        if (x == muA) p.dStrideMuA = (int)sb;
        if (x == muD) p.dStrideMuD = (int)sb;
        sb *= pl->dBox[i];
    }
    p.dBoxElems = (int)sb;
    // N index c (N's modes in D's order) -> D box offset and B offset
    p.n = (int)pl->n, p.ntiles = (p.n + 7) / 8;
    pl->bN.assign(kNP, 0);
    for (int col = 0; col < p.n; ++col) {
        int rest = col, off = 0;
        long long boff = 0, bs = 1;
        for (int i = 0; i < (int)c.d.size(); ++i) {
            const char x = c.d[i];
            if (!in(N, x)) {
                bs *= pl->dBox[i];
                continue;
            }
            const int e = (int)c.ext[x - 'a'], v = rest % e;
            rest /= e;
            off += v * (int)bs;
            bs *= pl->dBox[i];
            boff += v * c.stride(c.b, x);
        }
        p.dCol[col] = off;
        pl->bN[col] = boff;
    }
    // items: muA tiles, muD tiles, then A's other M modes
    auto dim_of = [](const std::string& t, char x) { return (int)t.find(x); };
    auto add_item = [&](char x, int scale) {
        const int i = p.nItem++;
        p.itemCnt[i] = (int)((c.ext[x - 'a'] + scale - 1) / scale), p.itemScale[i] = scale;
        p.itemA[i] = dim_of(c.a, x), p.itemD[i] = dim_of(c.d, x);
    };
    add_item(muA, p.RA);
    add_item(muD, p.RD);
    for (char x : c.a)
        if (in(M, x) && x != muA && x != muD) add_item(x, 1);
    p.items = 1;
    for (int i = 0; i < p.nItem; ++i) p.items *= p.itemCnt[i];
    // K steps: kappa in chunks, then A's other K modes
    const int kChunks = (int)((c.ext[kappa - 'a'] + kBK - 1) / kBK);
    p.kCnt[0] = kChunks, p.kScale[0] = kBK, p.kA[0] = dim_of(c.a, kappa), p.nK = 1;
    for (char x : c.a)
        if (in(K, x) && x != kappa) {
            p.kCnt[p.nK] = (int)c.ext[x - 'a'], p.kScale[p.nK] = 1, p.kA[p.nK] = dim_of(c.a, x);
            ++p.nK;
        }
    p.steps = 1;
    for (int i = 0; i < p.nK; ++i) p.steps *= p.kCnt[i];
    const int kp = p.steps * kBK;
    if (kp > kMaxKp) return pl->why = "K padded above 2048", false;
    // B's offset tables pass through the D staging buffers (2 x bm x kNP elements of 2 bytes)
    if ((kp + kNP) * 8 > 2 * bm * kNP * 2) return pl->why = "B's offset tables above the D staging buffers", false;
    p.bPitch = (kp / 8 + 1) * 16; // an odd count of 16-byte chunks: ldmatrix meets no bank conflicts
    // padded k index -> B offset of its K coordinates (-1: past kappa's extent)
    pl->bK.assign(kp, -1);
    for (int s = 0; s < p.steps; ++s) {
        int rest = s;
        long long off = 0;
        int kap = 0;
        for (int i = 0; i < p.nK; ++i) {
            const int v = rest % p.kCnt[i];
            rest /= p.kCnt[i];
            const char x = c.a[p.kA[i]];
            if (i == 0) kap = v * kBK;
            else off += v * c.stride(c.b, x);
        }
        for (int jj = 0; jj < kBK; ++jj)
            if (kap + jj < c.ext[kappa - 'a']) pl->bK[s * kBK + jj] = off + (kap + jj) * c.stride(c.b, kappa);
    }
    return true;
}

// ---- reference, data, checks ----

struct RefModes {
    int nd, nk;
    long long dExt[8], dA[8], dB[8]; // per D mode (D's order): extent, A stride, B stride
    long long kExt[8], kA[8], kB[8];
};

template <typename T>
__global__ void reference(RefModes r, const T* A, const T* B, long long count, float* ref, float* mag)
{
    for (long long o = blockIdx.x * (long long)blockDim.x + threadIdx.x; o < count; o += (long long)gridDim.x * blockDim.x) {
        long long rest = o, a0 = 0, b0 = 0;
        for (int i = 0; i < r.nd; ++i) {
            const long long v = rest % r.dExt[i];
            rest /= r.dExt[i];
            a0 += v * r.dA[i], b0 += v * r.dB[i];
        }
        long long kv = 1;
        for (int i = 0; i < r.nk; ++i) kv *= r.kExt[i];
        float s = 0.0f, m = 0.0f;
        for (long long q = 0; q < kv; ++q) {
            long long rq = q, a = a0, b = b0;
            for (int i = 0; i < r.nk; ++i) {
                const long long v = rq % r.kExt[i];
                rq /= r.kExt[i];
                a += v * r.kA[i], b += v * r.kB[i];
            }
            const float x = (float)A[a] * (float)B[b];
            s += x, m += fabsf(x);
        }
        ref[o] = s, mag[o] = m;
    }
}

template <typename T> __global__ void fill_values(T* p, long long n, unsigned seed)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        uint64_t x = (i + 1 + ((uint64_t)seed << 40)) * 0x9e3779b97f4a7c15ull;
        x ^= x >> 31, x *= 0xbf58476d1ce4e5b9ull, x ^= x >> 29;
        p[i] = T((float)(x & 0xffff) / 32768.0f - 1.0f);
    }
}

// Elements of D that are not the reference within fp16 / bf16 rounding (a poisoned element never is).
template <typename T>
__global__ void count_wrong(const T* d, const float* ref, const float* mag, long long n, float eps,
                            unsigned long long* bad)
{
    unsigned long long mine = 0;
    for (long long o = blockIdx.x * (long long)blockDim.x + threadIdx.x; o < n; o += (long long)gridDim.x * blockDim.x) {
        const float x = (float)d[o];
        mine += !(fabsf(x - ref[o]) <= eps * fabsf(ref[o]) + 1e-4f * mag[o] + 1e-6f);
    }
    if (mine) atomicAdd(bad, mine);
}

template <typename T, int BM, int BK> auto pick_s(int stages)
{
    return stages == 6 ? skinny_tma<T, 6, BM, BK> : stages == 4 ? skinny_tma<T, 4, BM, BK> : skinny_tma<T, 3, BM, BK>;
}

template <typename T> auto pick(int bm, int bk, int stages)
{
    return bm == 256 ? (bk == 64 ? pick_s<T, 256, 64>(stages) : pick_s<T, 256, 32>(stages))
                     : (bk == 64 ? pick_s<T, 128, 64>(stages) : pick_s<T, 128, 32>(stages));
}

struct Config {
    int bm, bk, ra, rak, stages;
    bool direct;          // skinny_direct.cuh's kernel instead of the TMA one
    int wa, warpsA, nbuf, minb; // its warp tile (WA of muA), warps along muA, k16 steps of loads in flight + 1,
                                // blocks an SM for the register limit
};

template <typename T> void run_case(const Case& c, const Config& f, int skip, int reps, cupermHandle_t h, cublasHandle_t cb)
{
    Plan pl;
    direct::Plan dp;
    if (f.direct ? !direct::plan(c, f.wa, f.warpsA, &dp) : !plan(c, f.bm, f.bk, f.ra, f.rak, skip & 2, &pl)) {
        printf("%s: not for this kernel: %s\n", c.name.c_str(), (f.direct ? dp.why : pl.why).c_str());
        return;
    }
    if (f.direct) pl.m = dp.m, pl.n = dp.n, pl.k = dp.k, pl.bK = dp.bK, pl.bN = dp.bN;
    const bool bf = std::is_same<T, __nv_bfloat16>::value;
    const long long na = c.volume(c.a), nb = c.volume(c.b), nd = c.volume(c.d);
    T *A, *B, *D, *ga, *gb, *gd;
    float *ref, *mag;
    long long *bK, *bN, *dN = nullptr;
    int* aK = nullptr;
    unsigned long long* bad;
    CHECK(cudaMalloc(&A, na * sizeof(T)));
    CHECK(cudaMalloc(&B, nb * sizeof(T)));
    CHECK(cudaMalloc(&D, nd * sizeof(T)));
    CHECK(cudaMalloc(&ga, pl.m * pl.k * sizeof(T)));
    CHECK(cudaMalloc(&gb, pl.k * pl.n * sizeof(T)));
    CHECK(cudaMalloc(&gd, pl.m * pl.n * sizeof(T)));
    CHECK(cudaMalloc(&ref, nd * sizeof(float)));
    CHECK(cudaMalloc(&mag, nd * sizeof(float)));
    CHECK(cudaMalloc(&bK, pl.bK.size() * sizeof(long long)));
    CHECK(cudaMalloc(&bN, pl.bN.size() * sizeof(long long)));
    CHECK(cudaMalloc(&bad, sizeof *bad));
    CHECK(cudaMemcpy(bK, pl.bK.data(), pl.bK.size() * sizeof(long long), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(bN, pl.bN.data(), pl.bN.size() * sizeof(long long), cudaMemcpyHostToDevice));
    if (f.direct) {
        CHECK(cudaMalloc(&aK, dp.aK.size() * sizeof(int)));
        CHECK(cudaMalloc(&dN, dp.dN.size() * sizeof(long long)));
        CHECK(cudaMemcpy(aK, dp.aK.data(), dp.aK.size() * sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dN, dp.dN.data(), dp.dN.size() * sizeof(long long), cudaMemcpyHostToDevice));
    }
    fill_values<T><<<1024, 256>>>(A, na, 1);
    fill_values<T><<<1024, 256>>>(B, nb, 2);
    fill_values<T><<<1024, 256>>>(ga, pl.m * pl.k, 3);
    fill_values<T><<<1024, 256>>>(gb, pl.k * pl.n, 4);
    RefModes rm = {};
    for (char x : c.d) {
        rm.dExt[rm.nd] = c.ext[x - 'a'], rm.dA[rm.nd] = c.stride(c.a, x), rm.dB[rm.nd] = c.stride(c.b, x);
        ++rm.nd;
    }
    for (char x : c.a)
        if (in(c.b, x)) {
            rm.kExt[rm.nk] = c.ext[x - 'a'], rm.kA[rm.nk] = c.stride(c.a, x), rm.kB[rm.nk] = c.stride(c.b, x);
            ++rm.nk;
        }
    reference<T><<<2048, 256>>>(rm, A, B, nd, ref, mag);
    CHECK(cudaGetLastError());

    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    if (cublasSetStream(cb, st) != CUBLAS_STATUS_SUCCESS) exit(1);
    int dev, sms, per = 0, grid = 0, stages = f.stages;
    CHECK(cudaGetDevice(&dev));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    std::function<void()> mine;
    if (f.direct) {
        dp.p.alpha = 1.0f, dp.p.skip = skip;
        auto* kern = direct::pick<T>(f.wa, (int)dp.n, f.nbuf, f.minb);
        CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, dp.smem));
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, direct::kThreads, dp.smem));
        grid = (int)std::min<long long>((long long)sms * per, dp.p.items);
        stages = f.nbuf;
        mine = [=, &dp] { kern<<<grid, direct::kThreads, dp.smem, st>>>(dp.p, A, B, D, aK, bK, bN, dN); };
    } else {
        const CUtensorMap aMap = make_map(c, c.a, A, pl.aBox, pl.aSwizzle);
        const int noBox[5] = {8, 1, 1, 1, 1}; // without stores (--skip 2) D's box may break TMA's rules: any valid one
        const CUtensorMap dMap = make_map(c, c.d, D, skip & 2 ? noBox : pl.dBox, 0);
        pl.p.alpha = 1.0f;
        pl.p.skip = skip;
        const size_t smem = 1024 + (size_t)stages * f.bm * f.bk * 2 + 2 * f.bm * kNP * sizeof(T) + kNP * pl.p.bPitch + 2 * stages * 8;
        auto* kern = pick<T>(f.bm, f.bk, stages);
        CHECK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, kern, kThreads, smem));
        grid = (int)std::min<long long>((long long)sms * per, pl.p.items);
        const Params prm = pl.p;
        mine = [=] { kern<<<grid, kThreads, smem, st>>>(aMap, dMap, prm, B, bK, bN); };
    }
    auto tma = [&] { mine(); };

    // cuperm's plans (public API): default and GETT forced
    std::vector<int32_t> ma(c.a.begin(), c.a.end()), mb(c.b.begin(), c.b.end()), md(c.d.begin(), c.d.end());
    std::vector<int64_t> ea, eb, ed;
    for (char x : c.a) ea.push_back(c.ext[x - 'a']);
    for (char x : c.b) eb.push_back(c.ext[x - 'a']);
    for (char x : c.d) ed.push_back(c.ext[x - 'a']);
    const cupermDataType_t dt = bf ? CUPERM_R_16BF : CUPERM_R_16F;
    const cupermTensorDescriptor_t tA = {(int)ma.size(), ma.data(), ea.data(), NULL, dt, CUPERM_OP_IDENTITY, 0},
                                   tB = {(int)mb.size(), mb.data(), eb.data(), NULL, dt, CUPERM_OP_IDENTITY, 0},
                                   tD = {(int)md.size(), md.data(), ed.data(), NULL, dt, CUPERM_OP_IDENTITY, 0};
    cupermContractionPlan_t plans[2] = {nullptr, nullptr};
    void* ws[2] = {nullptr, nullptr};
    size_t wsb[2] = {0, 0};
    for (int v = 0; v < 2; ++v) {
        const cupermStatus_t s = cupermPlanContractionAlgo(h, &plans[v], &tA, &tB, &tD, &tD, CUPERM_COMPUTE_32F,
                                                           CUPERM_PLAN_MODEL, v ? CUPERM_ALGO_GETT : CUPERM_ALGO_DEFAULT);
        if (s != CUPERM_STATUS_SUCCESS) {
            plans[v] = nullptr;
            continue;
        }
        CHECK(cupermContractionGetWorkspaceSize(plans[v], &wsb[v]) == CUPERM_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown);
        if (wsb[v]) CHECK(cudaMalloc(&ws[v], wsb[v]));
    }
    const float one = 1.0f, zero = 0.0f;
    auto lib = [&](int v) {
        if (cupermContract(plans[v], &one, A, B, &zero, D, D, ws[v], wsb[v], st) != CUPERM_STATUS_SUCCESS) {
            fprintf(stderr, "cupermContract failed\n");
            exit(1);
        }
    };
    auto gemm = [&] {
        if (cublasGemmEx(cb, CUBLAS_OP_N, CUBLAS_OP_N, (int)pl.m, (int)pl.n, (int)pl.k, &one, ga, bf ? CUDA_R_16BF : CUDA_R_16F,
                         (int)pl.m, gb, bf ? CUDA_R_16BF : CUDA_R_16F, (int)pl.k, &zero, gd, bf ? CUDA_R_16BF : CUDA_R_16F,
                         (int)pl.m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) != CUBLAS_STATUS_SUCCESS) {
            fprintf(stderr, "cublasGemmEx failed\n");
            exit(1);
        }
    };
    const size_t moved = (size_t)(na + nb + nd) * sizeof(T); // bytes a single pass reads and writes
    unsigned char* cp;
    CHECK(cudaMalloc(&cp, moved));
    auto copy = [&] { CHECK(cudaMemcpyAsync(cp + moved / 2, cp, moved / 2, cudaMemcpyDeviceToDevice, st)); };

    unsigned long long wrong[3] = {~0ull, ~0ull, ~0ull};
    for (int v = 0; v < 3; ++v) {
        if (v > 0 && !plans[v - 1]) continue;
        CHECK(cudaMemsetAsync(D, 0xff, nd * sizeof(T), st)); // NaN in both types
        if (v == 0) tma();
        else lib(v - 1);
        CHECK(cudaGetLastError());
        CHECK(cudaMemsetAsync(bad, 0, sizeof *bad, st));
        count_wrong<T><<<1024, 256, 0, st>>>(D, ref, mag, nd, bf ? 1.6e-2f : 2e-3f, bad);
        CHECK(cudaMemcpyAsync(&wrong[v], bad, sizeof *bad, cudaMemcpyDeviceToHost, st));
        CHECK(cudaStreamSynchronize(st));
    }
    float t[5] = {1, 1, 1, 1, 1};
    for (int round = 0; round < 2 && reps > 0; ++round) { // alternated, the better of two medians each; reps 0: checks alone
        float x[5] = {median_ms(reps, st, nullptr, 0, copy), median_ms(reps, st, nullptr, 0, tma),
                      plans[0] ? median_ms(reps, st, nullptr, 0, [&] { lib(0); }) : 0.0f,
                      plans[1] ? median_ms(reps, st, nullptr, 0, [&] { lib(1); }) : 0.0f,
                      median_ms(reps, st, nullptr, 0, gemm)};
        for (int i = 0; i < 5; ++i) t[i] = round ? std::min(t[i], x[i]) : x[i];
    }
    if (reps == 0) {
        printf("%s m=%lld n=%lld k=%lld %s: not timed | wrong: %s %llu, default %llu, gett %llu\n", c.name.c_str(),
               pl.m, pl.n, pl.k, f.direct ? "direct" : "tma", f.direct ? "direct" : "tma", wrong[0], wrong[1], wrong[2]);
        t[0] = 0; // skips the timed line below
    }
    const double bw = 1e-6 * (double)moved / t[0]; // GB/s of the copy, counted as 2 x (moved / 2)
    if (t[0] > 0 && f.direct)
        printf("%s m=%lld n=%lld k=%lld direct WA=%d warpsA=%d NBUF=%d MINB=%d grid=%d steps=%d | copy %.1f GB/s | direct %.4f ms %.0f GB/s "
               "%.1f%% of copy, gemm/direct %.3f | default %.4f ms gemm/x %.3f | gett %.4f ms gemm/x %.3f | gemm %.4f ms | "
               "wrong: direct %llu, default %llu, gett %llu\n",
               c.name.c_str(), pl.m, pl.n, pl.k, f.wa, f.warpsA, f.nbuf, f.minb, grid, dp.p.steps, bw, t[1],
               1e-6 * (double)moved / t[1], 100.0 * t[0] / t[1], t[4] / t[1], t[2], t[2] ? t[4] / t[2] : 0.0, t[3],
               t[3] ? t[4] / t[3] : 0.0, t[4], wrong[0], wrong[1], wrong[2]);
    else if (t[0] > 0)
        printf("%s m=%lld n=%lld k=%lld BM=%d RA=%d RD=%d S=%d grid=%d steps=%d | copy %.1f GB/s | tma %.4f ms %.0f GB/s "
           "%.1f%% of copy, gemm/tma %.3f | default %.4f ms gemm/x %.3f | gett %.4f ms gemm/x %.3f | gemm %.4f ms | "
           "wrong: tma %llu, default %llu, gett %llu\n",
               c.name.c_str(), pl.m, pl.n, pl.k, f.bm, pl.p.RA, pl.p.RD, stages, grid, pl.p.steps, bw, t[1],
           1e-6 * (double)moved / t[1], 100.0 * t[0] / t[1], t[4] / t[1], t[2], t[2] ? t[4] / t[2] : 0.0, t[3],
           t[3] ? t[4] / t[3] : 0.0, t[4], wrong[0], wrong[1], wrong[2]);
    fflush(stdout);
    for (int v = 0; v < 2; ++v) {
        if (plans[v]) cupermContractionPlanDestroy(plans[v]);
        if (ws[v]) CHECK(cudaFree(ws[v]));
    }
    CHECK(cudaStreamDestroy(st));
    for (void* q : {(void*)A, (void*)B, (void*)D, (void*)ga, (void*)gb, (void*)gd, (void*)ref, (void*)mag, (void*)bK,
                    (void*)bN, (void*)bad, (void*)cp, (void*)aK, (void*)dN})
        CHECK(cudaFree(q));
}

void print_plan(const Case& c, const Config& f)
{
    Plan pl;
    if (!plan(c, f.bm, f.bk, f.ra, f.rak, false, &pl)) {
        printf("%s: not for this kernel: %s\n", c.name.c_str(), pl.why.c_str());
        return;
    }
    const Params& p = pl.p;
    printf("%s m=%lld n=%lld k=%lld RA=%d RD=%d kmajor=%d swizzle=%d items=%lld steps=%d | A box", c.name.c_str(), pl.m,
           pl.n, pl.k, p.RA, p.RD, p.aKMajor, pl.aSwizzle, p.items, p.steps);
    for (int i = 0; i < 5; ++i) printf(" %d", pl.aBox[i]);
    printf(" (strides muA %d muD %d k %d) | D box", p.aStrideMuA, p.aStrideMuD, p.aStrideK);
    for (int i = 0; i < 5; ++i) printf(" %d", pl.dBox[i]);
    printf(" (strides muA %d muD %d, col 1 at %d)\n", p.dStrideMuA, p.dStrideMuD, p.n > 1 ? p.dCol[1] : 0);
}

} // namespace

int main(int argc, char** argv)
{
    int reps = 20;
    Config f = {128, 32, 16, 2, 4, false, 8, 4, 3, 1};
    bool bf = false, planOnly = false;
    int skip = 0;
    cupermHandle_t h = nullptr;
    cublasHandle_t cb = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bm") && i + 1 < argc) f.bm = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bk") && i + 1 < argc) f.bk = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ra") && i + 1 < argc) f.ra = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--ra-k") && i + 1 < argc) f.rak = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--stages") && i + 1 < argc) f.stages = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bf16")) bf = true;
        else if (!strcmp(argv[i], "--direct") && i + 1 < argc) {
            f.minb = 1;
            f.direct = sscanf(argv[++i], "%d:%d:%d:%d", &f.wa, &f.warpsA, &f.nbuf, &f.minb) >= 3;
            if (!f.direct || (f.wa != 8 && f.wa != 16) || 8 % f.warpsA || f.nbuf < 2 || f.nbuf > 4 || f.minb < 1 ||
                f.minb > (f.wa == 8 ? 2 : 1)) {
                fprintf(stderr, "--direct WA:WARPS_A:NBUF[:MINB] (WA 8 or 16, WARPS_A 1, 2, 4 or 8, NBUF 2-4, MINB 1 or, "
                                "with WA 8, 2)\n");
                return 2;
            }
        }
        else if (!strcmp(argv[i], "--skip") && i + 1 < argc) skip = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--plan")) planOnly = true; // print the kernel's parameters, no GPU
        else {
            Case c;
            if (!parse(argv[i], &c) || (f.bm != 128 && f.bm != 256) || (f.bk != 32 && f.bk != 64) || (f.ra != 8 && f.ra != 16 && f.ra != 32 && f.ra != 64) ||
                f.rak < 1 || f.bm % f.rak || f.bm % f.ra || (f.stages != 3 && f.stages != 4 && f.stages != 6)) {
                fprintf(stderr, "usage: %s [--plan] [--reps N] [--bm 128|256] [--bk 32|64] [--ra 8|16|32|64] [--ra-k N] [--stages 3|4|6] [--bf16] [--skip 1|2] CASE ...\n",
                        argv[0]);
                return 2;
            }
            if (planOnly && f.direct) {
                direct::Plan dp;
                if (!direct::plan(c, f.wa, f.warpsA, &dp)) printf("%s: not for this kernel: %s\n", c.name.c_str(), dp.why.c_str());
                else
                    printf("%s m=%lld n=%lld k=%lld direct: muA %d muD %d, A stride of muD %lld, D stride of muA %lld, tiles %d x %d, "
                           "%d other M modes, items %lld, steps %d, smem %d\n",
                           c.name.c_str(), dp.m, dp.n, dp.k, dp.p.extMuA, dp.p.extMuD, dp.p.aStrideMuD, dp.p.dStrideMuA,
                           dp.p.tilesA, dp.p.tilesD, dp.p.nOther, dp.p.items, dp.p.steps, dp.smem);
                continue;
            }
            if (planOnly) {
                print_plan(c, f);
                continue;
            }
            if (!h) {
                if (cupermCreate(&h) != CUPERM_STATUS_SUCCESS || cublasCreate(&cb) != CUBLAS_STATUS_SUCCESS) return 1;
                cudaDeviceProp pr;
                CHECK(cudaGetDeviceProperties(&pr, 0));
                printf("GPU: %s (%d SMs)\n", pr.name, pr.multiProcessorCount);
            }
            if (bf) run_case<__nv_bfloat16>(c, f, skip, reps, h, cb);
            else run_case<__half>(c, f, skip, reps, h, cb);
        }
    }
    if (cb) cublasDestroy(cb);
    if (h) cupermDestroy(h);
    return 0;
}
