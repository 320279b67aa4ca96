// GETT on tensor cores: a tiled GEMM whose operand tiles are gathered through offset tables.
//
// Block: 128 x 128 outputs, 256 threads = 8 warps as 2 (M) x 4 (N), 64 x 32 outputs per warp
// = 4 x 4 mma.sync.m16n8k16 tiles (fp32 accumulators, 64 registers), K in steps of 32 through
// a 4-stage cp.async pipeline (16 KiB a stage: A and B tiles, layouts and swizzles in
// gett_index.h). Operand fragments come from shared memory by ldmatrix.x4 (.trans for
// mn-major tiles).
//
// Loads: per operand the plan found runs of W = 8, 4 or 2 elements that are contiguous and
// W-aligned in memory along the tile layout's contiguous direction (the host's
// cuperm_ctr_gett_run_width); the launch lowers W until the base pointer is aligned. Each run
// is one cp.async of 2W bytes (16: .cg, 8 / 4: .ca) found through one table lookup; runs
// past the extents copy fewer source bytes (src-size) and zero-fill the rest. W = 1: 2-byte
// loads and shared stores (any strides, any alignment). The tile's row (M / N) offsets are
// staged in shared memory once per block; the K offsets are read per stage (one or a few per
// thread, L1-resident).
//
// Epilogue: each warp stages 32 x 32 pieces of alpha x its accumulators in shared memory, in
// lines along D's fastest direction, and writes D = alpha acc + beta C (fp32 arithmetic) in runs
// along that direction: each run one or two vector reads of the staging, W-element vector
// stores (and C loads) where the plan found runs, element by element otherwise and at the tile
// edges. Each element of D (and of C, which may be D) is read and written by one thread: any
// strides, any extents, C == D.
//
// Operators (OPS, the params' op[]): opA / opB go over each stage's tiles in shared memory once
// they have landed (every element inside K, in float, rounded back to the 16-bit type as TTGT's
// transposes round op(A)), before any warp reads the stage; one more barrier per K step. opC is
// applied to C's loaded values and opD to the result in the epilogue. No pass over memory.
#pragma once

#include "backend/cuda/apply_op.cuh"
#include "backend/cuda/gett/gett.h"
#include "backend/cuda/gett/gett_index.h"
#include "backend/cuda/gett/gett_elements.cuh"

#include <stdint.h>
#include <string.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace cuperm {
namespace gett {

constexpr int LOAD_UNROLL = 2;   // vector runs issued together per tile load
#ifndef GETT_GATHER_BATCH
#define GETT_GATHER_BATCH 16 // all of a thread's 16 gathers at once: 128 registers, no spills (sm_90)
#endif
constexpr int GATHER_BATCH = GETT_GATHER_BATCH; // element gathers in flight per thread (load_tile_gather)
static_assert(16 % GATHER_BATCH == 0, "a thread's 16 gathers in whole batches");
constexpr int THREADS = GETT_THREADS, STAGES = GETT_STAGES;
static_assert(CUPERM_GETT_BM == GETT_BM && CUPERM_GETT_BN == GETT_BN && CUPERM_GETT_BK == GETT_BK, "one tile size");
static_assert(GETT_EPI_WARP_FLOATS * 4 * 8 <= GETT_PIPE_BYTES, "epilogue staging fits in the pipeline buffers");

// ---- PTX wrappers ----------------------------------------------------------------------------

__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Copies srcBytes (0..BYTES) from src and zero-fills the rest of the BYTES at dst. PF: the L2
// fetch size asked for along with it (0: none, or 128 bytes: 256 measured no better, session 41).
template <int BYTES, int PF = 0> __device__ __forceinline__ void cp_async(unsigned dst, const void* src, int srcBytes);
#define GETT_CP_ASYNC(BYTES, PF, CACHE, HINT)                                                                 \
    template <> __device__ __forceinline__ void cp_async<BYTES, PF>(unsigned dst, const void* src, int srcBytes) \
    {                                                                                                         \
        asm volatile("cp.async." CACHE ".shared.global" HINT " [%0], [%1], " #BYTES ", %2;\n" ::"r"(dst), "l"(src), \
                     "r"(srcBytes)                                                                            \
                     : "memory");                                                                             \
    }
GETT_CP_ASYNC(16, 0, "cg", "")
GETT_CP_ASYNC(8, 0, "ca", "")
GETT_CP_ASYNC(4, 0, "ca", "")
GETT_CP_ASYNC(16, 128, "cg", ".L2::128B")
GETT_CP_ASYNC(8, 128, "ca", ".L2::128B")
GETT_CP_ASYNC(4, 128, "ca", ".L2::128B")
#undef GETT_CP_ASYNC

__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

template <bool TRANS> __device__ __forceinline__ void ldsm_x4(unsigned (&r)[4], unsigned addr)
{
    if (TRANS)
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr)
                     : "memory");
    else
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                     : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                     : "r"(addr)
                     : "memory");
}

