// GETT on tensor cores: a tiled GEMM whose operand tiles are gathered through offset tables.
//
// Block: 128 x 128 outputs, 8 warps (2 along M x 4 along N, 64 x 32 each, 4 x 2 wmma
// 16x16x16 fragments), K in steps of 32. Each k-step every thread gathers 16 elements of A
// and 16 of B (2-byte loads, predicated: zero outside the extents) into registers while the
// warps multiply the previous step's tiles from shared memory. The epilogue stages each
// 16 x 16 accumulator in shared memory and writes D = alpha acc + beta C element by element
// through D's (and C's) offsets, so any strides, any extents and C == D work.
#include "backend/cuda/gett/gett.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

namespace cuperm {
namespace gett {

constexpr int BM = CUPERM_GETT_BM, BN = CUPERM_GETT_BN, BK = CUPERM_GETT_BK;
constexpr int THREADS = 256;
constexpr int LDS = BK + 8; // shared tile row length in elements (padding against bank conflicts)
constexpr int PER_THREAD = BM * BK / THREADS; // 16 elements of A (and of B) per thread per k-step
static_assert(BM == 128 && BN == 128 && BK == 32 && PER_THREAD == 16, "the index maps below assume these");

template <typename T> __device__ __forceinline__ float load_cd(const T* p);
template <> __device__ __forceinline__ float load_cd<float>(const float* p) { return *p; }
template <> __device__ __forceinline__ float load_cd<__half>(const __half* p) { return __half2float(*p); }
template <> __device__ __forceinline__ float load_cd<__nv_bfloat16>(const __nv_bfloat16* p)
{
    return __bfloat162float(*p);
}
template <typename T> __device__ __forceinline__ void store_cd(T* p, float v);
template <> __device__ __forceinline__ void store_cd<float>(float* p, float v) { *p = v; }
template <> __device__ __forceinline__ void store_cd<__half>(__half* p, float v) { *p = __float2half_rn(v); }
template <> __device__ __forceinline__ void store_cd<__nv_bfloat16>(__nv_bfloat16* p, float v)
{
    *p = __float2bfloat16_rn(v);
}

// 16 elements of a 128 x 32 (rows x k) operand tile into registers, as raw 16-bit words.
// rowOff: the tile rows' offsets (shared), rows: valid rows, offK: the operand's K table.
// kFast == 0: thread t takes row t % 128 and k = t / 128 + 2 i (a warp reads 32 rows of one k);
// kFast == 1: thread t takes k = t % 32 and row t / 32 + 8 i (a warp reads 32 k of one row).
__device__ __forceinline__ void gather(unsigned short (&r)[PER_THREAD], const unsigned short* base,
                                       const int64_t* rowOff, int rows, const int64_t* offK, int k0, int K,
                                       int kFast, int tid)
{
    if (!kFast) {
        const int row = tid % 128;
        const bool rowOk = row < rows;
        const int64_t ro = rowOff[row];
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            const int k = k0 + tid / 128 + 2 * i;
            r[i] = rowOk && k < K ? base[ro + offK[k]] : (unsigned short)0;
        }
    } else {
        const int k = k0 + tid % 32;
        const bool kOk = k < K;
        const int64_t ko = kOk ? offK[k] : 0;
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) {
            const int row = tid / 32 + 8 * i;
            r[i] = kOk && row < rows ? base[rowOff[row] + ko] : (unsigned short)0;
        }
    }
}

// The registers of gather() into the shared tile s[row * LDS + k].
__device__ __forceinline__ void put(unsigned short* s, const unsigned short (&r)[PER_THREAD], int kFast, int tid)
{
    if (!kFast) {
        const int row = tid % 128;
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) s[row * LDS + tid / 128 + 2 * i] = r[i];
    } else {
        const int k = tid % 32;
#pragma unroll
        for (int i = 0; i < PER_THREAD; ++i) s[(tid / 32 + 8 * i) * LDS + k] = r[i];
    }
}

