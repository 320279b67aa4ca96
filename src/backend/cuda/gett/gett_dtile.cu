// The D-tile GETT kernel: contractions with a short K (at most 64), whose cost is writing D.
//
// A block owns tiles of tm x tn outputs: tm consecutive m and tn consecutive n, with M and N
// ordered by D's strides and the tile made of D's leading modes (plan/contraction/gett_dtile.h),
// so a tile's piece of D is contiguous or made of long runs. The side along D's fastest direction
// is the Y side, the other the X side (core/gett_dtile_shape.h). Blocks are persistent, each
// walking a contiguous range of work items (batch index, outer tile, inner tile; the outer side is
// the one with the larger panel), and per item
//   1. gathers the inner side's panel (and the outer side's where it changed) through the offset
//      tables into shared memory, k contiguous, zero past the extents;
//   2. multiplies the panels with mma.sync.m16n8k16 (fp32 accumulators), each warp a grid of
//      MX x NY fragments of 16 (X) x 8 (Y);
//   3. writes D (= alpha acc + beta C) from the accumulators, whose pairs lie along D's runs: with
//      beta = 0 and runs of 8 (16-bit D) through the warp's own staging in whole 16-byte pieces
//      (full sectors), else as pairs where D's runs allow, else one by one.
// Where the inner side is whole modes its panels go through a slot table built once a block, and
// the next item's panel is loaded before this item's products (core/gett_dtile_shape.h).
// Every element of D (and of C, which may be D) is read and written by one thread once.
#include "backend/cuda/gett/gett.h"
#include "backend/cuda/gett/gett_elements.cuh"
#include "core/gett_dtile_shape.h"

#include <stdint.h>

