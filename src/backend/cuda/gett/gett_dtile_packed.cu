// The D-tile kernel's packed path (sm_90): contractions of short K whose tiles are contiguous
// blocks of D (plan/contraction/gett_dtile.h: cuperm_ctr_dtile_packed_tile), or tiles of whole
// modes whose 16-byte pieces the warps can store from their registers (the direct path below).
//
// The gathering kernel (gett_dtile.cu) walks offset tables for every panel and every store of
// every tile: about 470 warp instructions a warp a tile on TCCG 40, latency-bound at 16 warps an
// SM. Here the per-tile work is only the products and the stores:
//   1. pack: one launch writes every panel of A and B as the kernel's shared memory holds it
//      (rows padded to the warp grid, K padded, zeros past the extents) into the workspace;
//   2. the kernel's blocks are persistent; thread 0 copies a work item's two panel images into a
//      shared-memory stage with bulk copies (cp.async.bulk, an mbarrier counting the bytes) two
//      items ahead, the outer panel only where it changed;
//   3. warps multiply with ldmatrix + mma.sync m16n8k16 (fp32 accumulators), stage alpha x the
//      accumulators in D's order (padded against bank conflicts by the plan) in one of two
//      alternating stagings (one barrier an item) and the block writes the tile, one contiguous
//      block of D, in 16-byte pieces. (One bulk copy of an unpadded staging by one thread, tried
//      in session 42, took 1.04x the time on TCCG 31: its reads of the staging had to end before
//      the next barrier.)
// (Each warp loading its own mma fragments from images packed in fragment order, with no ring, was
// 1.27-1.35x slower on TCCG 31-48: session 68, bench/results/gett-h100/dwrite-probe-h200/.)
// beta != 0 on the direct path only, where C has D's strides (cuperm_gett_params_t.packedC): each
// lane loads C's pieces where it stores D's; other runs with C take the gathering kernel, which
// reads C in the same pass.
#include "backend/cuda/gett/gett.h"
#include "backend/cuda/gett/gett_elements.cuh"
#include "backend/cuda/gett/gett_exchange.cuh"
#include "backend/cuda/gett/gett_mbarrier.cuh"
#include "core/gett_dtile_shape.h"

#include <stdint.h>
#include <type_traits>

namespace cuperm {
namespace gett {
namespace dtile_packed {

constexpr int THREADS = 256;
static_assert(CTR_DTILE_WARPS == THREADS / 32, "the plan's warp grid");

__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
__device__ __forceinline__ void bulk_load(void* dst, const void* src, unsigned bytes, uint64_t* b)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     smem_u32(dst)),
                 "l"(src), "r"(bytes), "r"(smem_u32(b))
                 : "memory");
}
__device__ __forceinline__ void ldsm_x4(unsigned (&r)[4], const void* p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_u32(p)));
}
#endif

// The two sides as the kernel sees them, X (rows of the mma's A fragments) and Y (along D's
// fastest direction): tiles, group sizes, padded panel rows, tile counts, panel row pitch.
struct Sides {
    int xTile, yTile, xSize, ySize, rowsX, rowsY, tilesX, tilesY, ld;
    __host__ __device__ explicit Sides(const cuperm_gett_params_t& q)
    {
        xTile = q.dMFast ? q.dtileN : q.dtileM, yTile = q.dMFast ? q.dtileM : q.dtileN;
        xSize = q.dMFast ? q.n : q.m, ySize = q.dMFast ? q.m : q.n;
        cuperm_ctr_dtile_panel_rows(xTile, yTile, &rowsX, &rowsY);
        tilesX = (xSize + xTile - 1) / xTile, tilesY = (ySize + yTile - 1) / yTile;
        ld = cuperm_ctr_dtile_ld(q.dtileK);
    }
};

// Step 1: every panel image of both sides, 8 elements (16 bytes) a thread, gathered through the
// offset tables: image (l, t) row r column c = X[xL[l] + xRow[t xTile + r] + xK[c]], zero past
// the tile, the extents and K. The sides come from the host (their divisions cost a short-lived
// thread as much as its loads) and IDX is 32-bit wherever the units fit: the kernel is a single
// pass of latency-bound threads, so its time is one thread's instructions and loads.
template <typename OFF, typename IDX>
static __global__ void pack(const cuperm_gett_params_t q, const Sides s, const unsigned short* A, const unsigned short* B,
                            char* work)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    // The kernel after this one (launched with programmatic serialization) may start now: it sets
    // up and then waits (griddepcontrol.wait) for this grid to complete before reading the images.
    asm volatile("griddepcontrol.launch_dependents;");
