// Does a kernel's parameter size cost GPU time per launch? Graph replays (as cuperm-bench times L2-sized
// transposes) of the same one-wave kernel with parameter blocks of 16 B to 1.6 KB, idle or copying
// 1 MB; the tile kernels' parameters are about 1.4 KB (cuperm_tile_params_t with CUPERM_MAX_RANK
// dimensions, plus cuperm_tile_divs_t).
//   nvcc -O3 -arch=sm_90 -o param_probe param_probe.cu && ./param_probe
#include <cstdio>
#include <cstdint>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

template <int kBytes>
struct Pad {
    int64_t w[kBytes / 8];
};

// Copies n floats (one wave: each thread moves elements i, i + stride, ...), reading one word of the
// parameter block so that it is not optimised away.
template <int kBytes>
__global__ void copy_kernel(const Pad<kBytes> p, const float* __restrict__ in, float* __restrict__ out, int64_t n)
{
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    const int64_t extra = p.w[blockIdx.x % (kBytes / 8)] == 12345 ? 1 : 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i] + (float)extra;
}

template <int kBytes>
float time_graph(const float* in, float* out, int64_t n, int blocks, cudaStream_t s)
{
    Pad<kBytes> p{};
    cudaGraph_t g;
    cudaGraphExec_t ge;
    const int kLaunches = 100;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    for (int i = 0; i < kLaunches; ++i) copy_kernel<kBytes><<<blocks, 256, 0, s>>>(p, in, out, n);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&ge, g, 0);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> t;
    for (int r = 0; r < 25; ++r) {
        cudaEventRecord(a, s);
        cudaGraphLaunch(ge, s);
        cudaEventRecord(b, s);
        cudaEventSynchronize(b);
        float ms;
        cudaEventElapsedTime(&ms, a, b);
        if (r >= 5) t.push_back(ms * 1000.0f / kLaunches);
    }
    std::sort(t.begin(), t.end());
    cudaGraphExecDestroy(ge);
    cudaGraphDestroy(g);
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return t[t.size() / 2];
}

int main()
{
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
    const int64_t n = 1 << 18; // 1 MB of floats
    float *in, *out;
    CK(cudaMalloc(&in, 16 * n * 4));
    CK(cudaMalloc(&out, 16 * n * 4));
    CK(cudaMemset(in, 1, 16 * n * 4));
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    printf("us per launch (median of 20 replays of a 100-launch graph)\n");
    printf("%-28s %8s %8s %8s %8s %8s\n", "work", "16 B", "256 B", "768 B", "1408 B", "1600 B");
    struct Work { const char* name; int64_t n; int blocks; } works[] = {
        {"n = 0, 1 block", 0, 1}, {"n = 0, 264 blocks", 0, 264}, {"1 MB copy, 264 blocks", n, 264},
        {"1 MB copy, 1056 blocks", n, 1056}, {"16 MB copy, 1056 blocks", 16 * n, 1056}};
    for (const Work& w : works) {
        float t16, t256, t768, t1408, t1600;
        for (int rep = 0; rep < 2; ++rep) { // the second pass is the one printed (warm)
            t16 = time_graph<16>(in, out, w.n, w.blocks, s);
            t256 = time_graph<256>(in, out, w.n, w.blocks, s);
            t768 = time_graph<768>(in, out, w.n, w.blocks, s);
            t1408 = time_graph<1408>(in, out, w.n, w.blocks, s);
            t1600 = time_graph<1600>(in, out, w.n, w.blocks, s);
        }
        printf("%-28s %8.3f %8.3f %8.3f %8.3f %8.3f\n", w.name, t16, t256, t768, t1408, t1600);
    }
    CK(cudaGetLastError());
    return 0;
}
