// GETT on the CUDA cores for fp32 (strict: FFMA, never TF32) and fp64 (DFMA): the same offset
// tables and plan as the tensor-core kernel (gett_mma.cu), a plain register-tiled GEMM.
//
// Why a CUDA-core kernel: where D interleaves A's and B's free modes and K is short (TCCG
// 31-48: K = 24, D hundreds of MB) the time is D's one write, which TTGT cannot make without
// transposing D or running thousands of tiny GEMMs (0.3-0.5 of a same-shape GEMM on the
// H100). FMAs at K = 24 cost less than that write, so this kernel only has to write D once,
// in D's own order. Where K is long and the GEMM is compute-bound, TTGT on cuBLAS stays ahead,
// and the plan's model chooses between them.
//
// Block: 64 x 64 outputs, 256 threads, each 4 x 4 accumulators in registers; K in steps of
// 16 through shared memory, the next step's elements loaded into registers while the current
// one is multiplied. Blocks are persistent and start the next tile's loads before the current
// tile's epilogue. Loads follow the operand's tile layout from the plan (k contiguous or
// m / n contiguous), so a warp's loads walk the operand's unit-stride direction. Epilogue: the
// tile goes through shared memory and is written along D's direction (dMFast), each element
// of D (and of C, which may be D) read and written by one thread.
#include "backend/cuda/gett/gett.h"

#include <stdint.h>