// ---- tile loads ------------------------------------------------------------------------------

// Where the loads put an element of a shared operand tile: the mma.sync kernels' layouts (ldmatrix)
// or the Hopper form's (wgmma descriptors, gett_wgmma.cu); gett_index.h has both.
struct MmaTiles {
    static __device__ __forceinline__ int byte(bool kMajor, int row, int k) { return gett_tile_byte(kMajor, row, k); }
};
struct WgTiles {
    static __device__ __forceinline__ int byte(bool kMajor, int row, int k) { return gett_wg_tile_byte(kMajor, row, k); }
};

// One operand tile (k-major when KMAJ) of stage k0 into shared memory at tile: runs of W
// elements. base: the operand at this batch index; rowOff: the tile's row offsets (shared, 0
// past rows); kTab: the operand's K table; K: the K extent.
// Element-by-element gathers (no runs): 2-byte loads into registers, then shared stores. Each
// is an L2 round trip, so GATHER_BATCH of them are issued before the first is stored (one or
// two at a time left a k = 24 tile waiting on 8 round trips in a row).
template <bool KMAJ, typename OFF, typename TL = MmaTiles>
__device__ __forceinline__ void load_tile_gather(unsigned char* tile, const unsigned short* base, const OFF* rowOff,
                                                 int rows, const OFF* __restrict__ kTab, int k0, int K, int tid)
{
    int row0, kk0;
    gett_load_run(KMAJ, 1, tid, 0, &row0, &kk0);
    // k-major: one k per thread (its table entry once); mn-major: one row per thread.
    const bool kOk = KMAJ ? k0 + kk0 < K : true, rOk = KMAJ ? true : row0 < rows;
    const OFF fixed = KMAJ ? (kOk ? kTab[k0 + kk0] : OFF(0)) : (rOk ? rowOff[row0] : OFF(0));
#pragma unroll 1
    for (int i0 = 0; i0 < 16; i0 += GATHER_BATCH) {
        OFF off[GATHER_BATCH];
        bool ok[GATHER_BATCH];
#pragma unroll
        for (int j = 0; j < GATHER_BATCH; ++j) {
            int row, kk;
            gett_load_run(KMAJ, 1, tid, i0 + j, &row, &kk);
            if (KMAJ) {
                ok[j] = kOk && row < rows;
                off[j] = ok[j] ? rowOff[row] + fixed : OFF(0);
            } else {
                ok[j] = rOk && k0 + kk < K;
                off[j] = ok[j] ? fixed + kTab[k0 + kk] : OFF(0);
            }
        }
        unsigned short v[GATHER_BATCH];
#pragma unroll
        for (int j = 0; j < GATHER_BATCH; ++j) v[j] = ok[j] ? __ldg(base + off[j]) : (unsigned short)0;
#pragma unroll
        for (int j = 0; j < GATHER_BATCH; ++j) {
            int row, kk;
            gett_load_run(KMAJ, 1, tid, i0 + j, &row, &kk);
            *reinterpret_cast<unsigned short*>(tile + TL::byte(KMAJ, row, kk)) = v[j];
        }
    }
}

// A run of n (0..W) two-byte elements into its W-element slot of a tile. A whole or empty run is
// one cp.async (src-size 0 reads nothing and zero-fills); a partial one, which only a tile's edge
// has, goes element by element: compute-sanitizer counts a cp.async whose src-size is below its
// size as a read of the whole vector (a 16-byte copy of 6 bytes from a 6-byte buffer is an error,
// of 0 bytes none: bench/results/contraction-planning-h100/s20/), and at a tensor's last run that
// vector lies past the tensor's end (aligned, so never across a page, but outside the buffer).
template <int W, int PF = 0>
__device__ __forceinline__ void load_run(unsigned dst, const unsigned short* src, int n)
{
    if (n == W || n == 0) {
        cp_async<2 * W, PF>(dst, src, 2 * n);
        return;
    }
#pragma unroll
    for (int e = 0; e < W; ++e) {
        const unsigned short v = e < n ? __ldg(src + e) : (unsigned short)0;
        asm volatile("st.shared.u16 [%0], %1;\n" ::"r"(dst + 2 * e), "h"(v) : "memory");
    }
}