#endif
    const IDX rowUnits = (IDX)(s.ld / 8);
    const IDX rowsAllX = (IDX)q.batch * s.tilesX * s.rowsX, unitsX = rowsAllX * rowUnits;
    const IDX units = unitsX + (IDX)q.batch * s.tilesY * s.rowsY * rowUnits;
    for (IDX u = (IDX)blockIdx.x * blockDim.x + threadIdx.x; u < units; u += (IDX)gridDim.x * blockDim.x) {
        const IDX row = u / rowUnits; // rows of every X image, then of every Y image
        const int c0 = (int)(u - row * rowUnits) * 8;
        const bool y = row >= rowsAllX;
        const bool am = y == (bool)q.dMFast; // the side is A's M side (Y when D runs along M)
        const unsigned short* const X = am ? A : B;
        const OFF* const rowOff = static_cast<const OFF*>(am ? q.aM : q.bN);
        const OFF* const kOff = static_cast<const OFF*>(am ? q.aK : q.bK);
        const OFF* const lOff = static_cast<const OFF*>(am ? q.aL : q.bL);
        const int tile = y ? s.yTile : s.xTile, size = y ? s.ySize : s.xSize, rows = y ? s.rowsY : s.rowsX;
        const IDX sideRow = y ? row - rowsAllX : row, image = sideRow / (IDX)rows;
        const int r = (int)(sideRow - image * rows);
        const IDX l = image / (IDX)(y ? s.tilesY : s.tilesX);
        const int t = (int)(image - l * (y ? s.tilesY : s.tilesX)), at = t * tile + r;
        unsigned short e[8];
        const bool live = r < tile && at < size;
        const long long base = live ? (long long)lOff[l] + rowOff[at] : 0;
#pragma unroll
        for (int i = 0; i < 8; ++i) e[i] = live && c0 + i < q.k ? X[base + kOff[c0 + i]] : 0;
        uint4 w;
        memcpy(&w, e, sizeof w);
        reinterpret_cast<uint4*>(work + (y ? q.packY : q.packX))[sideRow * rowUnits + (IDX)c0 / 8] = w;
    }
}

