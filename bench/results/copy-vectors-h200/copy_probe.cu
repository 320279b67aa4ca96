// What lets cudaMemcpyAsync move DRAM-sized buffers faster than a plain copy kernel on the H200?
// One 4 GB device-to-device copy, timed as CUDA events around 10 back-to-back launches (median of 15),
// by cudaMemcpyAsync and by copy kernels that differ in one thing each: vectors in flight a thread,
// cache hints on loads (ld.global.nc.L1::no_allocate) and stores (st.global.cs: evict first),
// and a persistent grid against one thread a vector set.
//   nvcc -O3 -arch=sm_90 -o copy_probe copy_probe.cu && ./copy_probe
#include <cstdio>
#include <cstdint>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__device__ __forceinline__ uint4 ld_plain(const uint4* p) { return *p; }
__device__ __forceinline__ uint4 ld_nc(const uint4* p) { return __ldg(p); }
__device__ __forceinline__ uint4 ld_na(const uint4* p)
{
    uint4 v;
    asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ void st_plain(uint4* p, uint4 v) { *p = v; }
__device__ __forceinline__ void st_cs(uint4* p, uint4 v) { __stcs(p, v); }

// kItems vectors a thread a round, consecutive rounds a grid stride apart.
template <int kItems, int kLoad, int kStore>
__global__ void __launch_bounds__(256) copy_vec(const uint4* __restrict__ in, uint4* __restrict__ out, int64_t n)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x * kItems;
    for (int64_t base = (int64_t)blockIdx.x * blockDim.x * kItems + threadIdx.x; base < n; base += stride) {
        uint4 v[kItems];
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            const int64_t i = base + (int64_t)k * blockDim.x;
            if (i < n) v[k] = kLoad == 0 ? ld_plain(in + i) : kLoad == 1 ? ld_nc(in + i) : ld_na(in + i);
        }
#pragma unroll
        for (int k = 0; k < kItems; ++k) {
            const int64_t i = base + (int64_t)k * blockDim.x;
            if (i < n) { if (kStore == 0) st_plain(out + i, v[k]); else st_cs(out + i, v[k]); }
        }
    }
}

template <typename F>
float time_ms(F&& f, cudaStream_t s)
{
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> t;
    for (int r = 0; r < 18; ++r) {
        cudaEventRecord(a, s);
        for (int i = 0; i < 10; ++i) f();
        cudaEventRecord(b, s);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        if (r >= 3) t.push_back(ms / 10);
    }
    std::sort(t.begin(), t.end());
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return t[t.size() / 2];
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    const int64_t bytes = (int64_t)1 << 32, n = bytes / 16;
    uint4 *in, *out;
    CK(cudaMalloc(&in, bytes));
    CK(cudaMalloc(&out, bytes));
    CK(cudaMemset(in, 7, bytes));
    CK(cudaMemset(out, 0, bytes));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    printf("%s, %d SMs; 4 GiB device-to-device copies, 2 x bytes / time (TB/s), median of 15 x 10 launches\n",
           prop.name, sms);
    auto report = [&](const char* name, float ms) { printf("%-52s %7.3f ms %6.3f TB/s\n", name, ms, 2.0 * bytes / (ms * 1e-3) / 1e12); };
    for (int pass = 0; pass < 2; ++pass) {
        printf("pass %d\n", pass);
        report("cudaMemcpyAsync", time_ms([&] { cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, s); }, s));
#define RUN(K, L, S, BLOCKS, NAME) \
        report(NAME, time_ms([&] { copy_vec<K, L, S><<<(BLOCKS), 256, 0, s>>>(in, out, n); }, s))
        const int64_t full = (n + 256 * 4 - 1) / (256 * 4);
        RUN(4, 0, 0, sms * 8, "4 vectors, plain, 8 blocks/SM persistent");
        RUN(4, 0, 0, full, "4 vectors, plain, one round a thread");
        RUN(4, 1, 0, full, "4 vectors, ld.nc, one round");
        RUN(4, 2, 0, full, "4 vectors, ld.nc.L1::no_allocate, one round");
        RUN(4, 0, 1, full, "4 vectors, st.cs, one round");
        RUN(4, 2, 1, full, "4 vectors, no_allocate + st.cs, one round");
        RUN(8, 0, 0, (n + 256 * 8 - 1) / (256 * 8), "8 vectors, plain, one round");
        RUN(8, 2, 1, (n + 256 * 8 - 1) / (256 * 8), "8 vectors, no_allocate + st.cs, one round");
        RUN(2, 0, 0, (n + 256 * 2 - 1) / (256 * 2), "2 vectors, plain, one round");
        RUN(1, 0, 0, (n + 255) / 256, "1 vector, plain, one round");
        RUN(4, 0, 0, sms * 4, "4 vectors, plain, 4 blocks/SM persistent");
        RUN(8, 0, 0, sms * 4, "8 vectors, plain, 4 blocks/SM persistent");
    }
    CK(cudaGetLastError());
    return 0;
}