template <bool KMAJ, int W, typename OFF, int PF = 0, typename TL = MmaTiles>
__device__ __forceinline__ void load_tile_w(unsigned char* tile, const unsigned short* base, const OFF* rowOff,
                                            int rows, const OFF* __restrict__ kTab, int k0, int K, int tid)
{
    constexpr int RUNS = 16 / W;
    const unsigned tileAddr = smem_addr(tile);
    if (KMAJ) {
        int row, kk;
        gett_load_run(1, W, tid, 0, &row, &kk);
        const int k = k0 + kk;
        const int nk = min(max(K - k, 0), W); // valid elements of this thread's k-run
        const OFF ko = nk > 0 ? kTab[k] : OFF(0);
#pragma unroll LOAD_UNROLL
        for (int i = 0; i < RUNS; ++i) {
            gett_load_run(1, W, tid, i, &row, &kk);
            const int n = row < rows ? nk : 0;
            const unsigned short* src = base + (n > 0 ? rowOff[row] + ko : OFF(0));
            load_run<W, PF>(tileAddr + TL::byte(true, row, kk), src, n);
        }
    } else {
        int r, kk;
        gett_load_run(0, W, tid, 0, &r, &kk);
        const int nr = min(max(rows - r, 0), W); // valid elements of this thread's row-run
        const OFF ro = nr > 0 ? rowOff[r] : OFF(0);
#pragma unroll LOAD_UNROLL
        for (int i = 0; i < RUNS; ++i) {
            gett_load_run(0, W, tid, i, &r, &kk);
            const int k = k0 + kk;
            const int n = k < K ? nr : 0;
            const unsigned short* src = base + (n > 0 ? ro + kTab[k] : OFF(0));
            load_run<W, PF>(tileAddr + TL::byte(false, r, kk), src, n);
        }
    }
}

template <bool KMAJ, typename OFF, int PF = 0, typename TL = MmaTiles>
__device__ __forceinline__ void load_tile(unsigned char* tile, const unsigned short* base, const OFF* rowOff, int rows,
                                          const OFF* kTab, int k0, int K, int w, int tid)
{
    // The thread index through an opaque move: keeps the compiler from hoisting every width's
    // per-thread run offsets out of the k loop (dozens of registers it does not have).
    asm volatile("mov.u32 %0, %0;\n" : "+r"(tid));
    switch (w) { // uniform across the grid
    case 8: load_tile_w<KMAJ, 8, OFF, PF, TL>(tile, base, rowOff, rows, kTab, k0, K, tid); break;
    case 4: load_tile_w<KMAJ, 4, OFF, PF, TL>(tile, base, rowOff, rows, kTab, k0, K, tid); break;
    case 2: load_tile_w<KMAJ, 2, OFF, PF, TL>(tile, base, rowOff, rows, kTab, k0, K, tid); break;
    default: load_tile_gather<KMAJ, OFF, TL>(tile, base, rowOff, rows, kTab, k0, K, tid); break;
    }
}

// One operator on one value, called rather than inlined: the epilogue's many paths (widths x
// directions x types) with the operator switch inlined at each made the operator instances ten
// times the size of the plain ones (25 MB of sm_90 code against 2.6 MB). It runs once per
// element of C and D, so the call costs little there.
static __device__ __noinline__ float op_value(cupermOperator_t op, float param, float x)
{
    return apply_op<float>(op, param, x);
}

