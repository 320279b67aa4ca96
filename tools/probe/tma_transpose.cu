// cuperm-tma-probe: does Hopper's bulk tensor copy (TMA) pay for transposes? (issue 14)
//
// A standalone kernel, not the library's: batched 2-D transposes [n0, n1, n2] perm (1, 0, 2) whose
// tiles come in and go out by cp.async.bulk.tensor (128-byte swizzled square tiles, S stages of
// loads completing on mbarriers, two output buffers), timed in the same process against
// cudaMemcpyAsync of the same bytes and against cuperm's own plan for the case (cupermPlanTranspose,
// public API), both outputs compared element by element. Each kernel thread moves 16-byte chunks
// between the swizzled buffers; the copy engine does every global access.
//
//   cuperm-tma-probe [--reps N] [--stages 2|4|8] [--boxes 1|2] TYPE:N0,N1[,N2] ...   TYPE f16, f32 or f64
// prints one line a case: times (median of N, CUDA events) and % of the same-run copy (2 x bytes / time).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuperm.h"
#include "probe/probe_common.cuh"

namespace {

using namespace probe;

constexpr int kThreads = 128;
constexpr int kLine = 128; // bytes of a tile row: the 128-byte swizzle's span

// Square boxes of T = 128 / sizeof(E) elements a side: in-buffer rows are n1 (128 bytes of n0 each),
// out-buffer rows n0 (128 bytes of n1); both in the copy engine's 128-byte swizzle (16-byte chunk c of
// row r at chunk c ^ (r % 8)), so a quarter warp reading one chunk of 8 rows, and a warp writing one
// element of 32 rows, meet no bank twice. A tile is K x K boxes (runs of K x 128 bytes on both sides),
// a stage holds one tile.
template <typename E, int S, int K>
__global__ void __launch_bounds__(kThreads) tma_transpose(const __grid_constant__ CUtensorMap in_map,
                                                        const __grid_constant__ CUtensorMap out_map, int tiles0,
                                                        int tiles1, long long tiles)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    constexpr int T = kLine / (int)sizeof(E), V = 16 / (int)sizeof(E), BOX = T * kLine, TILE = K * K * BOX;
    constexpr int ITEMS = T * 8 / kThreads; // (row, chunk) pairs a thread a box
    extern __shared__ __align__(1024) unsigned char smem_raw[];
    unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
    unsigned char* in_buf = smem;                 // S tiles
    unsigned char* out_buf = smem + S * TILE;     // 2 tiles
    uint64_t* full = reinterpret_cast<uint64_t*>(smem + (S + 2) * TILE);
    const int tid = threadIdx.x;
    auto coords = [&](long long t, int* x, int* y, int* b) {
        *x = (int)(t % tiles0) * K * T;
        const long long r = t / tiles0;
        *y = (int)(r % tiles1) * K * T;
        *b = (int)(r / tiles1);
    };
    auto load = [&](long long t, int s) {
        int x, y, b;
        coords(t, &x, &y, &b);
        mbar_expect(&full[s], TILE);
#pragma unroll
        for (int q = 0; q < K * K; ++q) // box q: n0 part q % K, n1 part q / K
            tma_load(in_buf + s * TILE + q * BOX, &in_map, x + (q % K) * T, y + (q / K) * T, b, &full[s]);
    };
    if (tid == 0) {
        for (int s = 0; s < S; ++s) mbar_init(&full[s], 1);
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    const long long first = blockIdx.x, step = gridDim.x;
    if (tid == 0)
        for (int s = 0; s < S && first + s * step < tiles; ++s) load(first + s * step, s);
    int i = 0;
    for (long long t = first; t < tiles; t += step, ++i) {
        const int s = i % S, ob = i & 1;
        mbar_wait(&full[s], (unsigned)((i / S) & 1));
        if (tid == 0) bulk_wait_read<1>(); // the stores from out_buf[ob] (two tiles ago) have read it
        __syncthreads();
#pragma unroll
        for (int q = 0; q < K * K; ++q) {
            const unsigned char* src = in_buf + s * TILE + q * BOX;
            unsigned char* dst = out_buf + ob * TILE + q * BOX; // out box q: n1 part q / K, n0 part q % K
#pragma unroll
            for (int k = 0; k < ITEMS; ++k) {
                const int u = tid + k * kThreads, y = u % T, c = u / T;
                const uint4 v = *reinterpret_cast<const uint4*>(src + y * kLine + 16 * (c ^ (y % 8)));
                E e[V];
                memcpy(e, &v, 16);
#pragma unroll
                for (int j = 0; j < V; ++j) {
                    const int x = c * V + j;
                    *reinterpret_cast<E*>(dst + x * kLine + 16 * ((y / V) ^ (x % 8)) + (int)sizeof(E) * (y % V)) = e[j];
                }
            }
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        __syncthreads(); // out_buf[ob] whole; every thread is done with in_buf[s]
        if (tid == 0) {
            int x, y, b;
            coords(t, &x, &y, &b);
#pragma unroll
            for (int q = 0; q < K * K; ++q)
                tma_store(&out_map, y + (q / K) * T, x + (q % K) * T, b, out_buf + ob * TILE + q * BOX);
            asm volatile("cp.async.bulk.commit_group;" ::: "memory");
            if (t + S * step < tiles) load(t + S * step, s);
        }
    }
    if (tid == 0) bulk_wait_read<0>();
#else
    __trap(); // the bulk tensor copy needs sm_90 (build with CMAKE_CUDA_ARCHITECTURES=90-real)
#endif
}

// Every output element checked against its source, on the GPU.
template <typename E>
__global__ void count_wrong(const E* in, const E* out, long long d0, long long d1, long long n, unsigned long long* bad)
{
    unsigned long long mine = 0;
    for (long long o = blockIdx.x * (long long)blockDim.x + threadIdx.x; o < n; o += (long long)gridDim.x * blockDim.x) {
        const long long i1 = o % d1, r = o / d1, i0 = r % d0, i2 = r / d0; // out[i1 + d1 (i0 + d0 i2)]
        mine += out[o] != in[(i2 * d1 + i1) * d0 + i0];
    }
    if (mine) atomicAdd(bad, mine);
}

// A 3-D map of a dense [d0, d1, d2] tensor (elements of es bytes), boxes of box0 x box1 x 1.
CUtensorMap make_map(void* base, int es, const long long d[3], int box0, int box1)
{
    CUtensorMap m;
    const cuuint64_t dims[3] = {(cuuint64_t)d[0], (cuuint64_t)d[1], (cuuint64_t)d[2]};
    const cuuint64_t strides[2] = {(cuuint64_t)(d[0] * es), (cuuint64_t)(d[0] * d[1] * es)};
    const cuuint32_t box[3] = {(cuuint32_t)box0, (cuuint32_t)box1, 1}, estr[3] = {1, 1, 1};
    const CUtensorMapDataType dt = es == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16
                                   : es == 4 ? CU_TENSOR_MAP_DATA_TYPE_UINT32
                                             : CU_TENSOR_MAP_DATA_TYPE_UINT64;
    CUresult r = encode_fn()(&m, dt, 3, base, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                             CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) {
        fprintf(stderr, "cuTensorMapEncodeTiled failed (%d)\n", (int)r);
        exit(1);
    }
    return m;
}

template <typename E, int S, int K> struct Tma {
    static constexpr int T = kLine / (int)sizeof(E);
    static size_t smem() { return (size_t)(S + 2) * K * K * T * kLine + S * 8 + 1024; }
    static void launch(const CUtensorMap& a, const CUtensorMap& b, const long long d[3], int grid, cudaStream_t st)
    {
        const int t0 = (int)((d[0] + K * T - 1) / (K * T)), t1 = (int)((d[1] + K * T - 1) / (K * T));
        tma_transpose<E, S, K><<<grid, kThreads, smem(), st>>>(a, b, t0, t1, (long long)t0 * t1 * d[2]);
    }
    static int grid()
    {
        int dev, sms, per = 0;
        CHECK(cudaGetDevice(&dev));
        CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        CHECK(cudaFuncSetAttribute(tma_transpose<E, S, K>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem()));
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, tma_transpose<E, S, K>, kThreads, smem()));
        return sms * per;
    }
};