// Steps 2 and 3. TAB: the mma's input type; TD: D's type (TAB or float); NY: Y fragments a warp
// holds (MX = 8 / NY along X, core/gett_dtile_shape.h's warp grid); BETA: D = alpha AB + beta C
// (the direct path only, C with D's strides), else D = alpha AB.
template <typename TAB, typename TD, int NY, bool BETA>
static __global__ void __launch_bounds__(THREADS, CTR_DTILE_BLOCKS_PER_SM)
    kernel(const cuperm_gett_params_t q, const char* __restrict__ work, void* D, float alpha, const void* C, float beta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    typedef typename Conv<TD>::raw R;
    constexpr int MX = CTR_DTILE_WARP_FRAGMENTS / NY;
    extern __shared__ __align__(128) unsigned char smem[];
    // The ring of S stages: a stage's panels landed / read by every working thread, and the outer
    // image it holds (key: batch index and outer tile; -1 none). (Rings of 3 and 4 stages ran no
    // faster on TCCG 31-48: H200, session 51.)
    constexpr int S = CTR_DTILE_PACKED_STAGES;
    __shared__ uint64_t full[S], empty[S];
    __shared__ long long held[S];
    const Sides s(q);
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t4 = lane % 4;
    const unsigned xBytes = s.rowsX * s.ld * 2, yBytes = s.rowsY * s.ld * 2;
    R* const stage = reinterpret_cast<R*>(smem + S * (xBytes + yBytes));
    int warpsX, warpsY;
    cuperm_ctr_dtile_ny(s.xTile, s.yTile, &warpsX, &warpsY);
    const int fx0 = warp / warpsY * MX, fy0 = warp % warpsY * NY;
    const bool working = warp < warpsX * warpsY;

    // Work items as the gathering kernel walks them (batch index, outer tile, inner tile), the
    // outer side the one with the larger panel; each block a contiguous range.
    const bool outerX = cuperm_ctr_dtile_outer_x(s.xTile, s.yTile);
    const int outerTiles = outerX ? s.tilesX : s.tilesY, innerTiles = outerX ? s.tilesY : s.tilesX;
    const long long items = (long long)s.tilesX * s.tilesY * q.batch;
    const long long per = items / gridDim.x, extra = items % gridDim.x;
    const long long begin = blockIdx.x * per + min((long long)blockIdx.x, extra);
    const long long end = begin + per + (blockIdx.x < extra);

    // Thread 0 loads item j into stage st: its inner image always, its outer one where the stage
    // held another.
    const char* const imagesX = work + q.packX;
    const char* const imagesY = work + q.packY;
    auto issue = [&](long long j, int st) {
        const long long key = j / innerTiles;
        const int inner = (int)(j % innerTiles), outer = (int)(key % outerTiles);
        const long long l = key / outerTiles;
        const int tx = outerX ? outer : inner, ty = outerX ? inner : outer;
        unsigned char* const xs = smem + st * (xBytes + yBytes);
        unsigned char* const ys = xs + xBytes;
        const bool both = key != held[st];
        held[st] = key;
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); // the stage's reads came first
        mbar_expect(&full[st], (outerX ? yBytes : xBytes) + (both ? (outerX ? xBytes : yBytes) : 0));
        if (!outerX || both) bulk_load(xs, imagesX + (l * s.tilesX + tx) * xBytes, xBytes, &full[st]);
        if (outerX || both) bulk_load(ys, imagesY + (l * s.tilesY + ty) * yBytes, yBytes, &full[st]);
    };
    if (tid == 0) {
        for (int i = 0; i < S; ++i) mbar_init(&full[i], 1), mbar_init(&empty[i], 32 * warpsX * warpsY), held[i] = -1;
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncthreads();

    // One step of 16 along K: fragments from the stage's panels, products into acc (the first
    // step writes them: no cleared accumulators, and no per-step branch between the two forms).
    float acc[MX][NY][4];
    auto products = [&](const unsigned char* xs, const unsigned char* ys, int k0, auto first) {
        unsigned b[NY][2];
#pragma unroll
        for (int jj = 0; jj < NY; jj += 2) { // two 8-row fragments a load: rows n, k halves
            const int r = (fy0 + jj) * 8 + (lane / 16) * 8 + lane % 8, c = k0 + (lane / 8) % 2 * 8;
            unsigned v[4];
            ldsm_x4(v, ys + (r * s.ld + c) * 2);
            b[jj][0] = v[0], b[jj][1] = v[1], b[jj + 1][0] = v[2], b[jj + 1][1] = v[3];
        }
#pragma unroll
        for (int i = 0; i < MX; ++i) {
            const int r = (fx0 + i) * 16 + lane % 16, c = k0 + lane / 16 * 8;
            unsigned a[4];
            ldsm_x4(a, xs + (r * s.ld + c) * 2);
#pragma unroll
            for (int jj = 0; jj < NY; ++jj) {
                if constexpr (decltype(first)::value) mma_first<TAB>(acc[i][jj], a, b[jj][0], b[jj][1]);
                else mma<TAB>(acc[i][jj], a, b[jj][0], b[jj][1]);
            }
        }
    };
    // Item j is stage st's in its pass ph (parity) around the ring: thread 0 fills the ring; then
    // working warp `who` (each in turn, item after item) refills a stage with item j + S once every
    // working thread has read item j from it. (Left to thread 0, the refills made its warp a
    // quarter slower than the others, which then waited for it: clock64 probes, TCCG 31, H200,
    // session 51. The last warp to read a stage refilling it, counted with fenced shared-memory
    // atomics, was slower still: its fences waited for the warp's stores.)
    auto multiply = [&](int st, unsigned ph) {
        mbar_wait(&full[st], ph);
        const unsigned char* const xs = smem + st * (xBytes + yBytes);
        const unsigned char* const ys = xs + xBytes;
        products(xs, ys, 0, std::true_type());
        for (int k0 = 16; k0 < q.dtileK; k0 += 16) products(xs, ys, k0, std::false_type());
    };
    auto start = [&]() {
        asm volatile("griddepcontrol.wait;" ::: "memory"); // the pack kernel's images are complete
        if (tid == 0)
            for (int i = 0; i < S && begin + i < end; ++i) issue(begin + i, i);
    };
    const int W = warpsX * warpsY;
    auto refill = [&](long long j, int st, unsigned ph, int who, bool read) {
        if (warp == who && lane == 0 && j + S < end) {
            if (!read) mbar_wait(&empty[st], ph);
            issue(j + S, st);
        }
    };
    constexpr int PER = 16 / (int)sizeof(R); // elements a 16-byte piece

    if (q.packedDirect) {
        // Direct path (the plan's cuperm_ctr_dtile_direct_pieces): every 16-byte piece of the tile
        // is one fragment row's run along Y, held by L = PER / 2 neighbouring lanes (a pair each).
        // Those lanes exchange pairs (an L x L transposition by shuffles) so that each holds whole
        // pieces and stores them from registers: no staging, and no barrier among the warps; a
        // stage's panels are reloaded once every working thread has arrived on its empty barrier.
        if (!working) return;
        constexpr int L = PER / 2, SLOTS = MX * 2 * NY, PIECES = SLOTS / L;
        const int u = t4 % L; // this lane's place among the L; it stores slot (p L + u)'s piece
        int pos[PIECES];      // that piece's element in the tile (-1: past it)
#pragma unroll
        for (int p = 0; p < PIECES; ++p) {
            const int sl = p * L + u, i = sl / (2 * NY), h = sl / NY % 2, jj = sl % NY;
            const int x = (fx0 + i) * 16 + g + 8 * h, y = (fy0 + jj) * 8 + t4 / L * PER;
            pos[p] = x < s.xTile && y < s.yTile ? q.stageX[x] + q.stageY[y] : -1;
        }
        start();
        int st = 0, who = 0;
        unsigned ph = 0;
        for (long long j = begin; j < end; ++j) {
            multiply(st, ph);
            mbar_arrive(&empty[st]); // every lane: each orders its own reads of the panels
            R* const Dt = static_cast<R*>(D) + q.tileBase[j];
            const R* const Ct = BETA ? static_cast<const R*>(C) + q.tileBase[j] : nullptr;
            // slot sl = (i 2 + h) NY + jj: accumulators (2h, 2h + 1) of fragment (i, jj)
            if constexpr (L == 4) { // 16-bit D: a pair is one word; a quad holds 4 pieces a step
#pragma unroll
                for (int p = 0; p < PIECES; ++p) {
                    unsigned c[4] = {0, 0, 0, 0};
                    if constexpr (BETA) {
                        if (pos[p] >= 0) {
                            const uint4 v = *reinterpret_cast<const uint4*>(Ct + pos[p]);
                            c[0] = v.x, c[1] = v.y, c[2] = v.z, c[3] = v.w;
                        }
                        exchange(c, u); // lane u: C's pair u of this step's 4 pieces
                    }
                    unsigned w[4];
#pragma unroll
                    for (int m = 0; m < 4; ++m) {
                        const int sl = p * 4 + m, i = sl / (2 * NY), h = sl / NY % 2, jj = sl % NY;
                        float v[2] = {alpha * acc[i][jj][2 * h], alpha * acc[i][jj][2 * h + 1]};
                        if constexpr (BETA)
                            v[0] += beta * Conv<TD>::load((R)(c[m] & 0xffff)), v[1] += beta * Conv<TD>::load((R)(c[m] >> 16));
                        R y2[2];
                        Conv<TD>::template store_run<2>(v, y2);
                        w[m] = (unsigned)y2[0] | (unsigned)y2[1] << 16;
                    }
                    exchange(w, u); // lane u: slot (4p + u)'s whole piece
                    if (pos[p] >= 0) *reinterpret_cast<uint4*>(Dt + pos[p]) = make_uint4(w[0], w[1], w[2], w[3]);
                }
            } else { // fp32 D: a pair is two words; lanes u ^ 1 exchange one pair
#pragma unroll
                for (int p = 0; p < PIECES; ++p) {
                    float2 c[2] = {make_float2(0.f, 0.f), make_float2(0.f, 0.f)};
                    if constexpr (BETA) {
                        if (pos[p] >= 0) {
                            const float4 v = *reinterpret_cast<const float4*>(Ct + pos[p]);
                            c[0] = make_float2(v.x, v.y), c[1] = make_float2(v.z, v.w);
                        }
                        exchange(c, u);
                    }
                    float2 w[2];
#pragma unroll
                    for (int m = 0; m < 2; ++m) {
                        const int sl = p * 2 + m, i = sl / (2 * NY), h = sl / NY % 2, jj = sl % NY;
                        w[m] = make_float2(alpha * acc[i][jj][2 * h], alpha * acc[i][jj][2 * h + 1]);
                        if constexpr (BETA) w[m].x += beta * c[m].x, w[m].y += beta * c[m].y;
                    }
                    exchange(w, u);
                    if (pos[p] >= 0) *reinterpret_cast<float4*>(Dt + pos[p]) = make_float4(w[0].x, w[0].y, w[1].x, w[1].y);
                }
            }
            refill(j, st, ph, who, false);
            if (++st == S) st = 0, ph ^= 1;
            if (++who == W) who = 0;
        }
        return;
    }

    if constexpr (!BETA) { // the staged path: beta = 0 only
    // Staged path. Where this thread stages its outputs, the same in every tile (whole modes, one block of D):
    // accumulators (2h, 2h + 1) of fragment (i, jj) are X row (fx0 + i) 16 + g + 8h, Y columns
    // (fy0 + jj) 8 + 2 t4 and the next, neighbours in D (the plan's even fastest extent). Outputs
    // past the tile go to a spare 16 bytes after the staging: no branches around the stores. Two
    // stagings, that many elements apart, alternate between items.
    const int volume = s.xTile * s.yTile;
    const int spare = cuperm_ctr_dtile_stage_bytes(volume, q.stageShift, q.stagePad, (int)sizeof(R)) / (int)sizeof(R);
    const int pitch = spare + 16 / (int)sizeof(R);
    int at[MX][2][NY];
#pragma unroll
    for (int i = 0; i < MX; ++i)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int x = (fx0 + i) * 16 + g + 8 * h;
            const int sx = working && x < s.xTile ? q.stageX[x] : -1;
#pragma unroll
            for (int jj = 0; jj < NY; ++jj) {
                const int y = (fy0 + jj) * 8 + 2 * t4;
                const int sy = y < s.yTile ? q.stageY[y] : -1;
                at[i][h][jj] = sx >= 0 && sy >= 0 ? cuperm_ctr_dtile_stage_at(sx + sy, q.stageShift, q.stagePad) : spare;
            }
        }
    const int pieces = volume / PER;

    start();

    // One barrier an item: it ends every thread's reads of item j's panels (stage st refills at
    // once) and of the other staging (item j - 1's stores), which item j + 1 overwrites.
    int st = 0, who = 0;
    unsigned ph = 0;
    for (long long j = begin; j < end; ++j) {
        if (working) multiply(st, ph);
        R* const out = stage + (int)((j - begin) & 1) * pitch;
        if (working) {
#pragma unroll
            for (int i = 0; i < MX; ++i)
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int jj = 0; jj < NY; ++jj) {
                        const float v[2] = {alpha * acc[i][jj][2 * h], alpha * acc[i][jj][2 * h + 1]};
                        R y2[2];
                        Conv<TD>::template store_run<2>(v, y2);
                        vec_store<R, 2>(out + at[i][h][jj], y2);
                    }
        }
        __syncthreads();
        refill(j, st, ph, who, true); // the barrier ended every read of stage st
        if (++st == S) st = 0, ph ^= 1;
        if (++who == W) who = 0;
        R* const Dt = static_cast<R*>(D) + q.tileBase[j];
        for (int p = tid; p < pieces; p += THREADS) {
            const int e = p * PER;
            *reinterpret_cast<uint4*>(Dt + e) =
                *reinterpret_cast<const uint4*>(out + cuperm_ctr_dtile_stage_at(e, q.stageShift, q.stagePad));
        }
    }
    }
