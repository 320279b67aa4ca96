// What the table kernel's two Hopper forms share (gett_wgmma.cu: every warp loads and multiplies;
// gett_wgmma_ws.cu: producer and consumer warpgroups): the wgmma instruction and its fences, the
// tiles' 1 KiB alignment and the K tables staged in shared memory. sm_90a (the object library
// cuperm_gett_wgmma_objs).
#ifndef CUPERM_BACKEND_GETT_WGMMA_CUH
#define CUPERM_BACKEND_GETT_WGMMA_CUH

#include "backend/cuda/gett/gett_mma.cuh"

namespace cuperm {
namespace gett {
namespace wg {

constexpr int PIPE_ALIGN = 1024; // the 128-byte swizzle's repeat: every tile starts on it
// A's and B's K offsets staged in shared memory after the pipeline, up to this many bytes for both:
// read from global memory, each step's loads waited on an L2 round trip before they could issue
// (46% of the warps' stall cycles on TCCG 20, Nsight Compute on an H200). Steps past the staged
// part read them from global memory.
constexpr int K_TABLE_BYTES = 40 * 1024;

template <typename OFF> __host__ __device__ constexpr int staged_k(int k)
{
    return k < K_TABLE_BYTES / (2 * (int)sizeof(OFF)) ? k : K_TABLE_BYTES / (2 * (int)sizeof(OFF));
}

__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait()
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}

// Keeps the compiler from moving accumulator reads or writes across the asynchronous MMAs.
__device__ __forceinline__ void fence_accumulators(float (&d)[64])
{
#pragma unroll
    for (int i = 0; i < 64; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

#define GETT_WGMMA_M64N128K16(PTX_TYPE)                                                                      \
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"                                                  \
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32." PTX_TYPE "." PTX_TYPE " "                          \
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "\
                 "%64, %65, p, 1, 1, %67, %68;\n}\n"                                                             \
                 :                                                                                               \
              "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),\
              "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),\
              "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),\
              "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),\
              "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),\
              "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),\
              "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),\
              "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])                                                                                                  \
                 : "l"(da), "l"(db), "r"(1), "n"(TA ? 1 : 0), "n"(TB ? 1 : 0))
// d += A (64 x 16) B (16 x 128) from the two descriptors; TA / TB: the operand is mn-major.
template <typename TAB, bool TA, bool TB> struct Mma;
template <bool TA, bool TB> struct Mma<__half, TA, TB> {
    static __device__ __forceinline__ void run(float (&d)[64], unsigned long long da, unsigned long long db)
    {
        GETT_WGMMA_M64N128K16("f16");
    }
};
template <bool TA, bool TB> struct Mma<__nv_bfloat16, TA, TB> {
    static __device__ __forceinline__ void run(float (&d)[64], unsigned long long da, unsigned long long db)
    {
        GETT_WGMMA_M64N128K16("bf16");
    }
};
#undef GETT_WGMMA_M64N128K16

// The epilogue's round (0, 1) of 64 columns: warp gw of warpgroup group stages alpha x its 16 rows x
// 64 columns of accumulators into the round's eight 32 x 32 pieces (piece 2 band + half: rows 32 band
// .., columns 64 round + 32 half ..), along D's direction (gett_epi_slot); each warp then writes one.
__device__ __forceinline__ void stage_round(float* staging, const float (&acc)[64], int round, int group, int gw,
                                            int lane, int dMFast, float alpha)
{
    const int band = 2 * group + gw / 2;
#pragma unroll
    for (int j = 0; j < 8; ++j) { // the round's eight-column groups
        float* piece = staging + (2 * band + j / 4) * GETT_EPI_WARP_FLOATS;
#pragma unroll
        for (int v = 0; v < 4; ++v) {
            const int i = 4 * (8 * round + j) + v;
            int r, c;
            gett_wg_acc_pos(gw, lane, i, &r, &c);
            piece[gett_epi_slot(dMFast, r % 32, c % 32)] = alpha * acc[i];
        }
    }
}

// The first staged_k entries of A's and B's K tables into sK (A's, then B's), by `threads` threads
// from `tid`; the caller synchronises.
template <typename OFF>
__device__ __forceinline__ void stage_k_tables(OFF* sK, const cuperm_gett_params_t& q, int ks, int tid, int threads)
{
    for (int i = tid; i < 2 * ks; i += threads) sK[i] = i < ks ? tab<OFF>(q.aK)[i] : tab<OFF>(q.bK)[i - ks];
}

} // namespace wg

// The warp-specialised form (gett_wgmma_ws.cu): plans with q->wgmma == CUPERM_GETT_WGMMA_WS.
cudaError_t wgmma_ws_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                            float alpha, float beta, int useBeta, const Widths& w, cudaStream_t stream);

} // namespace gett
} // namespace cuperm

#endif
