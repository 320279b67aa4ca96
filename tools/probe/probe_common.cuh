// Helpers of the standalone probes (tools/probe/): error checks, the bulk tensor copy's PTX (TMA loads and
// stores, mbarriers), random fills, the tensor-map encoder from the driver, and the median timer.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace probe {

#define CHECK(x)                                                                                      \
    do {                                                                                              \
        cudaError_t e_ = (x);                                                                         \
        if (e_ != cudaSuccess) {                                                                      \
            fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));         \
            exit(1);                                                                                  \
        }                                                                                             \
    } while (0)

__device__ __forceinline__ unsigned smem_u32(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint64_t* b, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(b)), "r"(count));
}

__device__ __forceinline__ void mbar_expect(uint64_t* b, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_u32(b)), "r"(bytes) : "memory");
}

__device__ __forceinline__ void mbar_wait(uint64_t* b, unsigned parity)
{
    asm volatile("{\n"
                 ".reg .pred p;\n"
                 "W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra W;\n"
                 "}" ::"r"(smem_u32(b)),
                 "r"(parity)
                 : "memory");
}

__device__ __forceinline__ void tma_load(void* dst, const CUtensorMap* map, int c0, int c1, int c2, uint64_t* bar)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(
                     smem_u32(dst)),
                 "l"(map), "r"(c0), "r"(c1), "r"(c2), "r"(smem_u32(bar))
                 : "memory");
}

__device__ __forceinline__ void tma_store(const CUtensorMap* map, int c0, int c1, int c2, const void* src)
{
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%1, %2, %3}], [%4];" ::"l"(map), "r"(c0),
                 "r"(c1), "r"(c2), "r"(smem_u32(src))
                 : "memory");
}

template <int N> __device__ __forceinline__ void bulk_wait_read()
{
    asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");
}

__device__ __forceinline__ void mbar_arrive(uint64_t* b)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(b)) : "memory");
}

__device__ __forceinline__ void tma_load5(void* dst, const CUtensorMap* map, const int c[5], uint64_t* bar)
{
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5, "
                 "%6}], [%7];" ::"r"(smem_u32(dst)),
                 "l"(map), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(smem_u32(bar))
                 : "memory");
}

__device__ __forceinline__ void tma_store5(const CUtensorMap* map, const int c[5], const void* src)
{
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%1, %2, %3, %4, %5}], [%6];" ::"l"(map),
                 "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(smem_u32(src))
                 : "memory");
}

// Random bytes (a hash of the index), written on the GPU (a host fill of 4 GB takes minutes).
__global__ void fill_random(unsigned char* p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull;
        x ^= x >> 31, x *= 0xbf58476d1ce4e5b9ull, x ^= x >> 29;
        p[i] = (unsigned char)x;
    }
}

inline PFN_cuTensorMapEncodeTiled_v12000 encode_fn()
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
    if (!fn) {
        cudaDriverEntryPointQueryResult q;
        CHECK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&fn), 12000,
                                               cudaEnableDefault, &q));
        if (q != cudaDriverEntryPointSuccess || !fn) {
            fprintf(stderr, "cuTensorMapEncodeTiled not found\n");
            exit(1);
        }
    }
    return fn;
}

// The median over reps of one run's time, the output poisoned before each timing (poison: null for
// none). Tensors under 64 MB (L2-sized: the launch rate would dominate) are timed as a graph of 50 runs
// back to back; graphBatch > 0: always as a graph of that many.
template <typename F> float median_ms(int reps, cudaStream_t st, void* poison, size_t bytes, F run, int graphBatch = 0)
{
    const int batch = graphBatch > 0 ? graphBatch : bytes < (64u << 20) ? 50 : 1;
    cudaGraphExec_t exec = nullptr;
    if (batch > 1) {
        cudaGraph_t g;
        CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
        for (int k = 0; k < batch; ++k) run();
        CHECK(cudaStreamEndCapture(st, &g));
        CHECK(cudaGraphInstantiate(&exec, g, 0));
        CHECK(cudaGraphDestroy(g));
    }
    cudaEvent_t a, b;
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < reps + 3; ++r) {
        if (poison) CHECK(cudaMemsetAsync(poison, 0x5a, bytes, st));
        CHECK(cudaEventRecord(a, st));
        if (exec) CHECK(cudaGraphLaunch(exec, st));
        else run();
        CHECK(cudaEventRecord(b, st));
        CHECK(cudaEventSynchronize(b));
        float ms;
        CHECK(cudaEventElapsedTime(&ms, a, b));
        if (r >= 3) t.push_back(ms / batch);
    }
    if (exec) CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaEventDestroy(a));
    CHECK(cudaEventDestroy(b));
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

} // namespace probe