#else
    __trap(); // bulk copies need sm_90; cuperm_gett_dtile_packed_available() keeps plans off this path
#endif
}

// A run's operands and scalars (C read only where C != nullptr).
struct Run {
    const char* work;
    void* D;
    const void* C;
    float alpha, beta;
};

template <typename TAB, typename TD, int NY, bool BETA>
static cudaError_t launch_ny(const cuperm_gett_params_t* q, const Run& r, cudaStream_t stream)
{
    auto* k = kernel<TAB, TD, NY, BETA>;
    const cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, q->packedSmem);
    if (e != cudaSuccess) return e;
    // Programmatic dependent launch: the blocks start while the pack kernel finishes and set up
    // (barriers, staging places) before their griddepcontrol.wait.
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = q->packed != 2;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)q->gridBlocks);
    cfg.blockDim = dim3(THREADS);
    cfg.dynamicSmemBytes = (size_t)q->packedSmem;
    cfg.stream = stream;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cudaLaunchKernelEx(&cfg, k, *q, r.work, r.D, r.alpha, r.C, r.beta);
}

template <typename TAB, typename TD, int NY>
static cudaError_t launch_beta(const cuperm_gett_params_t* q, const Run& r, cudaStream_t stream)
{
    return r.C ? launch_ny<TAB, TD, NY, true>(q, r, stream) : launch_ny<TAB, TD, NY, false>(q, r, stream);
}