template <typename TAB, typename TCD>
static __global__ void __launch_bounds__(THREADS)
    kernel(const cuperm_gett_params_t q, const unsigned short* A, const unsigned short* B, const TCD* C, TCD* D,
           float alpha, float beta, int useBeta)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    using namespace nvcuda;
    __shared__ __align__(128) unsigned short sA[BM * LDS];
    __shared__ __align__(128) unsigned short sB[BN * LDS];
    __shared__ __align__(128) float sStage[THREADS / 32][256];
    __shared__ int64_t sAm[BM], sCm[BM], sDm[BM], sBn[BN], sCn[BN], sDn[BN];

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int tm = (int)(blockIdx.x % (unsigned)q.mTiles), tn = (int)(blockIdx.x / (unsigned)q.mTiles);
    const int m0 = tm * BM, n0 = tn * BN;
    const int rows = min(BM, q.m - m0), cols = min(BN, q.n - n0);

    // This tile's row (M) and column (N) offsets, once.
    if (tid < BM) {
        const bool ok = tid < rows;
        sAm[tid] = ok ? q.aM[m0 + tid] : 0;
        sCm[tid] = ok ? q.cM[m0 + tid] : 0;
        sDm[tid] = ok ? q.dM[m0 + tid] : 0;
    } else {
        const int j = tid - BM;
        const bool ok = j < cols;
        sBn[j] = ok ? q.bN[n0 + j] : 0;
        sCn[j] = ok ? q.cN[n0 + j] : 0;
        sDn[j] = ok ? q.dN[n0 + j] : 0;
    }
    __syncthreads();

    const int warpM = warp % 2, warpN = warp / 2; // 2 x 4 warps, 64 x 32 outputs each
    const int kTiles = (q.k + BK - 1) / BK;
    for (int l = blockIdx.y; l < q.batch; l += gridDim.y) {
        const unsigned short* Al = A + q.aL[l];
        const unsigned short* Bl = B + q.bL[l];
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.0f);

        unsigned short ra[PER_THREAD], rb[PER_THREAD];
        gather(ra, Al, sAm, rows, q.aK, 0, q.k, q.aKFast, tid);
        gather(rb, Bl, sBn, cols, q.bK, 0, q.k, q.bKFast, tid);
        for (int kt = 0; kt < kTiles; ++kt) {
            put(sA, ra, q.aKFast, tid);
            put(sB, rb, q.bKFast, tid);
            __syncthreads();
            if (kt + 1 < kTiles) { // the next step's loads fly while this one multiplies
                gather(ra, Al, sAm, rows, q.aK, (kt + 1) * BK, q.k, q.aKFast, tid);
                gather(rb, Bl, sBn, cols, q.bK, (kt + 1) * BK, q.k, q.bKFast, tid);
            }
#pragma unroll
            for (int ks = 0; ks < BK; ks += 16) {
                wmma::fragment<wmma::matrix_a, 16, 16, 16, TAB, wmma::row_major> fa[4];
                wmma::fragment<wmma::matrix_b, 16, 16, 16, TAB, wmma::col_major> fb[2];
#pragma unroll
                for (int i = 0; i < 4; ++i)
                    wmma::load_matrix_sync(fa[i], reinterpret_cast<const TAB*>(sA + (warpM * 64 + i * 16) * LDS + ks),
                                           LDS);
#pragma unroll
                for (int j = 0; j < 2; ++j)
                    wmma::load_matrix_sync(fb[j], reinterpret_cast<const TAB*>(sB + (warpN * 32 + j * 16) * LDS + ks),
                                           LDS);
#pragma unroll
                for (int i = 0; i < 4; ++i)
#pragma unroll
                    for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
            }
            __syncthreads();
        }

        // Epilogue: each 16 x 16 fragment through this warp's staging area into D.
        float* st = sStage[warp];
        const TCD* Cl = useBeta ? C + q.cL[l] : nullptr;
        TCD* Dl = D + q.dL[l];
#pragma unroll
        for (int i = 0; i < 4; ++i)
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                wmma::store_matrix_sync(st, acc[i][j], 16, wmma::mem_col_major);
                __syncwarp();
                for (int e = lane; e < 256; e += 32) {
                    const int mm = warpM * 64 + i * 16 + e % 16, nn = warpN * 32 + j * 16 + e / 16;
                    if (mm < rows && nn < cols) {
                        float v = alpha * st[e];
                        if (useBeta) v += beta * load_cd<TCD>(Cl + sCm[mm] + sCn[nn]);
                        store_cd<TCD>(Dl + sDm[mm] + sDn[nn], v);
                    }
                }
                __syncwarp();
            }
    }
#else
    __trap(); // mma.sync needs sm_80; cuperm_gett_available() keeps plans off this path
#endif
}

template <typename TAB, typename TCD>
static cudaError_t launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                          float alpha, float beta, int useBeta, cudaStream_t stream)
{
    const dim3 grid((unsigned)q->mTiles * (unsigned)q->nTiles, (unsigned)(q->batch < 65535 ? q->batch : 65535));
    kernel<TAB, TCD><<<grid, THREADS, 0, stream>>>(*q, static_cast<const unsigned short*>(A),
                                                   static_cast<const unsigned short*>(B), static_cast<const TCD*>(C),
                                                   static_cast<TCD*>(D), alpha, beta, useBeta);
    return cudaGetLastError();
}

} // namespace gett
} // namespace cuperm

extern "C" cudaError_t cuperm_gett_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C,
                                          void* D, float alpha, float beta, int useBeta, cudaStream_t stream)
{
    using namespace cuperm::gett;
    const bool f16 = q->abType == CUPERM_R_16F, f32out = q->cdType == CUPERM_R_32F;
    if (f16 && f32out) return launch<__half, float>(q, A, B, C, D, alpha, beta, useBeta, stream);
    if (f16) return launch<__half, __half>(q, A, B, C, D, alpha, beta, useBeta, stream);
    if (f32out) return launch<__nv_bfloat16, float>(q, A, B, C, D, alpha, beta, useBeta, stream);
    return launch<__nv_bfloat16, __nv_bfloat16>(q, A, B, C, D, alpha, beta, useBeta, stream);
}

extern "C" int cuperm_gett_available(void)
{
    cudaFuncAttributes a;
    // The PTX the loaded code came from must be sm_80+ (older PTX compiles the __trap() branch).
    if (cudaFuncGetAttributes(&a, cuperm::gett::kernel<__half, float>) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return a.ptxVersion >= 80;
}