template <typename E, int S, int K>
void run_case(const char* name, cupermDataType_t type, const long long d[3], int reps, cupermHandle_t h)
{
    const int es = (int)sizeof(E);
    const size_t n = (size_t)(d[0] * d[1] * d[2]), bytes = n * es;
    unsigned char *in, *out;
    CHECK(cudaMalloc(&in, bytes));
    CHECK(cudaMalloc(&out, bytes));
    fill_random<<<1024, 256>>>(in, bytes);
    CHECK(cudaGetLastError());
    unsigned long long* bad;
    CHECK(cudaMalloc(&bad, sizeof *bad));
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    const long long od[3] = {d[1], d[0], d[2]};
    const CUtensorMap a = make_map(in, es, d, Tma<E, S, K>::T, Tma<E, S, K>::T);
    const CUtensorMap b = make_map(out, es, od, Tma<E, S, K>::T, Tma<E, S, K>::T);
    const int grid = Tma<E, S, K>::grid();

    // cuperm's plan of the same case (public API)
    cupermPlan_t plan;
    const int64_t ext[3] = {d[0], d[1], d[2]};
    const int perm[3] = {1, 0, 2};
    if (cupermPlanTranspose(h, &plan, 3, ext, perm, type, NULL, NULL) != CUPERM_STATUS_SUCCESS) {
        fprintf(stderr, "cupermPlanTranspose failed\n");
        exit(1);
    }
    // integer types of the element's size: the move is exact whatever the random bits (NaN payloads)
    const int64_t one = 1, zero = 0;
    const int32_t one32 = 1, zero32 = 0;
    const int16_t one16 = 1, zero16 = 0;
    const void* alpha = es == 8 ? (const void*)&one : es == 4 ? (const void*)&one32 : (const void*)&one16;
    const void* beta = es == 8 ? (const void*)&zero : es == 4 ? (const void*)&zero32 : (const void*)&zero16;
    auto lib = [&] {
        if (cupermExecute(plan, alpha, in, beta, out, st) != CUPERM_STATUS_SUCCESS) {
            fprintf(stderr, "cupermExecute failed\n");
            exit(1);
        }
    };
    auto tma = [&] { Tma<E, S, K>::launch(a, b, d, grid, st); };
    auto copy = [&] { CHECK(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice, st)); };

    unsigned long long wrong[2];
    for (int v = 0; v < 2; ++v) {
        CHECK(cudaMemset(out, 0x5a, bytes));
        if (v == 0) tma();
        else lib();
        CHECK(cudaGetLastError());
        CHECK(cudaMemset(bad, 0, sizeof *bad));
        count_wrong<E><<<1024, 256>>>(reinterpret_cast<const E*>(in), reinterpret_cast<const E*>(out), d[0], d[1],
                                      (long long)n, bad);
        CHECK(cudaMemcpy(&wrong[v], bad, sizeof *bad, cudaMemcpyDeviceToHost));
    }
    float tc = 0, tt = 0, tl = 0;
    for (int round = 0; round < 2; ++round) { // alternated, the better of two medians each
        const float c = median_ms(reps, st, out, bytes, copy), t = median_ms(reps, st, out, bytes, tma),
                    l = median_ms(reps, st, out, bytes, lib);
        tc = round ? std::min(tc, c) : c, tt = round ? std::min(tt, t) : t, tl = round ? std::min(tl, l) : l;
    }
    const double gb = 2.0 * (double)bytes / 1e9;
    printf("%s S=%d K=%d grid=%d | copy %.4f ms %.0f GB/s | tma %.4f ms %.1f%% | cuperm %.4f ms %.1f%% | "
           "tma/cuperm time %.3f | wrong: tma %llu, cuperm %llu\n",
           name, S, K, grid, tc, gb / tc * 1e3, tt, 100.0 * tc / tt, tl, 100.0 * tc / tl, tt / tl, wrong[0], wrong[1]);
    fflush(stdout);
    cupermPlanDestroy(plan);
    CHECK(cudaStreamDestroy(st));
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(bad));
}