// f applied to a landed stage tile of an operand: 16-byte chunks of 8 elements along the
// layout's contiguous direction (gett_load_run's 8-wide runs: two per thread cover the tile),
// elements of k >= K (the zeros the loads filled in) left alone, so that f(0) never enters the
// sums. Rows past M / N are transformed too; their results are never stored.
template <typename TAB, bool KMAJ, typename F>
__device__ __forceinline__ void tile_map(unsigned char* tile, int k0, int K, int tid, F f)
{
    typedef Conv<TAB> CV;
#pragma unroll 1
    for (int i = 0; i < 2; ++i) {
        int row, kk;
        gett_load_run(KMAJ, 8, tid, i, &row, &kk);
        const int valid = KMAJ ? min(max(K - (k0 + kk), 0), 8) : (k0 + kk < K ? 8 : 0);
        if (valid == 0) continue;
        uint4* p = reinterpret_cast<uint4*>(tile + gett_tile_byte(KMAJ, row, kk));
        uint4 x = *p;
        unsigned short e[8];
        memcpy(e, &x, sizeof x);
#pragma unroll
        for (int j = 0; j < 8; ++j)
            if (j < valid) e[j] = CV::store(f(CV::load(e[j])));
        memcpy(&x, e, sizeof x);
        *p = x;
    }
}

// The operator over a stage tile, the switch outside the element loop (uniform: one case runs,
// inlined, the operator a constant in it). This pass runs for every tile a block loads, so a
// call per element (as the epilogue makes) spilled the accumulators and cost several times the
// operator itself. Negation and conj of reals never get here: the plan folds them.
template <typename TAB, bool KMAJ>
__device__ __forceinline__ void tile_op(unsigned char* tile, int k0, int K, cupermOperator_t op, float param, int tid)
{
#define GETT_TILE_OP(OP)                                                                                          \
    case OP:                                                                                                      \
        tile_map<TAB, KMAJ>(tile, k0, K, tid, [param](float x) { return apply_op<float>(OP, param, x); });       \
        break;
    switch (op) {
        GETT_TILE_OP(CUPERM_OP_ABS)
        GETT_TILE_OP(CUPERM_OP_RELU)
        GETT_TILE_OP(CUPERM_OP_LEAKY_RELU)
        GETT_TILE_OP(CUPERM_OP_ELU)
        GETT_TILE_OP(CUPERM_OP_SIGMOID)
        GETT_TILE_OP(CUPERM_OP_TANH)
        GETT_TILE_OP(CUPERM_OP_EXP)
        GETT_TILE_OP(CUPERM_OP_SQRT)
    default: break; // the identity
    }
#undef GETT_TILE_OP
}

// ---- epilogue --------------------------------------------------------------------------------

struct Epi {
    int rows, cols;      // valid rows / columns of the block tile
    float beta;
    int useBeta, cVec;   // cVec: C's usable width along the epilogue direction
    cupermOperator_t opC, opD; // applied only by the OPS instances
    float paramC, paramD;
};

// beta x opC(c) added to the staged value, then opD: the epilogue's arithmetic per element.
template <bool OPS>
__device__ __forceinline__ float epi_value(float v, float c, const Epi& e)
{
    if (e.useBeta) v += e.beta * (OPS ? op_value(e.opC, e.paramC, c) : c);
    return OPS ? op_value(e.opD, e.paramD, v) : v;
}

// W staged floats (a run: consecutive slots, 4-float aligned when W >= 4) as vector reads.
template <int W> __device__ __forceinline__ void staged_run(const float* p, float (&v)[W])
{
    if constexpr (W >= 4) {
#pragma unroll
        for (int h = 0; h < W / 4; ++h) {
            const float4 x = reinterpret_cast<const float4*>(p)[h];
            v[4 * h] = x.x, v[4 * h + 1] = x.y, v[4 * h + 2] = x.z, v[4 * h + 3] = x.w;
        }
    } else if constexpr (W == 2) {
        const float2 x = *reinterpret_cast<const float2*>(p);
        v[0] = x.x, v[1] = x.y;
    } else {
        v[0] = p[0];
    }
}

// A full run of W > 1 elements: C (vector when cVec allows, else element by element) and D.
template <typename TCD, int W, bool MF, bool OPS, typename R, typename OFF>
__device__ __forceinline__ void vector_run(float (&v)[W], int m, int n, const Epi& e, R* Dr, const R* Cr,
                                           const OFF* sCm, const OFF* sCn, const OFF* sDm, const OFF* sDn)
{
    typedef Conv<TCD> CV;
    if (e.useBeta) {
        R x[W];
        if (e.cVec >= W) {
            vec_load<R, W>(Cr + sCm[m] + sCn[n], x);
        } else {
#pragma unroll
            for (int j = 0; j < W; ++j) x[j] = Cr[sCm[MF ? m + j : m] + sCn[MF ? n : n + j]];
        }
#pragma unroll
        for (int j = 0; j < W; ++j) v[j] = epi_value<OPS>(v[j], CV::load(x[j]), e);
    } else if constexpr (OPS) {
#pragma unroll
        for (int j = 0; j < W; ++j) v[j] = epi_value<OPS>(v[j], 0.0f, e);
    }
    R y[W];
    CV::store_run(v, y);
    vec_store<R, W>(Dr + sDm[m] + sDn[n], y);
}

