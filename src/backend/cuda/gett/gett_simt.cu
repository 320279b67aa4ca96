// GETT on the CUDA cores for fp32 (strict: FFMA, never TF32) and fp64 (DFMA): the same offset
// tables and plan as the tensor-core kernel (gett_mma.cuh), a plain register-tiled GEMM.
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
// one is multiplied. Loads follow the operand's tile layout from the plan (k contiguous or
// m / n contiguous), so a warp's loads walk the operand's unit-stride direction. Epilogue: the
// tile goes through shared memory and is written along D's direction (dMFast), each element
// of D (and of C, which may be D) read and written by one thread.
//
// Operators (OPS instances, the params' op[]): opA / opB on each loaded element inside the
// extents as it goes into shared memory (the zeros past K stay zeros), opC on C's values and
// opD on the result in the epilogue, in the type's arithmetic.
#include "backend/cuda/apply_op.cuh"
#include "backend/cuda/gett/gett.h"

#include <stdint.h>

namespace cuperm {
namespace gett_simt {

constexpr int BM = CUPERM_GETT_SIMT_BM, BN = CUPERM_GETT_SIMT_BN, BK = CUPERM_GETT_SIMT_BK, THREADS = 256;
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

// Resident blocks the registers must allow: the short-K problems this kernel is for wait on
// memory, so residency matters more than a few extra registers (ptxas sm_90: 64 / 80 registers,
// 4-56 bytes of spill stores, 3-9 spill accesses within the K loop; at two blocks a persistent variant of
// this kernel ran slower, bench/results/gett-h100/cuda-cores/).
template <typename T>
constexpr int min_blocks() { return sizeof(T) == 8 ? 3 : 4; }

template <typename T, typename OFF, bool OPS>
__global__ void __launch_bounds__(THREADS, min_blocks<T>()) kernel(const cuperm_gett_params_t q, const T* __restrict__ A,
                                                  const T* __restrict__ B, const T* C, T* D, T alpha, T beta,
                                                  int useBeta)
{
    __shared__ __align__(16) Smem<T> s;
    __shared__ OFF rowA[BM], rowB[BN], rowC[BM], colC[BN], rowD[BM], colD[BN], kA[KS], kB[KS];
    const OFF* aM = static_cast<const OFF*>(q.aM);
    const OFF* bN = static_cast<const OFF*>(q.bN);
    // Short K: its offsets in shared memory, loaded with the row offsets (one wait fewer per step).
    const bool kStaged = q.k <= KS;
    const OFF* aK = kStaged ? kA : static_cast<const OFF*>(q.aK);
    const OFF* bK = kStaged ? kB : static_cast<const OFF*>(q.bK);
    if (kStaged)
        for (int i = threadIdx.x; i < q.k; i += THREADS) {
            kA[i] = static_cast<const OFF*>(q.aK)[i];
            kB[i] = static_cast<const OFF*>(q.bK)[i];
        }
    const int t = threadIdx.x;
    // Neighbouring blocks take neighbouring tiles along D's direction.
    const int tile = blockIdx.x;
    const int mt = q.dMFast ? tile % q.mTiles : tile / q.nTiles;
    const int nt = q.dMFast ? tile / q.mTiles : tile % q.nTiles;
    const int m0 = mt * BM, n0 = nt * BN;
    const int mn = min(BM, q.m - m0), nn = min(BN, q.n - n0);
    if (t < BM) {
        const int m = m0 + min(t, mn - 1); // rows past the edge repeat the last one (never stored)
        rowA[t] = aM[m];
        rowD[t] = static_cast<const OFF*>(q.dM)[m];
        if (useBeta) rowC[t] = static_cast<const OFF*>(q.cM)[m];
    } else if (t < BM + BN) {
        const int n = n0 + min(t - BM, nn - 1);
        rowB[t - BM] = bN[n];
        colD[t - BM] = static_cast<const OFF*>(q.dN)[n];
        if (useBeta) colC[t - BM] = static_cast<const OFF*>(q.cN)[n];
    }
    __syncthreads();
    const int tx = t % 16, ty = t / 16; // accumulators: m = tx * 4 + i, n = ty * 4 + j
    for (int l = blockIdx.y; l < q.batch; l += gridDim.y) {
        const T* a = A + static_cast<const OFF*>(q.aL)[l];
        const T* b = B + static_cast<const OFF*>(q.bL)[l];
        T acc[4][4] = {};
        T ra[LOADS], rb[LOADS];
        auto fetch = [&](int k0) {
#pragma unroll
            for (int j = 0; j < LOADS; ++j) {
                int i, k;
                load_slot(t, j, q.aKFast, i, k);
                ra[j] = i < mn && k0 + k < q.k ? a[rowA[i] + aK[k0 + k]] : T(0);
                load_slot(t, j, q.bKFast, i, k);
                rb[j] = i < nn && k0 + k < q.k ? b[rowB[i] + bK[k0 + k]] : T(0);
            }
        };
        fetch(0);
        for (int k0 = 0; k0 < q.k; k0 += BK) {
#pragma unroll
            for (int j = 0; j < LOADS; ++j) {
                int i, k;
                load_slot(t, j, q.aKFast, i, k);
                if (OPS && i < mn && k0 + k < q.k) ra[j] = apply_op<T>(q.op[0], T(q.opParam[0]), ra[j]);
                s.mk.a[k][i] = ra[j];
                load_slot(t, j, q.bKFast, i, k);
                if (OPS && i < nn && k0 + k < q.k) rb[j] = apply_op<T>(q.op[1], T(q.opParam[1]), rb[j]);
                s.mk.b[k][i] = rb[j];
            }
            __syncthreads();
            if (k0 + BK < q.k) fetch(k0 + BK); // in flight during the multiplications
#pragma unroll
            for (int k = 0; k < BK; ++k) {
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
        __syncthreads();
        T* d = D + static_cast<const OFF*>(q.dL)[l];
        const T* c = useBeta ? C + static_cast<const OFF*>(q.cL)[l] : nullptr;
        for (int e = t; e < BM * BN; e += THREADS) {
            const int fast = e % BM, slow = e / BM; // fast along D's direction
            const int m = q.dMFast ? fast : slow, n = q.dMFast ? slow : fast;
            if (m >= mn || n >= nn) continue;
            T v = alpha * s.d[slow][fast];
            if (useBeta) {
                const T x = c[rowC[m] + colC[n]];
                v = fma(beta, OPS ? apply_op<T>(q.op[2], T(q.opParam[2]), x) : x, v);
            }
            d[rowD[m] + colD[n]] = OPS ? apply_op<T>(q.op[3], T(q.opParam[3]), v) : v;
        }
        __syncthreads(); // s.d is the next batch's operand tiles
    }
}

template <typename T, typename OFF>
static cudaError_t launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                          double alpha, double beta, int useBeta, cudaStream_t stream)
{
    const dim3 grid((unsigned)q->mTiles * (unsigned)q->nTiles, (unsigned)(q->batch < 65535 ? q->batch : 65535));
    auto* k = cuperm_gett_has_operators(q) ? kernel<T, OFF, true> : kernel<T, OFF, false>;
    k<<<grid, THREADS, 0, stream>>>(*q, static_cast<const T*>(A), static_cast<const T*>(B), static_cast<const T*>(C),
                                    static_cast<T*>(D), (T)alpha, (T)beta, useBeta);
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
