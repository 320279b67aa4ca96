#include "backend/cuda/scratch_fill.h"

#include <stdint.h>

/* A 32-bit mix of the byte's index (lowbias32): neighbouring bytes get unrelated bits. */
__device__ static uint32_t mix(uint64_t i, uint32_t seed)
{
    uint32_t x = (uint32_t)i ^ (uint32_t)(i >> 32) * 0x9e3779b9u ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__global__ static void fill(unsigned char* p, size_t bytes, int real_bytes, uint32_t seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < bytes; i += (size_t)gridDim.x * blockDim.x) {
        const uint32_t h = mix(i, seed);
        const int top = (int)(i % (size_t)real_bytes) == real_bytes - 1; /* little-endian: sign and exponent */
        p[i] = top ? (unsigned char)(0x38 | (h & 7)) : (unsigned char)h;
    }
}

extern "C" cudaError_t cuperm_scratch_fill(void* p, size_t bytes, int real_bytes, unsigned seed, cudaStream_t stream)
{
    if (!bytes) return cudaSuccess;
    if (real_bytes != 2 && real_bytes != 4 && real_bytes != 8) return cudaErrorInvalidValue;
    const size_t threads = 256, blocks = (bytes + threads - 1) / threads;
    fill<<<(unsigned)(blocks < 4096 ? blocks : 4096), (unsigned)threads, 0, stream>>>((unsigned char*)p, bytes,
                                                                                       real_bytes, seed);
    return cudaGetLastError();
}