// Writes one staged 32 x 32 piece (block-tile rows r0.., columns c0..) in runs of W along
// M (MF) or N. st: the warp's staging floats (alpha applied).
template <typename TCD, int W, bool MF, bool OPS, typename OFF>
__device__ __forceinline__ void write_piece(const float* st, int r0, int c0, const Epi& e, TCD* Dl, const TCD* Cl,
                                            const OFF* sCm, const OFF* sCn, const OFF* sDm, const OFF* sDn,
                                            int lane)
{
    typedef Conv<TCD> CV;
    typedef typename CV::raw R;
    R* Dr = reinterpret_cast<R*>(Dl);
    const R* Cr = reinterpret_cast<const R*>(Cl);
#pragma unroll 1
    for (int i = 0; i < 32 / W; ++i) {
        int r, c;
        gett_epi_run(MF, W, lane, i, &r, &c);
        const int m = r0 + r, n = c0 + c;
        const int valid = MF ? (n < e.cols ? min(e.rows - m, W) : 0) : (m < e.rows ? min(e.cols - n, W) : 0);
        if (valid <= 0) continue;
        float v[W];
        staged_run<W>(st + gett_epi_slot(MF, r, c), v);
        bool done = false;
        if constexpr (W > 1) {
            if (valid == W) {
                done = true;
                vector_run<TCD, W, MF, OPS>(v, m, n, e, Dr, Cr, sCm, sCn, sDm, sDn);
            }
        }
        if (!done) {
#pragma unroll
            for (int j = 0; j < W; ++j) {
                if (j < valid) {
                    const int mm = MF ? m + j : m, nn = MF ? n : n + j;
                    const float c = e.useBeta ? CV::load(Cr[sCm[mm] + sCn[nn]]) : 0.0f;
                    Dr[sDm[mm] + sDn[nn]] = CV::store(epi_value<OPS>(v[j], c, e));
                }
            }
        }
    }
}

template <typename TCD, bool MF, bool OPS, typename OFF>
__device__ __forceinline__ void write_piece_w(int w, const float* st, int r0, int c0, const Epi& e, TCD* Dl,
                                              const TCD* Cl, const OFF* sCm, const OFF* sCn, const OFF* sDm,
                                              const OFF* sDn, int lane)
{
    switch (w) {
    case 8: write_piece<TCD, 8, MF, OPS>(st, r0, c0, e, Dl, Cl, sCm, sCn, sDm, sDn, lane); break;
    case 4: write_piece<TCD, 4, MF, OPS>(st, r0, c0, e, Dl, Cl, sCm, sCn, sDm, sDn, lane); break;
    case 2: write_piece<TCD, 2, MF, OPS>(st, r0, c0, e, Dl, Cl, sCm, sCn, sDm, sDn, lane); break;
    default: write_piece<TCD, 1, MF, OPS>(st, r0, c0, e, Dl, Cl, sCm, sCn, sDm, sDn, lane); break;
    }
}

// ---- the kernel ------------------------------------------------------------------------------

struct Widths {
    int a, b, c, d; // effective run widths (cuperm_gett_effective_widths)
};

template <typename OFF> __device__ __forceinline__ const OFF* tab(const void* p) { return static_cast<const OFF*>(p); }

// A block tile's offsets (0 past the extents) into shared memory: rows of A, C, D by threads
// 0 .. GETT_BM - 1, columns of B, C, D by the next GETT_BN. The caller synchronises.
template <typename OFF>
__device__ __forceinline__ void stage_tile_tables(const cuperm_gett_params_t& q, int tid, int m0, int n0, int rows,
                                                  int cols, OFF* sAm, OFF* sBn, OFF* sCm, OFF* sCn, OFF* sDm,
                                                  OFF* sDn)
{
    static_assert(GETT_THREADS == GETT_BM + GETT_BN, "a thread a row or column");
    if (tid < GETT_BM) {
        const bool ok = tid < rows;
        sAm[tid] = ok ? tab<OFF>(q.aM)[m0 + tid] : OFF(0);
        sCm[tid] = ok ? tab<OFF>(q.cM)[m0 + tid] : OFF(0);
        sDm[tid] = ok ? tab<OFF>(q.dM)[m0 + tid] : OFF(0);
    } else {
        const int j = tid - GETT_BM;
        const bool ok = j < cols;
        sBn[j] = ok ? tab<OFF>(q.bN)[n0 + j] : OFF(0);
        sCn[j] = ok ? tab<OFF>(q.cN)[n0 + j] : OFF(0);
        sDn[j] = ok ? tab<OFF>(q.dN)[n0 + j] : OFF(0);
    }
}

