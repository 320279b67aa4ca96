/* cuperm-dist-test --bench's data and its check, on the GPU (bench_check.h): every element of a
 * rank's f32 input block is a hash of its global index, so each rank's output block can be
 * checked element by element where it lies, at any size, without gathering the tensor. */
#include <cstdint>

#include "bench_check.h"

namespace {

struct box_t {
    int rank;
    int64_t le[6], off[6], gstride[6];
};

/* A float with 24 random bits (exact, never NaN: the poison is 0xFF bytes) from a global index. */
__device__ float hash_value(int64_t g)
{
    uint64_t z = (uint64_t)g + 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (float)(uint32_t)(z >> 40) * (1.0f / 16777216.0f) - 0.5f;
}

/* local dense column-major index j -> global linear index (global strides gstride) */
__device__ int64_t global_index(const box_t& b, int64_t j)
{
    int64_t g = 0;
    for (int i = 0; i < b.rank; ++i) {
        const int64_t c = j % b.le[i];
        j /= b.le[i];
        g += (b.off[i] + c) * b.gstride[i];
    }
    return g;
}

__global__ void fill_kernel(float* x, box_t b, int64_t n)
{
    for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < n; j += (int64_t)gridDim.x * blockDim.x)
        x[j] = hash_value(global_index(b, j));
}

/* b: the output block, its gstride[i] the input's global stride of input mode perm[i] */
__global__ void check_kernel(const float* y, box_t b, int64_t n, unsigned long long* bad, unsigned long long* first)
{
    for (int64_t j = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; j < n; j += (int64_t)gridDim.x * blockDim.x) {
        const float want = hash_value(global_index(b, j));
        if (__float_as_uint(y[j]) != __float_as_uint(want)) {
            atomicAdd(bad, 1ull);
            atomicMin(first, (unsigned long long)j);
        }
    }
}

void dense_strides(const int64_t* ext, int rank, int64_t* s)
{
    int64_t v = 1;
    for (int i = 0; i < rank; ++i) s[i] = v, v *= ext[i];
}

int64_t volume(const int64_t* e, int rank)
{
    int64_t v = 1;
    for (int i = 0; i < rank; ++i) v *= e[i];
    return v;
}

const int kBlocks = 1024, kThreads = 256;

} // namespace

extern "C" cudaError_t dt_fill_hash(float* x, int rank, const int64_t* le, const int64_t* off, const int64_t* ext,
                                    cudaStream_t stream)
{
    box_t b{};
    b.rank = rank;
    for (int i = 0; i < rank; ++i) b.le[i] = le[i], b.off[i] = off[i];
    dense_strides(ext, rank, b.gstride);
    const int64_t n = volume(le, rank);
    if (n > 0) fill_kernel<<<kBlocks, kThreads, 0, stream>>>(x, b, n);
    return cudaGetLastError();
}

extern "C" cudaError_t dt_check_hash(const float* y, int rank, const int64_t* le, const int64_t* off,
                                     const int64_t* ext_in, const int* perm, cudaStream_t stream,
                                     unsigned long long* mismatches, long long* first)
{
    box_t b{};
    int64_t gs[6];
    dense_strides(ext_in, rank, gs);
    b.rank = rank;
    for (int i = 0; i < rank; ++i) b.le[i] = le[i], b.off[i] = off[i], b.gstride[i] = gs[perm[i]];
    const int64_t n = volume(le, rank);
    unsigned long long h[2] = {0, ~0ull}, *d = nullptr;
    cudaError_t e = cudaMalloc(&d, sizeof h);
    if (e == cudaSuccess) e = cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, stream);
    if (e == cudaSuccess && n > 0) {
        check_kernel<<<kBlocks, kThreads, 0, stream>>>(y, b, n, d, d + 1);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    cudaFree(d);
    *mismatches = h[0];
    *first = h[0] ? (long long)h[1] : -1;
    return e;
}
