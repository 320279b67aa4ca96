// The table kernel's Hopper form: the same offset tables, tile loads, 4-stage cp.async pipeline and
// epilogue as gett_mma.cuh, the products on warpgroup MMA (wgmma.mma_async, sm_90a) instead of
// mma.sync (the table kernel ran 182-197 TFLOP/s on TCCG 20-27 against cuBLAS's ~600 on wgmma:
// bench/results/gett-h100/v2/). On an H200 it is 1.5-1.6x the mma.sync kernel on TCCG 12 and 20-27
// and still slower than TTGT: per-step overhead (the block barrier, the waits, the loads' address
// arithmetic every 32 k) bounds it, not the MMA rate (bench/results/gett-h100/wgmma-h200/).
//
// Block: 128 x 128 outputs, 256 threads = 2 warpgroups, each 64 rows x all 128 columns
// (m64n128k16, 64 fp32 accumulators a thread). The operand tiles sit in wgmma's canonical
// layouts (gett_index.h: gett_wg_*): k-major tiles in the 64-byte swizzle, mn-major ones in
// 128-byte-swizzle atoms, read through shared-memory descriptors; wgmma transposes mn-major
// 16-bit operands itself. A K step (32 deep) is two wgmma per warpgroup, left in flight while the
// next step is issued (at most one step's MMAs pending), so a stage's buffer is refilled two steps
// after its MMAs were issued, behind a barrier that every thread passed after waiting for them.
// The epilogue stages the accumulators as the table kernel's 32 x 32 pieces (two rounds of 64
// columns, eight pieces a round, one a warp) and writes them with the table kernel's code.
//
// Built for sm_90a only (the object library cuperm_gett_wgmma_objs); plans on a compute capability 9.0
// device take it where the handle asks for it (CUPERM_GETT_WGMMA) and no operator is left to apply
// (gett.h: cuperm_gett_wgmma_takes; the table kernel applies those).
#include "backend/cuda/gett/gett_wgmma.cuh"

namespace cuperm {
namespace gett {
namespace wg {

template <typename OFF> __host__ __device__ constexpr int smem_bytes(int k)
{
    return GETT_PIPE_BYTES + PIPE_ALIGN + 2 * staged_k<OFF>(k) * (int)sizeof(OFF);
}
static_assert(GETT_TILE_BYTES % PIPE_ALIGN == 0, "tiles stay 1 KiB aligned");
static_assert(8 * GETT_EPI_WARP_FLOATS * 4 <= GETT_PIPE_BYTES, "a round's eight pieces fit in the pipeline");
// Two blocks an SM with the most staged K offsets, static tables (six of 128 64-bit offsets) and the
// driver's 1 KiB a block: within Hopper's 228 KiB an SM.
static_assert(2 * (smem_bytes<int64_t>(1 << 30) + 6 * 128 * 8 + 1024) <= 228 * 1024, "two blocks an SM fit");

// Stages loaded ahead of the one multiplied: one stage's MMAs stay in flight while the next is
// issued, so a buffer is refilled two steps after its MMAs were issued.
constexpr int LEAD = GETT_STAGES - 2;
static_assert(LEAD >= 2, "loads two stages ahead at least");

template <typename TAB, bool AK, bool BK, typename OFF>
static __global__ void __launch_bounds__(GETT_THREADS, 2)
    kernel(const cuperm_gett_params_t q, const unsigned short* A, const unsigned short* B, const void* C, void* D,
           float alpha, float beta, int useBeta, Widths w)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ unsigned char smemRaw[]; // smem_bytes: the pipeline (then the staging), the K tables
    __shared__ OFF sAm[GETT_BM], sBn[GETT_BN], sCm[GETT_BM], sCn[GETT_BN], sDm[GETT_BM], sDn[GETT_BN];
    const unsigned raw = smem_addr(smemRaw);
    unsigned char* smem = smemRaw + ((PIPE_ALIGN - raw % PIPE_ALIGN) % PIPE_ALIGN);
    const unsigned pipe = smem_addr(smem);

    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    const int group = warp / 4, gw = warp % 4; // warpgroup: rows 64 group ..; its warp gw
    const BlockTile bt = begin_block_tile(q, tid, sAm, sBn, sCm, sCn, sDm, sDn);
    const int rows = bt.rows, cols = bt.cols;
    __syncthreads();

    // The K tables: the first staged_k entries of each in shared memory, the rest read from global.
    const int ks = staged_k<OFF>(q.k);
    OFF* sK = reinterpret_cast<OFF*>(smem + GETT_PIPE_BYTES);
    stage_k_tables(sK, q, ks, tid, GETT_THREADS);
    __syncthreads();
    const OFF* aKs = sK;
    const OFF* bKs = sK + ks;
    const OFF* aKg = tab<OFF>(q.aK);
    const OFF* bKg = tab<OFF>(q.bK);
    const int kTiles = (q.k + GETT_BK - 1) / GETT_BK;
    const int aAt[2] = {gett_wg_operand_byte(AK, 64 * group, 0), gett_wg_operand_byte(AK, 64 * group, 1)};
    const int bAt[2] = {GETT_TILE_BYTES + gett_wg_operand_byte(BK, 0, 0), GETT_TILE_BYTES + gett_wg_operand_byte(BK, 0, 1)};

