/* Uniform random values in [-1, 1) written on the device (hash of seed and index):
 * benchmark tensors of 100M+ elements filled without a host round trip. */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "contraction_suites.h"

namespace {

__device__ float uniform(uint64_t seed, int64_t i)
{
    uint64_t z = seed + 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

template <class T> __device__ T convert(float x);
template <> __device__ float convert(float x) { return x; }
template <> __device__ double convert(float x) { return x; }
template <> __device__ __half convert(float x) { return __float2half_rn(x); }
template <> __device__ __nv_bfloat16 convert(float x) { return __float2bfloat16_rn(x); }

template <class T> __global__ void fill(T* p, int64_t n, uint64_t seed)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        p[i] = convert<T>(uniform(seed, i));
}

template <class T> cudaError_t launch(void* p, int64_t n, uint64_t seed, cudaStream_t s)
{
    fill<T><<<1024, 256, 0, s>>>((T*)p, n, seed);
    return cudaGetLastError();
}

} // namespace

extern "C" cudaError_t bench_ctr_fill(void* p, int64_t n, cupermDataType_t type, uint64_t seed,
                                      cudaStream_t stream)
{
    switch (type) {
    case CUPERM_R_32F: return launch<float>(p, n, seed, stream);
    case CUPERM_R_64F: return launch<double>(p, n, seed, stream);
    case CUPERM_R_16F: return launch<__half>(p, n, seed, stream);
    case CUPERM_R_16BF: return launch<__nv_bfloat16>(p, n, seed, stream);
    default: return cudaErrorInvalidValue;
    }
}