// The block's output tile (gett_tile_of's order) and its valid rows and columns, its offsets staged
// (stage_tile_tables); the caller synchronises.
struct BlockTile {
    int m0, n0, rows, cols;
};

template <typename OFF>
__device__ __forceinline__ BlockTile begin_block_tile(const cuperm_gett_params_t& q, int tid, OFF* sAm, OFF* sBn,
                                                      OFF* sCm, OFF* sCn, OFF* sDm, OFF* sDn)
{
    int tm, tn;
    gett_tile_of((int)blockIdx.x, q.mTiles, q.nTiles, &tm, &tn);
    BlockTile b;
    b.m0 = tm * GETT_BM, b.n0 = tn * GETT_BN;
    b.rows = min(GETT_BM, q.m - b.m0), b.cols = min(GETT_BN, q.n - b.n0);
    stage_tile_tables(q, tid, b.m0, b.n0, b.rows, b.cols, sAm, sBn, sCm, sCn, sDm, sDn);
    return b;
}

// D and C at batch index l: the pointers a tile's pieces are written through.
struct TileOut {
    void* D;
    const void* C; // NULL without beta
};

template <typename OFF>
__device__ __forceinline__ TileOut tile_out(const cuperm_gett_params_t& q, const void* C, void* D, int useBeta, int l)
{
    const size_t cdBytes = q.cdType == CUPERM_R_32F ? 4 : 2;
    TileOut o;
    o.D = static_cast<char*>(D) + (size_t)tab<OFF>(q.dL)[l] * cdBytes;
    o.C = useBeta ? static_cast<const char*>(C) + (size_t)tab<OFF>(q.cL)[l] * cdBytes : nullptr;
    return o;
}

// One staged 32 x 32 piece out, in D's type and direction (write_piece_w).
template <typename TAB, bool OPS, typename OFF>
__device__ __forceinline__ void write_staged_piece(const cuperm_gett_params_t& q, int w, const float* st, int r0,
                                                   int c0, const Epi& e, const TileOut& o, const OFF* sCm,
                                                   const OFF* sCn, const OFF* sDm, const OFF* sDn, int lane)
{
    if (q.cdType == CUPERM_R_32F) {
        float* Dl = static_cast<float*>(o.D);
        const float* Cl = static_cast<const float*>(o.C);
        if (q.dMFast) write_piece_w<float, true, OPS>(w, st, r0, c0, e, Dl, Cl, sCm, sCn, sDm, sDn, lane);
        else write_piece_w<float, false, OPS>(w, st, r0, c0, e, Dl, Cl, sCm, sCn, sDm, sDn, lane);
    } else {
        TAB* Dl = static_cast<TAB*>(o.D);
        const TAB* Cl = static_cast<const TAB*>(o.C);
        if (q.dMFast) write_piece_w<TAB, true, OPS>(w, st, r0, c0, e, Dl, Cl, sCm, sCn, sDm, sDn, lane);
        else write_piece_w<TAB, false, OPS>(w, st, r0, c0, e, Dl, Cl, sCm, sCn, sDm, sDn, lane);
    }
}