namespace cuperm {
namespace gett {
namespace dtile {

constexpr int THREADS = 256, WARPS = THREADS / 32;
static_assert(CTR_DTILE_WARPS == WARPS, "the plan's warp grid");
// Runs of W elements a thread loads before it stores them: 16 or 32 bytes in flight.
template <int W> constexpr int inflight() { return W >= 4 ? 4 : 8; }

// Panel of rowsPad x kp 16-bit elements (row r, k contiguous, ld halves a row) of operand X:
// element (r, c) = X[rowOff[r] + kOff[c]] for r < rows and c < k, else 0. The loads take runs of
// W elements along the operand's fast direction (K when kFast, else the rows), contiguous and
// W-aligned in memory where the plan's run width says so: one vector load each, then W shared
// stores (one 2W-byte store when the run lies along K). Threads walk the runs with additions only
// (a division per element made the kernel issue-bound), inflight<W>() runs loaded before any store.
// W 16-bit elements packed in registers (a short array would take a register per element).
template <int W> struct Run { typedef typename VecOf<2 * W>::type type; };
template <> struct Run<1> { typedef unsigned short type; };

// Stores run v at panel address at: one 2W-byte store along K (kFast), else W stores a row apart.
template <int W, typename V>
__device__ __forceinline__ void put_run(unsigned short* P, int at, const V& v, int ld, bool kFast)
{
    if (kFast) {
        *reinterpret_cast<V*>(P + at) = v;
    } else {
        unsigned short e[W];
        memcpy(e, &v, sizeof v);
#pragma unroll
        for (int j = 0; j < W; ++j) P[at + j * ld] = e[j];
    }
}

template <typename OFF, int W>
__device__ __forceinline__ void load_panel(unsigned short* P, const unsigned short* X, const OFF* rowOff,
                                           const OFF* kOff, int rows, int rowsPad, int k, int kp, int ld,
                                           bool kFast, int tid)
{
    typedef typename Run<W>::type V;
    // Run q of line `line`: kFast: line = row, q along K; else line = k, q along the rows. The
    // launch makes W divide the valid extent along the runs, so a run is wholly inside or outside.
    const int perLine = (kFast ? kp : rowsPad) / W, lines = kFast ? rowsPad : kp, total = perLine * lines;
    const int dLine = THREADS / perLine, dQ = THREADS % perLine;
    const int rl = kFast, rq = kFast ? 0 : W, cl = !kFast, cq = kFast ? W : 0; // (row, k) = line x (rl, cl) + q x (rq, cq)
    int line = tid / perLine, q = tid % perLine;
    constexpr int INFLIGHT = inflight<W>();
    for (int base = tid; base < total; base += THREADS * INFLIGHT) {
        V v[INFLIGHT];
        int at[INFLIGHT];
#pragma unroll
        for (int u = 0; u < INFLIGHT; ++u) {
            const int r0 = line * rl + q * rq, c0 = line * cl + q * cq;
            at[u] = base + u * THREADS < total ? r0 * ld + c0 : -1;
            v[u] = at[u] >= 0 && r0 < rows && c0 < k ? *reinterpret_cast<const V*>(X + rowOff[r0] + kOff[c0]) : V();
            line += dLine, q += dQ;
            if (q >= perLine) q -= perLine, ++line;
        }
#pragma unroll
        for (int u = 0; u < INFLIGHT; ++u)
            if (at[u] >= 0) put_run<W>(P, at[u], v[u], ld, kFast);
    }
}

template <typename OFF>
__device__ __forceinline__ void load_panel_w(int w, unsigned short* P, const unsigned short* X, const OFF* rowOff,
                                             const OFF* kOff, int rows, int rowsPad, int k, int kp, int ld,
                                             bool kFast, int tid)
{
    switch (w) {
    case 8: load_panel<OFF, 8>(P, X, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    case 4: load_panel<OFF, 4>(P, X, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    case 2: load_panel<OFF, 2>(P, X, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    default: load_panel<OFF, 1>(P, X, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    }
}


// The inner panel's slot table (core/gett_dtile_shape.h), built once a block: slot s is a run of W
// elements along the panel's fast direction, as load_panel walks them; T[s] = (its offset from
// the tile's first row, or -1 where it lies past the extents; its shared address in halves).
template <int W, typename OFF>
__device__ __forceinline__ void build_slots(int2* T, const OFF* rowOff, const OFF* kOff, int rows, int rowsPad, int k,
                                            int kp, int ld, bool kFast, int tid)
{
    const int perLine = (kFast ? kp : rowsPad) / W, total = perLine * (kFast ? rowsPad : kp);
    for (int s = tid; s < total; s += THREADS) {
        const int line = s / perLine, q = s % perLine;
        const int r = kFast ? line : q * W, c = kFast ? q * W : line;
        T[s] = make_int2(r < rows && c < k ? (int)(rowOff[r] + kOff[c]) : -1, r * ld + c);
    }
}

template <typename OFF>
__device__ __forceinline__ void build_slots_w(int w, int2* T, const OFF* rowOff, const OFF* kOff, int rows,
                                              int rowsPad, int k, int kp, int ld, bool kFast, int tid)
{
    switch (w) {
    case 8: build_slots<8, OFF>(T, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    case 4: build_slots<4, OFF>(T, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    case 2: build_slots<2, OFF>(T, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    default: build_slots<1, OFF>(T, rowOff, kOff, rows, rowsPad, k, kp, ld, kFast, tid); break;
    }
}

// The next item's inner panel in flight: each thread's slots (PREFETCH at most, runs of up to 16
// bytes) loaded into registers during this item's epilogue and stored to the panel after the
// next item's first barrier, so the loads' latency hides behind the stores to D.
constexpr int PREFETCH = 4;
struct Prefetch {
    uint4 v[PREFETCH];
    int at[PREFETCH];
};

template <int W>
__device__ __forceinline__ void slots_load(Prefetch& f, const unsigned short* X, const int2* T, int total, int tid)
{
    typedef typename Run<W>::type V;
#pragma unroll
    for (int u = 0; u < PREFETCH; ++u) {
        const int s = tid + u * THREADS;
        const int2 e = s < total ? T[s] : make_int2(-1, -1);
        f.at[u] = s < total ? e.y : -1;
        const V x = e.x >= 0 ? *reinterpret_cast<const V*>(X + e.x) : V();
        memcpy(&f.v[u], &x, sizeof x);
    }
}

template <int W> __device__ __forceinline__ void slots_store(unsigned short* P, const Prefetch& f, int ld, bool kFast)
{
    typedef typename Run<W>::type V;
#pragma unroll
    for (int u = 0; u < PREFETCH; ++u) {
        if (f.at[u] < 0) continue;
        V x;
        memcpy(&x, &f.v[u], sizeof x);
        put_run<W>(P, f.at[u], x, ld, kFast);
    }
}

__device__ __forceinline__ void slots_load_w(int w, Prefetch& f, const unsigned short* X, const int2* T, int total,
                                             int tid)
{
    switch (w) {
    case 8: slots_load<8>(f, X, T, total, tid); break;
    case 4: slots_load<4>(f, X, T, total, tid); break;
    case 2: slots_load<2>(f, X, T, total, tid); break;
    default: slots_load<1>(f, X, T, total, tid); break;
    }
}

__device__ __forceinline__ void slots_store_w(int w, unsigned short* P, const Prefetch& f, int ld, bool kFast)
{
    switch (w) {
    case 8: slots_store<8>(P, f, ld, kFast); break;
    case 4: slots_store<4>(P, f, ld, kFast); break;
    case 2: slots_store<2>(P, f, ld, kFast); break;
    default: slots_store<1>(P, f, ld, kFast); break;
    }
}

// A whole panel through the slot table (total slots): one table read and one load a run, 4 runs in
// flight a thread, stored straight away (the prefetch's registers stay free).
template <int W>
__device__ __forceinline__ void gather_slots(unsigned short* P, const unsigned short* X, const int2* T, int total,
                                             int ld, bool kFast, int tid)
{
    typedef typename Run<W>::type V;
    constexpr int U = 4;
    for (int s0 = tid; s0 < total; s0 += THREADS * U) {
        V v[U];
        int2 e[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
            e[u] = s0 + u * THREADS < total ? T[s0 + u * THREADS] : make_int2(-1, -1);
            v[u] = e[u].x >= 0 ? *reinterpret_cast<const V*>(X + e[u].x) : V();
        }
#pragma unroll
        for (int u = 0; u < U; ++u)
            if (e[u].y >= 0) put_run<W>(P, e[u].y, v[u], ld, kFast);
    }
}

__device__ __forceinline__ void gather_slots_w(int w, unsigned short* P, const unsigned short* X, const int2* T,
                                               int total, int ld, bool kFast, int tid)
{
    switch (w) {
    case 8: gather_slots<8>(P, X, T, total, ld, kFast, tid); break;
    case 4: gather_slots<4>(P, X, T, total, ld, kFast, tid); break;
    case 2: gather_slots<2>(P, X, T, total, ld, kFast, tid); break;
    default: gather_slots<1>(P, X, T, total, ld, kFast, tid); break;
    }
}

// Work item i of a block's range as (batch index, outer tile, inner tile), stepped by one.
struct Item {
    long long l;
    int outer, inner;
    __device__ __forceinline__ void next(int outerTiles, int innerTiles)
    {
        if (++inner < innerTiles) return;
        inner = 0;
        if (++outer < outerTiles) return;
        outer = 0;
        ++l;
    }
};

// YM: the Y side is M (D's runs along M), compile-time so that the sides' tables stay kernel
// parameters rather than registers.
template <typename TAB, typename TD, typename OFF, int NY, bool YM>
static __global__ void __launch_bounds__(THREADS, CTR_DTILE_BLOCKS_PER_SM)
    kernel(const cuperm_gett_params_t q, const unsigned short* A, const unsigned short* B, const void* C, void* D,
           float alpha, float beta, int useBeta, int wa, int wb, int wc, int wd)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    typedef typename Conv<TD>::raw R;
    constexpr int MX = CTR_DTILE_WARP_FRAGMENTS / NY;
    extern __shared__ __align__(16) unsigned char smem[];
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32, g = lane / 4, t4 = lane % 4;
    // The two sides (X: rows of the mma's A fragments; Y: its B fragments, along D's fastest
    // direction): operand, offsets along the side, along K and per batch index, D's and C's
    // offsets along the side, tile, extent, load direction and width.
    const unsigned short* const Xop = YM ? B : A;
    const unsigned short* const Yop = YM ? A : B;
    const OFF *const xRow = static_cast<const OFF*>(YM ? q.bN : q.aM), *const yRow = static_cast<const OFF*>(YM ? q.aM : q.bN);
    const OFF *const xK = static_cast<const OFF*>(YM ? q.bK : q.aK), *const yK = static_cast<const OFF*>(YM ? q.aK : q.bK);
    const OFF *const xL = static_cast<const OFF*>(YM ? q.bL : q.aL), *const yL = static_cast<const OFF*>(YM ? q.aL : q.bL);
    const OFF *const xD = static_cast<const OFF*>(YM ? q.dN : q.dM), *const yD = static_cast<const OFF*>(YM ? q.dM : q.dN);
    const OFF *const xC = static_cast<const OFF*>(YM ? q.cN : q.cM), *const yC = static_cast<const OFF*>(YM ? q.cM : q.cN);
    const int xTile = YM ? q.dtileN : q.dtileM, yTile = YM ? q.dtileM : q.dtileN;
    const int xSize = YM ? q.n : q.m, ySize = YM ? q.m : q.n;
    const int xKFast = YM ? q.bKFast : q.aKFast, yKFast = YM ? q.aKFast : q.bKFast;
    const int wx = YM ? wb : wa, wy = YM ? wa : wb;
    const int kp = q.dtileK, ld = cuperm_ctr_dtile_ld(kp);
    int rowsX, rowsY; // the panels' rows: the tile's sides padded to the warp grid
    cuperm_ctr_dtile_panel_rows(xTile, yTile, &rowsX, &rowsY);
    unsigned short* Xs = reinterpret_cast<unsigned short*>(smem);
    unsigned short* Ys = Xs + rowsX * ld;
    const unsigned* X32 = reinterpret_cast<const unsigned*>(Xs);
    const unsigned* Y32 = reinterpret_cast<const unsigned*>(Ys);
    int warpsX, warpsY;
    cuperm_ctr_dtile_ny(xTile, yTile, &warpsX, &warpsY);
    // Warp (wx, wy) owns X fragments fx0.. fx0 + MX - 1 and Y fragments fy0.. fy0 + NY - 1; warps past
    // the grid only help with the loads.
    const int fx0 = warp / warpsY * MX, fy0 = warp % warpsY * NY;
    const bool working = warp < warpsX * warpsY;

    const int tilesX = (xSize + xTile - 1) / xTile, tilesY = (ySize + yTile - 1) / yTile;
    const bool outerX = cuperm_ctr_dtile_outer_x(xTile, yTile); // the larger panel stays
    const int outerTiles = outerX ? tilesX : tilesY, innerTiles = outerX ? tilesY : tilesX;
    const long long items = (long long)tilesX * tilesY * q.batch;
    const long long per = items / gridDim.x, extra = items % gridDim.x;
    const long long begin = blockIdx.x * per + min((long long)blockIdx.x, extra);
    const long long end = begin + per + (blockIdx.x < extra);
    Item it;
    it.inner = (int)(begin % innerTiles);
    it.outer = (int)(begin / innerTiles % outerTiles);
    it.l = begin / innerTiles / outerTiles;
    // The inner side: operand, tables, panel, run width and direction.
    const unsigned short* const inOp = outerX ? Yop : Xop;
    const OFF *const inRow = outerX ? yRow : xRow, *const inK = outerX ? yK : xK, *const inL = outerX ? yL : xL;
    unsigned short* const inP = outerX ? Ys : Xs;
    const int inW = outerX ? wy : wx, inKFast = outerX ? yKFast : xKFast, inRows = outerX ? rowsY : rowsX;
    const int inTile = outerX ? yTile : xTile, inSize = outerX ? ySize : xSize;
    // Its slot table, where the plan gave one (its side is whole modes; 32-bit offsets), and then
    // the next item's panel prefetched where a thread's slots fit in registers.
    const bool slots = sizeof(OFF) == 4 && q.dtileSlotBytes > 0;
    int2* T = reinterpret_cast<int2*>(smem + (rowsX + rowsY) * ld * 2);
    if (slots) build_slots_w<OFF>(inW, T, inRow, inK, inTile, inRows, q.k, kp, ld, inKFast, tid);
    const int slotCount = (inKFast ? kp : inRows) / inW * (inKFast ? inRows : kp);
    const bool pipe = slots && slotCount <= PREFETCH * THREADS;
    Prefetch pf;
    bool pending = false;
    // D's runs of 8 (16 bytes of 16-bit D) without C: written through the warps' staging.
    const bool stage = sizeof(R) == 2 && wd >= 8 && !useBeta;
    unsigned* const stageBase = reinterpret_cast<unsigned*>(smem + q.smemBytes - CTR_DTILE_STAGE_BYTES);
    long long loadedL = -1;
    int loadedOuter = -1;
    for (long long item = begin; item < end; ++item, it.next(outerTiles, innerTiles)) {
        const int tx = outerX ? it.outer : it.inner, ty = outerX ? it.inner : it.outer;
        const int x0 = tx * xTile, y0 = ty * yTile;
        const int xv = min(xTile, xSize - x0), yv = min(yTile, ySize - y0);
        const int i0 = it.inner * inTile;
        const bool reload = it.outer != loadedOuter || it.l != loadedL;
        __syncthreads(); // every warp is done with the panels (and, first, the slot table is built)
        if (reload) {
            if (outerX)
                load_panel_w<OFF>(wx, Xs, Xop + xL[it.l], xRow + x0, xK, xv, rowsX, q.k, kp, ld, xKFast, tid);
            else
                load_panel_w<OFF>(wy, Ys, Yop + yL[it.l], yRow + y0, yK, yv, rowsY, q.k, kp, ld, yKFast, tid);
        }
        if (pending)
            slots_store_w(inW, inP, pf, ld, inKFast);
        else if (slots)
            gather_slots_w(inW, inP, inOp + inL[it.l] + inRow[i0], T, slotCount, ld, inKFast, tid);
        else
            load_panel_w<OFF>(inW, inP, inOp + inL[it.l], inRow + i0, inK, min(inTile, inSize - i0), inRows, q.k, kp,
                              ld, inKFast, tid);
        loadedOuter = it.outer, loadedL = it.l;
        __syncthreads();

        // The next item's inner panel, in flight during this item's products and stores.
        pending = false;
        if (pipe && item + 1 < end) {
            Item nx = it;
            nx.next(outerTiles, innerTiles);
            slots_load_w(inW, pf, inOp + inL[nx.l] + inRow[nx.inner * inTile], T, slotCount, tid);
            pending = true;
        }
        if (!working) continue;

        // The epilogue's offsets, loaded before the products so that their latency overlaps them:
        // staged, lane (rr, c) writes 16-byte piece c of rows rr, rr + 32 / NY, ... of the warp's
        // rows (D's runs of 8 along Y); else each thread its fragments' rows and column pairs.
        constexpr int PASSES = MX * NY / 2, PER_PASS = 32 / NY; // rows a pass: 32 lanes / NY pieces a row
        OFF dy[NY], dx[MX][2], dxs[PASSES];
        bool vy[NY][2], vx[MX][2], vxs[PASSES];
        if (stage) {
            const int yc = fy0 * 8 + lane % NY * 8;
            vy[0][0] = yc < yv;
            dy[0] = vy[0][0] ? yD[y0 + yc] : OFF(0);
#pragma unroll
            for (int p = 0; p < PASSES; ++p) {
                const int x = fx0 * 16 + p * PER_PASS + lane / NY;
                vxs[p] = vy[0][0] && x < xv;
                dxs[p] = vxs[p] ? xD[x0 + x] : OFF(0);
            }
        } else {
#pragma unroll
            for (int j = 0; j < NY; ++j) {
                const int y = (fy0 + j) * 8 + 2 * t4;
                vy[j][0] = y < yv;
                vy[j][1] = vy[j][0] && y + 1 < yv;
                dy[j] = vy[j][0] ? yD[y0 + y] : OFF(0);
            }
#pragma unroll
            for (int i = 0; i < MX; ++i)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int x = (fx0 + i) * 16 + g + 8 * h;
                    vx[i][h] = x < xv;
                    dx[i][h] = vx[i][h] ? xD[x0 + x] : OFF(0);
                }
        }

        float acc[MX][NY][4];
#pragma unroll
        for (int i = 0; i < MX; ++i)
#pragma unroll
            for (int j = 0; j < NY; ++j) acc[i][j][0] = acc[i][j][1] = acc[i][j][2] = acc[i][j][3] = 0.0f;
        for (int k0 = 0; k0 < kp; k0 += 16) {
            const int ka = k0 / 2 + t4; // 32-bit word of (k0 + 2 t4) in a row
            unsigned b[NY][2];
#pragma unroll
            for (int j = 0; j < NY; ++j) {
                const int r = (fy0 + j) * 8 + g;
                b[j][0] = Y32[r * ld / 2 + ka], b[j][1] = Y32[r * ld / 2 + ka + 4];
            }
#pragma unroll
            for (int i = 0; i < MX; ++i) {
                const int r = (fx0 + i) * 16 + g;
                const unsigned a[4] = {X32[r * ld / 2 + ka], X32[(r + 8) * ld / 2 + ka], X32[r * ld / 2 + ka + 4],
                                       X32[(r + 8) * ld / 2 + ka + 4]};
#pragma unroll
                for (int j = 0; j < NY; ++j) mma<TAB>(acc[i][j], a, b[j][0], b[j][1]);
            }
        }

        // The epilogue: accumulators (2h, 2h + 1) of fragment (i, j) are the outputs at X row
        // (fx0 + i) 16 + g + 8h and Y columns (fy0 + j) 8 + 2 t4 and the one after it.
        R* Dl = static_cast<R*>(D) + static_cast<const OFF*>(q.dL)[it.l];
        const R* Cl = useBeta ? static_cast<const R*>(C) + static_cast<const OFF*>(q.cL)[it.l] : nullptr;
        if (stage) { // the warp's outputs through its staging, then 16-byte pieces of D's runs
            constexpr int SP = NY * 4 + 4; // words a staged row
            unsigned* const Sw = stageBase + warp * CTR_DTILE_STAGE_WORDS(NY);
#pragma unroll
            for (int i = 0; i < MX; ++i)
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int j = 0; j < NY; ++j) {
                        const float v[2] = {alpha * acc[i][j][2 * h], alpha * acc[i][j][2 * h + 1]};
                        R y2[2];
                        Conv<TD>::template store_run<2>(v, y2);
                        unsigned w;
                        memcpy(&w, y2, 4);
                        Sw[(i * 16 + g + 8 * h) * SP + j * 4 + t4] = w;
                    }
            __syncwarp();
#pragma unroll
            for (int p = 0; p < PASSES; ++p) {
                if (!vxs[p]) continue;
                const uint4 w = *reinterpret_cast<const uint4*>(Sw + (p * PER_PASS + lane / NY) * SP + lane % NY * 4);
                *reinterpret_cast<uint4*>(Dl + (dxs[p] + dy[0])) = w;
            }
            __syncwarp(); // the staging is rewritten by the next item
            continue;
        }
        if (wd >= 2 && !useBeta) { // D's pairs along its runs (the plan's width; yv is even then)
#pragma unroll
            for (int i = 0; i < MX; ++i)
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    if (!vx[i][h]) continue;
                    R* const row = Dl + dx[i][h];
#pragma unroll
                    for (int j = 0; j < NY; ++j) {
                        if (!vy[j][0]) continue;
                        const float v[2] = {alpha * acc[i][j][2 * h], alpha * acc[i][j][2 * h + 1]};
                        R y2[2];
                        Conv<TD>::template store_run<2>(v, y2);
                        vec_store<R, 2>(row + dy[j], y2);
                    }
                }
            continue;
        }
#pragma unroll
        for (int i = 0; i < MX; ++i) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                if (!vx[i][h]) continue;
                const int x = (fx0 + i) * 16 + g + 8 * h;
                const OFF dxi = dx[i][h];
#pragma unroll
                for (int j = 0; j < NY; ++j) {
                    if (!vy[j][0]) continue;
                    const int y = y0 + (fy0 + j) * 8 + 2 * t4;
                    float v[2] = {alpha * acc[i][j][2 * h], alpha * acc[i][j][2 * h + 1]};
                    if (useBeta) {
                        const R* c = Cl + xC[x0 + x] + yC[y];
                        if (wc >= 2 && vy[j][1]) {
                            R c2[2];
                            vec_load<R, 2>(c, c2);
                            v[0] += beta * Conv<TD>::load(c2[0]), v[1] += beta * Conv<TD>::load(c2[1]);
                        } else {
                            v[0] += beta * Conv<TD>::load(c[0]);
                            if (vy[j][1]) v[1] += beta * Conv<TD>::load(Cl[xC[x0 + x] + yC[y + 1]]);
                        }
                    }
                    if (wd >= 2 && vy[j][1]) { // a pair along a run of D (the plan's width)
                        R y2[2];
                        Conv<TD>::template store_run<2>(v, y2);
                        vec_store<R, 2>(Dl + dxi + dy[j], y2);
                    } else {
                        Dl[dxi + dy[j]] = Conv<TD>::store(v[0]);
                        if (vy[j][1]) Dl[dxi + yD[y + 1]] = Conv<TD>::store(v[1]);
                    }
                }
            }
        }
    }
#else
    __trap(); // mma.sync needs sm_80; cuperm_gett_available() keeps plans off this path
#endif
}

template <typename TAB, typename TD, typename OFF, int NY>
static cudaError_t launch_ny(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                             float alpha, float beta, int useBeta, const int w[4], cudaStream_t stream)
{
    auto* k = q->dMFast ? kernel<TAB, TD, OFF, NY, true> : kernel<TAB, TD, OFF, NY, false>;
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, q->smemBytes);
    if (e != cudaSuccess) return e;
    k<<<(unsigned)q->gridBlocks, THREADS, (size_t)q->smemBytes, stream>>>(*q, static_cast<const unsigned short*>(A),
                                                       static_cast<const unsigned short*>(B), C, D, alpha, beta,
                                                       useBeta, w[0], w[1], w[2], w[3]);
    return cudaGetLastError();
}

// NY: Y fragments a warp holds (core/gett_dtile_shape.h's warp grid), the kernel's template.
template <typename TAB, typename TD, typename OFF>
static cudaError_t launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                          float alpha, float beta, int useBeta, const int w[4], cudaStream_t stream)
{
    const int tx = q->dMFast ? q->dtileN : q->dtileM, ty = q->dMFast ? q->dtileM : q->dtileN;
    switch (cuperm_ctr_dtile_ny(tx, ty, nullptr, nullptr)) {
    case 2: return launch_ny<TAB, TD, OFF, 2>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    case 4: return launch_ny<TAB, TD, OFF, 4>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    case 8: return launch_ny<TAB, TD, OFF, 8>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    default: return cudaErrorInvalidValue; // the plan's tile fits either orientation (gett_dtile.c)
    }
}

template <typename TAB, typename TD>
static cudaError_t launch_off(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const int w[4], cudaStream_t stream)
{
    if (q->off32) return launch<TAB, TD, int32_t>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch<TAB, TD, int64_t>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

template <typename TAB>
static cudaError_t launch_cd(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                             float alpha, float beta, int useBeta, const int w[4], cudaStream_t stream)
{
    if (q->cdType == CUPERM_R_32F) return launch_off<TAB, float>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_off<TAB, TAB>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

} // namespace dtile
} // namespace gett
} // namespace cuperm

extern "C" cudaError_t cuperm_gett_dtile_launch(const cuperm_gett_params_t* q, const void* A, const void* B,
                                                const void* C, void* D, float alpha, float beta, int useBeta,
                                                cudaStream_t stream)
{
    using namespace cuperm::gett::dtile;
    if ((long long)q->mTiles * q->nTiles == 0 || q->batch == 0 || q->gridBlocks == 0) return cudaSuccess;
    int w[4];
    cuperm_gett_effective_widths(q, A, B, useBeta ? C : nullptr, D, w);
    // Each width lowered until it divides the tile's side along its direction (tiles then start
    // at multiples of it, where the plan's runs start; K runs start at 0 in every tile) and the
    // group's extent (no run or group crosses an edge: the kernel has no partial ones). C and D
    // run along D's fastest direction, the tile's Y side.
    const int ySide = q->dMFast ? q->dtileM : q->dtileN, yExtent = q->dMFast ? q->m : q->n;
    const int sides[4] = {q->aKFast ? q->dtileK : q->dtileM, q->bKFast ? q->dtileK : q->dtileN, ySide, ySide};
    const int extents[4] = {q->aKFast ? q->k : q->m, q->bKFast ? q->k : q->n, yExtent, yExtent};
    for (int i = 0; i < 4; ++i)
        while (w[i] > 1 && (sides[i] % w[i] || extents[i] % w[i])) w[i] /= 2;
    if (q->abType == CUPERM_R_16F)
        return launch_cd<__half>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_cd<__nv_bfloat16>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}