template <typename TAB, typename TD>
static cudaError_t launch(const cuperm_gett_params_t* q, const Run& r, cudaStream_t stream)
{
    const Sides s(*q);
    switch (cuperm_ctr_dtile_ny(s.xTile, s.yTile, nullptr, nullptr)) {
    case 2: return launch_beta<TAB, TD, 2>(q, r, stream);
    case 4: return launch_beta<TAB, TD, 4>(q, r, stream);
    case 8: return launch_beta<TAB, TD, 8>(q, r, stream);
    default: return cudaErrorInvalidValue; // the plan's tile fits the warp grid (gett_dtile.c)
    }
}

template <typename TAB> static cudaError_t launch_cd(const cuperm_gett_params_t* q, const Run& r, cudaStream_t stream)
{
    if (q->cdType == CUPERM_R_32F) return launch<TAB, float>(q, r, stream);
    return launch<TAB, TAB>(q, r, stream);
}

} // namespace dtile_packed
} // namespace gett
} // namespace cuperm

extern "C" cudaError_t cuperm_gett_dtile_packed_launch(const cuperm_gett_params_t* q, const void* A, const void* B,
                                                       const void* C, void* D, float alpha, float beta, int useBeta,
                                                       void* workspace, cudaStream_t stream)
{
    using namespace cuperm::gett::dtile_packed;
    if (useBeta && !(q->packedDirect && q->packedC)) return cudaErrorInvalidValue; // cuperm_gett_dtile_packed_takes
    if ((long long)q->mTiles * q->nTiles == 0 || q->batch == 0 || q->gridBlocks == 0) return cudaSuccess;
    const Sides s(*q);
    const long long units =
        (long long)q->batch * ((long long)s.tilesX * s.rowsX + (long long)s.tilesY * s.rowsY) * (s.ld / 8);
    const long long blocks = (units + THREADS - 1) / THREADS;
    const unsigned grid = (unsigned)(blocks < 65535 ? blocks : 65535);
    const unsigned short *a = static_cast<const unsigned short*>(A), *b = static_cast<const unsigned short*>(B);
    char* const work = static_cast<char*>(workspace);
    const bool idx32 = units + (long long)grid * THREADS <= (long long)UINT32_MAX; // the loop's last step too
    if (q->off32)
        idx32 ? pack<int32_t, uint32_t><<<grid, THREADS, 0, stream>>>(*q, s, a, b, work)
              : pack<int32_t, unsigned long long><<<grid, THREADS, 0, stream>>>(*q, s, a, b, work);
    else
        idx32 ? pack<int64_t, uint32_t><<<grid, THREADS, 0, stream>>>(*q, s, a, b, work)
              : pack<int64_t, unsigned long long><<<grid, THREADS, 0, stream>>>(*q, s, a, b, work);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) return e;
    const Run r = {work, D, useBeta ? C : nullptr, alpha, useBeta ? beta : 0.0f};
    if (q->abType == CUPERM_R_16F) return launch_cd<__half>(q, r, stream);
    return launch_cd<__nv_bfloat16>(q, r, stream);
}

extern "C" int cuperm_gett_dtile_packed_available(void)
{
    cudaFuncAttributes a;
    if (cudaFuncGetAttributes(&a, cuperm::gett::dtile_packed::kernel<__half, __half, 2, false>) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    int device = 0, major = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.ptxVersion >= 90 && major >= 9;
}
