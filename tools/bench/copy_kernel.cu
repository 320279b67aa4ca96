/* A plain device copy kernel: the second reference copy of the timing loop (timing.c).
 * cudaMemcpyAsync of a few MB costs more host time per call than the GPU needs for the bytes, so
 * back-to-back copies of L2-sized tensors timed the launch rate, not the GPU (about 10 us for
 * 1-5 MB on the H100 machine, bench/results/h200-transposes/). A kernel launch is cheaper on the
 * host; the benchmark takes the faster of the two copies as its baseline. */
#include <cstdint>

#include "copy_kernel.h"

namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4; // 16-byte vectors a thread has in flight

// Whole 16-byte vectors: each thread loads kUnroll vectors a block-width apart, then stores them.
__global__ void __launch_bounds__(kThreads) copy_vectors(uint4* __restrict__ dst, const uint4* __restrict__ src,
                                                          int64_t n)
{
    const int64_t step = (int64_t)gridDim.x * kThreads * kUnroll;
    for (int64_t base = (int64_t)blockIdx.x * kThreads * kUnroll + threadIdx.x; base < n; base += step) {
        uint4 v[kUnroll];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k)
            if (base + k * kThreads < n) v[k] = src[base + k * kThreads];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k)
            if (base + k * kThreads < n) dst[base + k * kThreads] = v[k];
    }
}

__global__ void copy_bytes(unsigned char* __restrict__ dst, const unsigned char* __restrict__ src, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

} // namespace

extern "C" cudaError_t bench_copy_kernel(void* dst, const void* src, size_t bytes, int sms, cudaStream_t stream)
{
    const int resident = sms > 0 ? sms * (2048 / kThreads) : 1024; // one full wave of 256-thread blocks
    size_t head = 0;
    if ((uintptr_t)dst % 16 == 0 && (uintptr_t)src % 16 == 0) {
        const int64_t n = (int64_t)(bytes / 16);
        if (n > 0) {
            int64_t blocks = (n + kThreads * kUnroll - 1) / (kThreads * kUnroll);
            if (blocks > resident) blocks = resident;
            copy_vectors<<<(unsigned)blocks, kThreads, 0, stream>>>((uint4*)dst, (const uint4*)src, n);
        }
        head = (size_t)n * 16;
    }
    if (bytes > head) {
        const int64_t n = (int64_t)(bytes - head);
        const int64_t blocks = (n + kThreads - 1) / kThreads;
        copy_bytes<<<(unsigned)(blocks < resident ? blocks : resident), kThreads, 0, stream>>>(
            (unsigned char*)dst + head, (const unsigned char*)src + head, n);
    }
    return cudaGetLastError();
}