template <typename TAB, bool AK, bool BK, typename OFF, bool OPS>
static __global__ void __launch_bounds__(THREADS, 2)
    kernel(const cuperm_gett_params_t q, const unsigned short* A, const unsigned short* B, const void* C, void* D,
           float alpha, float beta, int useBeta, Widths w)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(128) unsigned char smem[]; // GETT_PIPE_BYTES: the pipeline, then the epilogue
    __shared__ OFF sAm[GETT_BM], sBn[GETT_BN], sCm[GETT_BM], sCn[GETT_BN], sDm[GETT_BM], sDn[GETT_BN];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    // This tile's row (M) and column (N) offsets, once (0 past the extents).
    const BlockTile bt = begin_block_tile(q, tid, sAm, sBn, sCm, sCn, sDm, sDn);
    const int rows = bt.rows, cols = bt.cols;
    __syncthreads();

    const OFF* aK = tab<OFF>(q.aK);
    const OFF* bK = tab<OFF>(q.bK);
    const int warpM = warp % 2, warpN = warp / 2; // 64 x 32 outputs at (warpM * 64, warpN * 32)
    const int kTiles = (q.k + GETT_BK - 1) / GETT_BK;
    // The tile pass (and its barrier) only where A or B has an operator; uniform.
    const bool inputOps = OPS && (q.op[0] != CUPERM_OP_IDENTITY || q.op[1] != CUPERM_OP_IDENTITY);
    const unsigned pipe = smem_addr(smem);

    // ldmatrix lane offsets within a stage (bytes) for ks = 0 and the first m-tile / n-tile
    // pair; gett_ldsm_step forms the others.
    int aLd, bLd;
    {
        int row, k;
        gett_ldsm_lane(0, AK, lane, warpM * 64, 0, &row, &k);
        aLd = gett_tile_byte(AK, row, k);
        gett_ldsm_lane(1, BK, lane, warpN * 32, 0, &row, &k);
        bLd = GETT_TILE_BYTES + gett_tile_byte(BK, row, k);
    }

    for (int l = blockIdx.y; l < q.batch; l += gridDim.y) {
        const unsigned short* Al = A + tab<OFF>(q.aL)[l];
        const unsigned short* Bl = B + tab<OFF>(q.bL)[l];
        float acc[4][4][4];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j)
#pragma unroll
                for (int v = 0; v < 4; ++v) acc[i][j][v] = 0.0f;

        // Prologue: stages 0 .. STAGES - 2 in flight (one commit group each, empty past K).
#pragma unroll
        for (int s = 0; s < STAGES - 1; ++s) {
            if (s < kTiles) {
                unsigned char* st = smem + s * GETT_STAGE_BYTES;
                load_tile<AK>(st, Al, sAm, rows, aK, s * GETT_BK, q.k, w.a, tid);
                load_tile<BK>(st + GETT_TILE_BYTES, Bl, sBn, cols, bK, s * GETT_BK, q.k, w.b, tid);
            }
            cp_async_commit();
        }

#pragma unroll 1
        for (int kt = 0; kt < kTiles; ++kt) {
            cp_async_wait<STAGES - 2>(); // stage kt has landed (this thread's copies) ...
            __syncthreads();             // ... everyone's, and everyone is done with stage kt - 1
            if (inputOps) {
                unsigned char* st = smem + (kt % STAGES) * GETT_STAGE_BYTES;
                tile_op<TAB, AK>(st, kt * GETT_BK, q.k, q.op[0], (float)q.opParam[0], tid);
                tile_op<TAB, BK>(st + GETT_TILE_BYTES, kt * GETT_BK, q.k, q.op[1], (float)q.opParam[1], tid);
                __syncthreads(); // the stage's operands are op(A), op(B) for every warp
            }
            {
                const int s = kt + STAGES - 1; // refills the buffer of stage kt - 1
                if (s < kTiles) {
                    unsigned char* st = smem + (s % STAGES) * GETT_STAGE_BYTES;
                    load_tile<AK>(st, Al, sAm, rows, aK, s * GETT_BK, q.k, w.a, tid);
                    load_tile<BK>(st + GETT_TILE_BYTES, Bl, sBn, cols, bK, s * GETT_BK, q.k, w.b, tid);
                }
                cp_async_commit();
            }
            const unsigned stage = pipe + (unsigned)((kt % STAGES) * GETT_STAGE_BYTES);
#pragma unroll
            for (int ks = 0; ks < 2; ++ks) {
                unsigned af[4][4], bf[2][4];
#pragma unroll
                for (int mt = 0; mt < 4; ++mt) ldsm_x4<!AK>(af[mt], stage + gett_ldsm_step(AK, aLd, ks, mt));
#pragma unroll
                for (int np = 0; np < 2; ++np) ldsm_x4<!BK>(bf[np], stage + gett_ldsm_step(BK, bLd, ks, np));
#pragma unroll
                for (int mt = 0; mt < 4; ++mt)
#pragma unroll
                    for (int nt = 0; nt < 4; ++nt)
                        mma<TAB>(acc[mt][nt], af[mt], bf[nt / 2][(nt % 2) * 2], bf[nt / 2][(nt % 2) * 2 + 1]);
            }
        }
        cp_async_wait<0>();
        __syncthreads(); // the pipeline buffers become the epilogue's staging

        // Epilogue: two 32 x 32 pieces per warp through its staging area.
        float* st = reinterpret_cast<float*>(smem) + warp * GETT_EPI_WARP_FLOATS;
        const Epi e = {rows, cols, beta, useBeta, w.c, q.op[2], q.op[3], (float)q.opParam[2], (float)q.opParam[3]};
        const TileOut o = tile_out<OFF>(q, C, D, useBeta, l);