    for (int l = blockIdx.y; l < q.batch; l += gridDim.y) {
        const unsigned short* Al = A + tab<OFF>(q.aL)[l];
        const unsigned short* Bl = B + tab<OFF>(q.bL)[l];
        float acc[64];
#pragma unroll
        for (int i = 0; i < 64; ++i) acc[i] = 0.0f;

        // Stage s's A and B tiles into buffer s % GETT_STAGES, as one commit group (empty past K).
        auto load_stage = [&](int s) {
            if (s < kTiles) {
                unsigned char* st = smem + (s % GETT_STAGES) * GETT_STAGE_BYTES;
                const bool staged = (s + 1) * GETT_BK <= ks || ks == q.k;
                load_tile<AK, OFF, 0, WgTiles>(st, Al, sAm, rows, staged ? aKs : aKg, s * GETT_BK, q.k, w.a, tid);
                load_tile<BK, OFF, 0, WgTiles>(st + GETT_TILE_BYTES, Bl, sBn, cols, staged ? bKs : bKg, s * GETT_BK,
                                               q.k, w.b, tid);
            }
            cp_async_commit();
        };
#pragma unroll
        for (int s = 0; s < LEAD; ++s) load_stage(s);

#pragma unroll 1
        for (int kt = 0; kt < kTiles; ++kt) {
            cp_async_wait<LEAD - 1>(); // stage kt has landed (this thread's copies) ...
            fence_proxy_async();       // ... its shared stores are visible to wgmma's reads ...
            __syncthreads();           // ... everyone's, and every MMA of stage kt - 2 is done
            load_stage(kt + LEAD);     // into the buffer of stage kt - 2
            const unsigned stage = pipe + (unsigned)((kt % GETT_STAGES) * GETT_STAGE_BYTES);
            fence_accumulators(acc);
            wgmma_fence();
#pragma unroll
            for (int ks = 0; ks < 2; ++ks)
                Mma<TAB, !AK, !BK>::run(acc, gett_wg_desc(stage + aAt[ks], AK), gett_wg_desc(stage + bAt[ks], BK));
            wgmma_commit();
            wgmma_wait<1>(); // stage kt - 1's MMAs are done: its buffer may be refilled after the next barrier
            fence_accumulators(acc);
        }
        wgmma_wait<0>();
        fence_accumulators(acc);
        cp_async_wait<0>();
        __syncthreads(); // the pipeline buffers become the epilogue's staging

        // Two rounds of 64 columns (stage_round), each warp then writing piece `warp`.
        const Epi e = {rows, cols, beta, useBeta, w.c, q.op[2], q.op[3], (float)q.opParam[2], (float)q.opParam[3]};
        const TileOut o = tile_out<OFF>(q, C, D, useBeta, l);
        float* staging = reinterpret_cast<float*>(smem);
#pragma unroll
        for (int round = 0; round < 2; ++round) {
            stage_round(staging, acc, round, group, gw, lane, q.dMFast, alpha);
            __syncthreads();
            write_staged_piece<TAB, false>(q, w.d, staging + warp * GETT_EPI_WARP_FLOATS, 32 * (warp / 2),
                                           64 * round + 32 * (warp % 2), e, o, sCm, sCn, sDm, sDn, lane);
            __syncthreads(); // the pieces are free for the next round (or the next batch index's pipeline)
        }
    }
#else
    __trap(); // wgmma needs sm_90a; plans take this kernel on compute capability 9.0 only
#endif
}

template <typename TAB, bool AK, bool BK, typename OFF>
static cudaError_t launch_one(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    auto* k = kernel<TAB, AK, BK, OFF>;
    const int smem = smem_bytes<OFF>(q->k);
    cudaError_t e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes<OFF>(1 << 30));
    if (e != cudaSuccess) return e;
    const dim3 grid((unsigned)q->mTiles * (unsigned)q->nTiles, (unsigned)(q->batch < 65535 ? q->batch : 65535));
    k<<<grid, GETT_THREADS, smem, stream>>>(*q, static_cast<const unsigned short*>(A),
                                            static_cast<const unsigned short*>(B), C, D, alpha, beta, useBeta, w);
    return cudaGetLastError();
}

template <typename TAB, typename OFF>
static cudaError_t launch_off(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    if (q->aKFast && q->bKFast) return launch_one<TAB, true, true, OFF>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    if (q->aKFast) return launch_one<TAB, true, false, OFF>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    if (q->bKFast) return launch_one<TAB, false, true, OFF>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_one<TAB, false, false, OFF>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

template <typename TAB>
static cudaError_t launch_tab(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                              float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream)
{
    if (q->off32) return launch_off<TAB, int32_t>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return launch_off<TAB, int64_t>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

} // namespace wg
} // namespace gett
} // namespace cuperm

extern "C" cudaError_t cuperm_gett_wgmma_launch(const cuperm_gett_params_t* q, const void* A, const void* B,
                                                const void* C, void* D, float alpha, float beta, int useBeta,
                                                cudaStream_t stream)
{
    using namespace cuperm::gett;
    if ((long long)q->mTiles * q->nTiles == 0 || q->batch == 0) return cudaSuccess;
    if (cuperm_gett_has_operators(q)) return cudaErrorNotSupported; // the table kernel applies operators
    int wv[4];
    cuperm_gett_effective_widths(q, A, B, useBeta ? C : nullptr, D, wv);
    const Widths w = {wv[0], wv[1], wv[2], wv[3]};
    if (q->wgmma == CUPERM_GETT_WGMMA_WS) return wgmma_ws_launch(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    if (q->abType == CUPERM_R_16F) return wg::launch_tab<__half>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
    return wg::launch_tab<__nv_bfloat16>(q, A, B, C, D, alpha, beta, useBeta, w, stream);
}

extern "C" int cuperm_gett_wgmma_built(void) { return 1; }