namespace cuperm {
namespace gett_simt {

constexpr int BM = CUPERM_GETT_SIMT_BM, BN = CUPERM_GETT_SIMT_BN, BK = 16, THREADS = 256;
constexpr int KS = 256; // K offsets staged in shared memory once per block when K is at most this
constexpr int PAD = 4;                   // keeps 16-byte rows and spreads the column-wise stores
constexpr int LOADS = BM * BK / THREADS; // elements of A (and of B) per thread per K step
static_assert(BM == BN && LOADS == 4, "the load maps assume 64 x 64 x 16 tiles and 256 threads");

template <typename T>
struct Smem {
    union {
        struct {
            T a[BK][BM + PAD]; // A tile, [k][m]
            T b[BK][BN + PAD]; // B tile, [k][n]
        } mk;
        T d[BN][BM + PAD]; // the output tile, [n][m] (dMFast) or [m][n]
    };
};

// Element (i, k) of an operand tile: i the row (m or n) within the tile, k within the K step.
// kFast: threads walk k (the operand's unit stride is a K stride), else i.
__device__ __forceinline__ void load_slot(int t, int j, bool kFast, int& i, int& k)
{
    if (kFast) {
        k = t % BK;
        i = t / BK + j * (THREADS / BK);
    } else {
        i = t % BM;
        k = t / BM + j * (THREADS / BM);
    }
}

// Four consecutive elements of a 16-byte aligned shared-memory row in 16-byte loads: the
// multiply loop would otherwise be bound by its shared-memory instructions (8 per 16 FMAs).
__device__ __forceinline__ void load4(const float* p, float (&v)[4])
{
    const float4 w = *reinterpret_cast<const float4*>(p);
    v[0] = w.x, v[1] = w.y, v[2] = w.z, v[3] = w.w;
}

__device__ __forceinline__ void load4(const double* p, double (&v)[4])
{
    const double2 w0 = reinterpret_cast<const double2*>(p)[0], w1 = reinterpret_cast<const double2*>(p)[1];
    v[0] = w0.x, v[1] = w0.y, v[2] = w1.x, v[3] = w1.y;
}

// Resident blocks the registers must allow (the persistent grid's size per SM): two, as the
// pipelined item loop needs about 120 registers (ptxas sm_90: no spills; at three or four
// blocks it spilled 200-350 bytes).
template <typename T>
constexpr int min_blocks() { return 2; }

// One work item's offsets: its tile's rows of A, B, C, D and its batch's bases.
template <typename OFF>
struct Tables {
    OFF rowA[BM], rowB[BN], rowC[BM], colC[BN], rowD[BM], colD[BN];
    OFF aL, bL, cL, dL;
    int m0, n0, mn, nn; // the tile's origin and extents (edge tiles are short)
};

// Work item w (tile fastest, then batch): its tile's origin and extents.
template <typename OFF>
__device__ __forceinline__ void item_tile(const cuperm_gett_params_t& q, int64_t w, int& m0, int& n0, int& mn, int& nn)
{
    const int tile = (int)(w % ((int64_t)q.mTiles * q.nTiles)); // neighbouring items along D's direction
    const int mt = q.dMFast ? tile % q.mTiles : tile / q.nTiles;
    const int nt = q.dMFast ? tile / q.mTiles : tile % q.nTiles;
    m0 = mt * BM, n0 = nt * BN;
    mn = min(BM, q.m - m0), nn = min(BN, q.n - n0);
}

// Thread t's share of work item w's offsets, loaded into registers (r[0..2]) so that their
// latency passes while the current item is still being finished; put_tables stores them.
template <typename OFF>
__device__ __forceinline__ void get_tables(const cuperm_gett_params_t& q, int64_t w, int useBeta, OFF (&r)[4])
{
    int m0, n0, mn, nn;
    item_tile<OFF>(q, w, m0, n0, mn, nn);
    const int t = threadIdx.x;
    if (t < BM) {
        const int m = m0 + min(t, mn - 1); // rows past the edge repeat the last one (never stored)
        r[0] = static_cast<const OFF*>(q.aM)[m];
        r[1] = static_cast<const OFF*>(q.dM)[m];
        r[2] = useBeta ? static_cast<const OFF*>(q.cM)[m] : OFF(0);
    } else if (t < BM + BN) {
        const int n = n0 + min(t - BM, nn - 1);
        r[0] = static_cast<const OFF*>(q.bN)[n];
        r[1] = static_cast<const OFF*>(q.dN)[n];
        r[2] = useBeta ? static_cast<const OFF*>(q.cN)[n] : OFF(0);
    } else if (t < BM + BN + 4) {
        const int l = (int)(w / ((int64_t)q.mTiles * q.nTiles)), which = t - BM - BN;
        const void* tab = which == 0 ? q.aL : which == 1 ? q.bL : which == 2 ? q.cL : q.dL;
        r[0] = which == 2 && !useBeta ? OFF(0) : static_cast<const OFF*>(tab)[l];
    }
}

template <typename OFF>
__device__ __forceinline__ void put_tables(const cuperm_gett_params_t& q, int64_t w, const OFF (&r)[4], Tables<OFF>& tb)
{
    const int t = threadIdx.x;
    if (t < BM) {
        tb.rowA[t] = r[0], tb.rowD[t] = r[1], tb.rowC[t] = r[2];
    } else if (t < BM + BN) {
        tb.rowB[t - BM] = r[0], tb.colD[t - BM] = r[1], tb.colC[t - BM] = r[2];
    } else if (t < BM + BN + 4) {
        (&tb.aL)[t - BM - BN] = r[0];
    } else if (t == BM + BN + 4) {
        item_tile<OFF>(q, w, tb.m0, tb.n0, tb.mn, tb.nn);
    }
}

// Persistent blocks walk the work items (tile x batch). The item's operand loads are issued
// before the previous item's epilogue and its offsets before the previous item's staging, so
// a block has the next item's memory traffic in flight while it writes D: with K as short as
// TCCG 31-48's 24 each item is a few dependent memory round trips and little arithmetic.
template <typename T, typename OFF>
__global__ void __launch_bounds__(THREADS, min_blocks<T>()) kernel(const cuperm_gett_params_t q, const T* __restrict__ A,
                                                  const T* __restrict__ B, const T* C, T* D, T alpha, T beta,
                                                  int useBeta)
{
    __shared__ __align__(16) Smem<T> s;
    __shared__ Tables<OFF> tb[2];
    __shared__ OFF kA[KS], kB[KS];
    const int t = threadIdx.x;
    const int64_t items = (int64_t)q.mTiles * q.nTiles * q.batch;
    // Short K: its offsets in shared memory, loaded with the first item's (one wait fewer per step).
    const bool kStaged = q.k <= KS;
    const OFF* aK = kStaged ? kA : static_cast<const OFF*>(q.aK);
    const OFF* bK = kStaged ? kB : static_cast<const OFF*>(q.bK);
    if (kStaged)
        for (int i = t; i < q.k; i += THREADS) {
            kA[i] = static_cast<const OFF*>(q.aK)[i];
            kB[i] = static_cast<const OFF*>(q.bK)[i];
        }
    OFF r[4];
    get_tables(q, blockIdx.x, useBeta, r);
    put_tables(q, blockIdx.x, r, tb[0]);
    __syncthreads();
    const int tx = t % 16, ty = t / 16; // accumulators: m = tx * 4 + i, n = ty * 4 + j
    T ra[LOADS], rb[LOADS];
    // The elements of K step k0 of the item whose tables are u, into ra / rb.
    auto fetch = [&](const Tables<OFF>& u, int k0) {
        const T* a = A + u.aL;
        const T* b = B + u.bL;
#pragma unroll
        for (int j = 0; j < LOADS; ++j) {
            int i, k;
            load_slot(t, j, q.aKFast, i, k);
            ra[j] = i < u.mn && k0 + k < q.k ? a[u.rowA[i] + aK[k0 + k]] : T(0);
            load_slot(t, j, q.bKFast, i, k);
            rb[j] = i < u.nn && k0 + k < q.k ? b[u.rowB[i] + bK[k0 + k]] : T(0);
        }
    };
    fetch(tb[0], 0);
    int cur = 0;
    for (int64_t w = blockIdx.x; w < items; w += gridDim.x) {
        const Tables<OFF>& u = tb[cur];
        T acc[4][4] = {};
        for (int k0 = 0; k0 < q.k; k0 += BK) {
#pragma unroll
            for (int j = 0; j < LOADS; ++j) {
                int i, k;
                load_slot(t, j, q.aKFast, i, k);
                s.mk.a[k][i] = ra[j];
                load_slot(t, j, q.bKFast, i, k);
                s.mk.b[k][i] = rb[j];
            }
            __syncthreads();
            if (k0 + BK < q.k) fetch(u, k0 + BK); // in flight during the multiplications
            const int kn = min(BK, q.k - k0);     // the last step may be short: no padded FMAs
#pragma unroll
            for (int k = 0; k < BK; ++k) {
                if (k >= kn) break;
                T x[4], y[4];
                load4(&s.mk.a[k][tx * 4], x);
                load4(&s.mk.b[k][ty * 4], y);
#pragma unroll
                for (int i = 0; i < 4; ++i)
#pragma unroll
                    for (int j = 0; j < 4; ++j) acc[i][j] = fma(x[i], y[j], acc[i][j]);
            }
            __syncthreads();
        }
        const int64_t next = w + gridDim.x;
        if (next < items) get_tables(q, next, useBeta, r);
        // Epilogue: the tile in shared memory, then along D's direction.
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                if (q.dMFast)
                    s.d[ty * 4 + j][tx * 4 + i] = acc[i][j];
                else
                    s.d[tx * 4 + i][ty * 4 + j] = acc[i][j];
            }
        if (next < items) put_tables(q, next, r, tb[cur ^ 1]);
        __syncthreads();
        if (next < items) fetch(tb[cur ^ 1], 0); // in flight while this item's D is written
        T* d = D + u.dL;
        const T* c = useBeta ? C + u.cL : nullptr;
        for (int e = t; e < BM * BN; e += THREADS) {
            const int fast = e % BM, slow = e / BM; // fast along D's direction
            const int m = q.dMFast ? fast : slow, n = q.dMFast ? slow : fast;
            if (m >= u.mn || n >= u.nn) continue;
            T v = alpha * s.d[slow][fast];
            if (useBeta) v = fma(beta, c[u.rowC[m] + u.colC[n]], v);
            d[u.rowD[m] + u.colD[n]] = v;
        }
        __syncthreads(); // s.d becomes the next item's operand tiles, tb[cur] its successor's tables
        cur ^= 1;
    }
}

template <typename T, typename OFF>
static cudaError_t launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                          double alpha, double beta, int useBeta, cudaStream_t stream)
{
    // Persistent: as many blocks as are resident at once (the launch bounds' count), or fewer items.
    const int64_t items = (int64_t)q->mTiles * q->nTiles * q->batch;
    const int64_t resident = (int64_t)(q->smCount > 0 ? q->smCount : 1) * min_blocks<T>();
    const unsigned grid = (unsigned)(items < resident ? items : resident);
    kernel<T, OFF><<<grid, THREADS, 0, stream>>>(*q, static_cast<const T*>(A), static_cast<const T*>(B),
                                                 static_cast<const T*>(C), static_cast<T*>(D), (T)alpha, (T)beta,
                                                 useBeta);
    return cudaGetLastError();
}

template <typename T>
static cudaError_t launch_type(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                               double alpha, double beta, int useBeta, cudaStream_t stream)
{
    return q->off32 ? launch<T, int32_t>(q, A, B, C, D, alpha, beta, useBeta, stream)
                    : launch<T, int64_t>(q, A, B, C, D, alpha, beta, useBeta, stream);
}

} // namespace gett_simt
} // namespace cuperm

extern "C" cudaError_t cuperm_gett_simt_launch(const cuperm_gett_params_t* q, const void* A, const void* B,
                                               const void* C, void* D, double alpha, double beta, int useBeta,
                                               cudaStream_t stream)
{
    using namespace cuperm::gett_simt;
    if ((long long)q->mTiles * q->nTiles == 0 || q->batch == 0) return cudaSuccess;
    if (q->abType == CUPERM_R_64F) return launch_type<double>(q, A, B, C, D, alpha, beta, useBeta, stream);
    return launch_type<float>(q, A, B, C, D, alpha, beta, useBeta, stream);
}