#pragma unroll
        for (int h = 0; h < 2; ++h) {
#pragma unroll
            for (int mt = 0; mt < 2; ++mt)
#pragma unroll
                for (int nt = 0; nt < 4; ++nt)
#pragma unroll
                    for (int v = 0; v < 4; v += 2) { // (v, v + 1): columns c, c + 1 of one row
                        int r, c;
                        gett_acc_pos(lane, mt, nt, v, &r, &c);
                        const float x0 = alpha * acc[h * 2 + mt][nt][v], x1 = alpha * acc[h * 2 + mt][nt][v + 1];
                        if (q.dMFast) {
                            st[gett_epi_slot(1, r, c)] = x0;
                            st[gett_epi_slot(1, r, c + 1)] = x1;
                        } else {
                            *reinterpret_cast<float2*>(st + gett_epi_slot(0, r, c)) = make_float2(x0, x1);
                        }
                    }
            __syncwarp();
            write_staged_piece<TAB, OPS>(q, w.d, st, warpM * 64 + h * 32, warpN * 32, e, o, sCm, sCn, sDm, sDn, lane);
            __syncwarp();
        }
        __syncthreads(); // the staging area becomes the next batch index's pipeline
    }
#else
    __trap(); // mma.sync, ldmatrix and cp.async need sm_80; cuperm_gett_available() keeps plans off this path
#endif
}

template <typename TAB, bool AK, bool BK, typename OFF, bool OPS>
static cudaError_t launch_one(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    auto* k = kernel<TAB, AK, BK, OFF, OPS>;
    // Above 48 KiB of dynamic shared memory needs the opt-in (per device; cheap to repeat).
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, GETT_PIPE_BYTES);
    if (e != cudaSuccess) return e;
    const dim3 grid((unsigned)q->mTiles * (unsigned)q->nTiles, (unsigned)(q->batch < 65535 ? q->batch : 65535));
    k<<<grid, THREADS, GETT_PIPE_BYTES, stream>>>(*q, static_cast<const unsigned short*>(A),
                                                  static_cast<const unsigned short*>(B), C, D, alpha, beta, useBeta, w);
    return cudaGetLastError();
}

#ifdef GETT_ONE_INSTANCE // register experiments: -DGETT_ONE_INSTANCE -DGETT_ONE_AK=true -DGETT_ONE_BK=false
template <typename TAB, typename OFF, bool OPS>
static cudaError_t launch_off(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    return launch_one<TAB, GETT_ONE_AK, GETT_ONE_BK, OFF, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}
#else
template <typename TAB, typename OFF, bool OPS>
static cudaError_t launch_off(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    if (q->aKFast && q->bKFast)
        return launch_one<TAB, true, true, OFF, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    if (q->aKFast) return launch_one<TAB, true, false, OFF, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    if (q->bKFast) return launch_one<TAB, false, true, OFF, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_one<TAB, false, false, OFF, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}
#endif

template <typename TAB, bool OPS>
static cudaError_t launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                          float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    if (q->off32) return launch_off<TAB, int32_t, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
#ifndef GETT_ONE_INSTANCE
    return launch_off<TAB, int64_t, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
#else
    return cudaErrorNotSupported;
#endif
}

// Every instance of one OPS value (gett_mma.cu: false, gett_mma_ops.cu: true).
template <bool OPS>
static cudaError_t launch_types(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                                float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
#ifdef GETT_ONE_INSTANCE
    return launch<__half, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
#else
    if (q->abType == CUPERM_R_16F) return launch<__half, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch<__nv_bfloat16, OPS>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
#endif
}

// Defined in gett_mma_ops.cu: launch_types<true>.
cudaError_t launch_with_operators(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                                  float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream);

} // namespace gett
} // namespace cuperm