template <typename E>
bool type_is(const char* type, const char* name, cupermDataType_t t, int stages, int boxes, const char* arg,
             const long long d[3], int reps, cupermHandle_t h)
{
    if (strcmp(type, name)) return false;
    if (boxes == 2) {
        if (stages == 2) run_case<E, 2, 2>(arg, t, d, reps, h);
        else run_case<E, 4, 2>(arg, t, d, reps, h);
    } else {
        if (stages == 8) run_case<E, 8, 1>(arg, t, d, reps, h);
        else run_case<E, 4, 1>(arg, t, d, reps, h);
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    int reps = 20, stages = 4, boxes = 1;
    cupermHandle_t h;
    if (cupermCreate(&h) != CUPERM_STATUS_SUCCESS) return 1;
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    printf("GPU: %s (%d SMs)\n", p.name, p.multiProcessorCount);
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            continue;
        }
        if (!strcmp(argv[i], "--boxes") && i + 1 < argc) {
            boxes = atoi(argv[++i]);
            continue;
        }
        if (!strcmp(argv[i], "--stages") && i + 1 < argc) {
            stages = atoi(argv[++i]);
            continue;
        }
        char type[8] = {0};
        long long d[3] = {1, 1, 1};
        const char* colon = strchr(argv[i], ':');
        if (!colon || colon - argv[i] > 4) return 2;
        memcpy(type, argv[i], colon - argv[i]);
        if (sscanf(colon + 1, "%lld,%lld,%lld", &d[0], &d[1], &d[2]) < 2) return 2;
        const bool ok = type_is<uint32_t>(type, "f32", CUPERM_R_32I, stages, boxes, argv[i], d, reps, h) ||
                        type_is<uint64_t>(type, "f64", CUPERM_R_64I, stages, boxes, argv[i], d, reps, h) ||
                        type_is<uint16_t>(type, "f16", CUPERM_R_16I, stages, boxes, argv[i], d, reps, h);
        if (!ok) return 2;
    }
    cupermDestroy(h);
    return 0;
}
