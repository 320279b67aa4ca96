// cuperm-dwrite-probe: can a short-K contraction write D at copy speed when every warp reads its own
// mma fragments straight from L2? (issue 15, the D-tile packed path)
//
// TCCG 31-48 are D[m, n] = A[m, k] B[k, n] with k = 24 and D of 75 MB: their time is writing D. The
// library's packed D-tile kernel (backend/cuda/gett/gett_dtile_packed.cu) bulk-copies each work item's
// panels into a two-stage shared-memory ring that its 8 warps share, and writes D at about 2.3 TB/s
// (DRAM 31% busy, session 51's profile: latency-bound, warps waiting on the ring's mbarriers). This
// standalone kernel, not the library's, has no shared memory and no barrier: the operands are packed
// once in mma fragment order (one 16-byte load a lane a fragment pair), each warp loads its A strip's
// fragments once a work unit and B's a chunk ahead of the products, multiplies (mma.sync m16n8k16,
// fp32 accumulators) and stores its 32 x WN block of D from registers in 16-byte pieces after a quad
// shuffle (the library's direct path). Warps never wait for each other.
//
// Timed in the same process, graph replays of 20 runs (median of 15): this kernel; the same stores
// with no loads or products (the ceiling of its store pattern); cudaMemsetAsync and a linear 16-byte
// store kernel of D's bytes (the device's write ceiling); a device copy of D's bytes (2 x bytes / time);
// the pack kernels; cuBLAS's GEMM of the same m, n, k (row-major, NN: the issue's yardstick). D of this
// kernel and of cuBLAS are checked element by element against a host reference after a poisoned run.
//
//   cuperm-dwrite-probe [--check] [--interleave] [--wn 32|64] [--cpu 1|4|8] [--blocks-per-sm N] M N K ...   (triples; M % 32 == 0,
//   N % (WN * CPU) == 0, K <= 64)
// --cpu: chunks of WN columns a work unit (its A strip loaded once); --blocks-per-sm: the persistent
// grid (0: one block a work-unit-octet, no grid stride).
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "backend/cuda/gett/gett_exchange.cuh" // the library's quad exchange
#include "probe/probe_common.cuh"

namespace {

using namespace probe;

constexpr int kWarps = 8;

// A row-major [m][k] -> fragments: entry ((r16 KS + ks) 32 + lane) holds the m16n8k16 A fragment of
// rows r16*16.., columns ks*16.. (zero past k).
__global__ void pack_a(const __half* A, uint4* Ap, int m, int k, int KS)
{
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x, total = (long long)m / 16 * KS * 32;
    if (i >= total) return;
    const int lane = (int)(i % 32), ks = (int)(i / 32 % KS);
    const long long r16 = i / 32 / KS;
    const int g = lane / 4, t = lane % 4;
    __half e[8];
    const int rows[4] = {g, g + 8, g, g + 8}, cols[4] = {2 * t, 2 * t, 2 * t + 8, 2 * t + 8};
    for (int q = 0; q < 4; ++q)
        for (int h = 0; h < 2; ++h) {
            const int c = ks * 16 + cols[q] + h;
            e[2 * q + h] = c < k ? A[(r16 * 16 + rows[q]) * k + c] : __float2half(0.f);
        }
    uint4 w;
    memcpy(&w, e, sizeof w);
    Ap[i] = w;
}

// B row-major [k][n] -> fragments: entry ((n16 KS + ks) 32 + lane) holds the B fragments (b0, b1) of
// columns n16*16.. and of n16*16 + 8.. , rows ks*16.. (zero past k).
__global__ void pack_b(const __half* B, uint4* Bp, int n, int k, int KS)
{
    const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x, total = (long long)n / 16 * KS * 32;
    if (i >= total) return;
    const int lane = (int)(i % 32), ks = (int)(i / 32 % KS);
    const long long n16 = i / 32 / KS;
    const int g = lane / 4, t = lane % 4;
    __half e[8];
    for (int f = 0; f < 2; ++f)       // the two n8 fragments
        for (int q = 0; q < 2; ++q)   // b0, b1
            for (int h = 0; h < 2; ++h) {
                const int r = ks * 16 + 2 * t + 8 * q + h;
                e[4 * f + 2 * q + h] = r < k ? B[(long long)r * n + n16 * 16 + f * 8 + g] : __float2half(0.f);
            }
    uint4 w;
    memcpy(&w, e, sizeof w);
    Bp[i] = w;
}

__device__ __forceinline__ void mma16816(float (&d)[4], const uint4& a, unsigned b0, unsigned b1)
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1));
}

__device__ __forceinline__ unsigned pack2(float x, float y)
{
    const __half2 h = __floats2half2_rn(x, y);
    unsigned w;
    memcpy(&w, &h, 4);
    return w;
}

// A work unit: one 32-row strip of D by CPU chunks of WN columns. kStoresOnly: the same stores of
// constant pieces, no loads or products.
template <int KS, int WN, int CPU, bool kStoresOnly>
__global__ void __launch_bounds__(kWarps * 32, 2) dwrite(const uint4* __restrict__ Ap, const uint4* __restrict__ Bp,
                                                       __half* __restrict__ D, int n, float alpha, long long units,
                                                       bool interleave)
{
    constexpr int NF = WN / 8, NP = NF / 2; // n8 fragments, fragment pairs (16-byte B entries)
    const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4, warp = threadIdx.x / 32;
    // A unit: a warp's CPU consecutive chunks of a strip, or (interleave) a block's 8 CPU chunks, warp w
    // taking chunks w, w + 8, ...: the block then writes 8 neighbouring chunks at a time.
    const int per = interleave ? kWarps * CPU : CPU, ranges = n / WN / per, cstep = interleave ? kWarps : 1;
    const long long first = interleave ? blockIdx.x : blockIdx.x * (long long)kWarps + warp;
    const long long stride = interleave ? gridDim.x : (long long)gridDim.x * kWarps;
    for (long long u = first; u < units; u += stride) {
        const long long strip = u / ranges;
        const int cb = (int)(u % ranges) * per + (interleave ? warp : 0);
        uint4 a[2][KS], b[NP][KS];
        if constexpr (!kStoresOnly) {
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int ks = 0; ks < KS; ++ks) a[i][ks] = __ldg(Ap + ((strip * 2 + i) * KS + ks) * 32 + lane);
#pragma unroll
            for (int j = 0; j < NP; ++j)
#pragma unroll
                for (int ks = 0; ks < KS; ++ks) b[j][ks] = __ldg(Bp + (((long long)cb * NP + j) * KS + ks) * 32 + lane);
        }
        for (int c = 0; c < CPU; ++c) {
            float acc[2][NF][4];
            if constexpr (!kStoresOnly) {
#pragma unroll
                for (int i = 0; i < 2; ++i)
#pragma unroll
                    for (int f = 0; f < NF; ++f) acc[i][f][0] = acc[i][f][1] = acc[i][f][2] = acc[i][f][3] = 0.f;
#pragma unroll
                for (int ks = 0; ks < KS; ++ks)
#pragma unroll
                    for (int i = 0; i < 2; ++i)
#pragma unroll
                        for (int j = 0; j < NP; ++j) {
                            mma16816(acc[i][2 * j], a[i][ks], b[j][ks].x, b[j][ks].y);
                            mma16816(acc[i][2 * j + 1], a[i][ks], b[j][ks].z, b[j][ks].w);
                        }
                if (c + 1 < CPU) // the next chunk's fragments, in flight during the stores
#pragma unroll
                    for (int j = 0; j < NP; ++j)
#pragma unroll
                        for (int ks = 0; ks < KS; ++ks)
                            b[j][ks] = __ldg(Bp + (((long long)(cb + (c + 1) * cstep) * NP + j) * KS + ks) * 32 + lane);
            } else {
#pragma unroll
                for (int i = 0; i < 2; ++i)
#pragma unroll
                    for (int f = 0; f < NF; ++f) acc[i][f][0] = acc[i][f][1] = acc[i][f][2] = acc[i][f][3] = (float)(lane + f);
            }
            __half* const Dc = D + (strip * 32) * (long long)n + (long long)(cb + c * cstep) * WN;
#pragma unroll
            for (int i = 0; i < 2; ++i)
#pragma unroll
                for (int h = 0; h < 2; ++h)
#pragma unroll
                    for (int q = 0; q < NF / 4; ++q) {
                        unsigned w[4];
#pragma unroll
                        for (int m = 0; m < 4; ++m)
                            w[m] = pack2(alpha * acc[i][4 * q + m][2 * h], alpha * acc[i][4 * q + m][2 * h + 1]);
                        cuperm::gett::exchange(w, t);
                        *reinterpret_cast<uint4*>(Dc + (long long)(i * 16 + g + 8 * h) * n + q * 32 + 8 * t) =
                            make_uint4(w[0], w[1], w[2], w[3]);
                    }
        }
    }
}

__global__ void linear_store(uint4* p, long long n16)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n16; i += (long long)gridDim.x * blockDim.x)
        p[i] = make_uint4((unsigned)i, 1u, 2u, 3u);
}

__global__ void copy16(const uint4* __restrict__ s, uint4* __restrict__ d, long long n16)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n16; i += (long long)gridDim.x * blockDim.x)
        d[i] = __ldg(s + i);
}

struct Opts {
    int wn = 64, cpu = 8, bps = 0;
    bool interleave = false; // --interleave: a block's warps take neighbouring chunks at a time
    bool checkOnly = false; // --check: correctness only, no timing (for compute-sanitizer)
};

template <int KS, int WN, int CPU, bool S> void launch(const Opts& o, int sms, const uint4* Ap, const uint4* Bp, __half* D,
                                                       int m, int n, cudaStream_t st)
{
    const long long units = (long long)m / 32 * (n / WN / CPU / (o.interleave ? kWarps : 1));
    const long long want = o.interleave ? units : (units + kWarps - 1) / kWarps;
    const int grid = (int)(o.bps > 0 ? std::min<long long>(want, (long long)o.bps * sms) : want);
    dwrite<KS, WN, CPU, S><<<grid, kWarps * 32, 0, st>>>(Ap, Bp, D, n, 1.0f, units, o.interleave);
}

template <int KS, int WN, bool S> bool dispatch_cpu(const Opts& o, int sms, const uint4* Ap, const uint4* Bp, __half* D,
                                                    int m, int n, cudaStream_t st)
{
    switch (o.cpu) {
    case 1: launch<KS, WN, 1, S>(o, sms, Ap, Bp, D, m, n, st); return true;
    case 4: launch<KS, WN, 4, S>(o, sms, Ap, Bp, D, m, n, st); return true;
    case 8: launch<KS, WN, 8, S>(o, sms, Ap, Bp, D, m, n, st); return true;
    default: return false;
    }
}

template <bool S> bool dispatch(const Opts& o, int KS, int sms, const uint4* Ap, const uint4* Bp, __half* D, int m, int n,
                                cudaStream_t st)
{
    if (o.wn == 64) {
        switch (KS) {
        case 1: return dispatch_cpu<1, 64, S>(o, sms, Ap, Bp, D, m, n, st);
        case 2: return dispatch_cpu<2, 64, S>(o, sms, Ap, Bp, D, m, n, st);
        case 3: return dispatch_cpu<3, 64, S>(o, sms, Ap, Bp, D, m, n, st);
        case 4: return dispatch_cpu<4, 64, S>(o, sms, Ap, Bp, D, m, n, st);
        }
    } else if (o.wn == 32) {
        switch (KS) {
        case 1: return dispatch_cpu<1, 32, S>(o, sms, Ap, Bp, D, m, n, st);
        case 2: return dispatch_cpu<2, 32, S>(o, sms, Ap, Bp, D, m, n, st);
        case 3: return dispatch_cpu<3, 32, S>(o, sms, Ap, Bp, D, m, n, st);
        case 4: return dispatch_cpu<4, 32, S>(o, sms, Ap, Bp, D, m, n, st);
        }
    }
    return false;
}

// Elements of D (m x n, row-major) off the host reference by more than fp16 rounding allows.
long long wrong(const std::vector<__half>& got, const std::vector<float>& A, const std::vector<float>& B, int m, int n, int k)
{
    long long bad = 0;
    std::vector<float> row(n);
    for (int r = 0; r < m; ++r) {
        std::fill(row.begin(), row.end(), 0.f);
        for (int c = 0; c < k; ++c) {
            const float a = A[(size_t)r * k + c];
            const float* b = &B[(size_t)c * n];
            for (int j = 0; j < n; ++j) row[j] += a * b[j];
        }
        for (int j = 0; j < n; ++j) {
            const float x = __half2float(got[(size_t)r * n + j]);
            if (!(std::fabs(x - row[j]) <= 2e-2f + 2e-3f * std::fabs(row[j]))) ++bad;
        }
    }
    return bad;
}

void run_case(const Opts& o, int m, int n, int k, int sms, cublasHandle_t blas, cudaStream_t st)
{
    const int KS = (k + 15) / 16;
    if (m % 32 || n % (o.wn * o.cpu * (o.interleave ? kWarps : 1)) || k < 1 || k > 64) {
        printf("m=%d n=%d k=%d: not for this kernel (m %% 32, n %% (WN CPU), k <= 64)\n", m, n, k);
        return;
    }
    const size_t dBytes = (size_t)m * n * 2;
    std::vector<float> hA((size_t)m * k), hB((size_t)k * n);
    std::vector<__half> hAh(hA.size()), hBh(hB.size());
    uint64_t x = 0x243f6a8885a308d3ull ^ ((uint64_t)m << 32) ^ ((uint64_t)n << 8) ^ (uint64_t)k;
    auto rnd = [&]() {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        return (float)((x >> 11) % 2001) / 1000.f - 1.f;
    };
    for (size_t i = 0; i < hA.size(); ++i) hAh[i] = __float2half(rnd()), hA[i] = __half2float(hAh[i]);
    for (size_t i = 0; i < hB.size(); ++i) hBh[i] = __float2half(rnd()), hB[i] = __half2float(hBh[i]);
    __half *A, *B, *D, *D2;
    uint4 *Ap, *Bp;
    CHECK(cudaMalloc(&A, hA.size() * 2));
    CHECK(cudaMalloc(&B, hB.size() * 2));
    CHECK(cudaMalloc(&D, dBytes));
    CHECK(cudaMalloc(&D2, dBytes));
    CHECK(cudaMalloc(&Ap, (size_t)m / 16 * KS * 32 * 16));
    CHECK(cudaMalloc(&Bp, (size_t)n / 16 * KS * 32 * 16));
    CHECK(cudaMemcpy(A, hAh.data(), hA.size() * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(B, hBh.data(), hB.size() * 2, cudaMemcpyHostToDevice));
    auto release = [&]() {
        for (void* p : {(void*)A, (void*)B, (void*)D, (void*)D2, (void*)Ap, (void*)Bp}) CHECK(cudaFree(p));
    };
    const long long na = (long long)m / 16 * KS * 32, nb = (long long)n / 16 * KS * 32;
    auto pack = [&]() {
        pack_a<<<(unsigned)((na + 255) / 256), 256, 0, st>>>(A, Ap, m, k, KS);
        pack_b<<<(unsigned)((nb + 255) / 256), 256, 0, st>>>(B, Bp, n, k, KS);
    };
    auto probe = [&]() { dispatch<false>(o, KS, sms, Ap, Bp, D, m, n, st); };
    auto stores = [&]() { dispatch<true>(o, KS, sms, Ap, Bp, D2, m, n, st); };
    const float one = 1.f, zero = 0.f;
    auto gemm = [&]() { // row-major D = A B as column-major D^T = B^T A^T
        cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, CUDA_R_16F, n, A, CUDA_R_16F, k, &zero, D2,
                     CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    };
    const long long n16 = (long long)(dBytes / 16);
    auto mset = [&]() { CHECK(cudaMemsetAsync(D2, 0x3c, dBytes, st)); };
    auto linear = [&]() { linear_store<<<sms * 8, 256, 0, st>>>(reinterpret_cast<uint4*>(D2), n16); };
    auto copy = [&]() { copy16<<<sms * 8, 256, 0, st>>>(reinterpret_cast<const uint4*>(D), reinterpret_cast<uint4*>(D2), n16); };

    // correctness: poisoned D, one run each
    std::vector<__half> got((size_t)m * n);
    pack();
    CHECK(cudaMemsetAsync(D, 0x7e, dBytes, st)); // NaN halves
    if (!dispatch<false>(o, KS, sms, Ap, Bp, D, m, n, st)) {
        printf("no instance for WN %d CPU %d KS %d\n", o.wn, o.cpu, KS);
        exit(1);
    }
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), D, dBytes, cudaMemcpyDeviceToHost));
    const long long badProbe = wrong(got, hA, hB, m, n, k);
    CHECK(cudaMemsetAsync(D2, 0x7e, dBytes, st));
    cublasSetStream(blas, st);
    gemm();
    CHECK(cudaStreamSynchronize(st));
    CHECK(cudaMemcpy(got.data(), D2, dBytes, cudaMemcpyDeviceToHost));
    const long long badGemm = wrong(got, hA, hB, m, n, k);

    if (o.checkOnly) {
        printf("m=%d n=%d k=%d WN=%d CPU=%d: not timed | wrong: probe %lld, gemm %lld\n", m, n, k, o.wn, o.cpu, badProbe, badGemm);
        stores(); // the stores-only kernel too, for the sanitizers
        CHECK(cudaStreamSynchronize(st));
        release();
        return;
    }
    // timing, each kind alternated twice, the better median kept: median of 15 replays of a graph of 20 runs
    auto time_ms = [&](auto run) { return median_ms(15, st, nullptr, 0, run, 20); };
    float tp = 1e9f, ts = 1e9f, tg = 1e9f, tm = 1e9f, tl = 1e9f, tc = 1e9f, tk = 1e9f;
    for (int round = 0; round < 2; ++round) {
        tp = std::min(tp, time_ms(probe));
        ts = std::min(ts, time_ms(stores));
        tg = std::min(tg, time_ms(gemm));
        tm = std::min(tm, time_ms(mset));
        tl = std::min(tl, time_ms(linear));
        tc = std::min(tc, time_ms(copy));
        tk = std::min(tk, time_ms(pack));
    }
    const double gb = dBytes / 1e6; // GB/s = MB / ms
    printf("m=%d n=%d k=%d WN=%d CPU=%d%s bps=%d | probe %.4f ms %.0f GB/s gemm/probe %.3f | stores-only %.4f ms %.0f GB/s | "
           "memset %.0f GB/s | linear-store %.0f GB/s | copy %.0f GB/s (2x bytes) | pack %.4f ms | gemm %.4f ms %.0f GB/s | "
           "wrong: probe %lld, gemm %lld\n",
           m, n, k, o.wn, o.cpu, o.interleave ? " interleaved" : "", o.bps, tp, gb / tp, tg / tp, ts, gb / ts, gb / tm, gb / tl, 2 * gb / tc, tk, tg, gb / tg,
           badProbe, badGemm);
    fflush(stdout);
    release();
}

} // namespace

int main(int argc, char** argv)
{
    Opts o;
    std::vector<int> dims;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--wn") && i + 1 < argc) o.wn = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cpu") && i + 1 < argc) o.cpu = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--blocks-per-sm") && i + 1 < argc) o.bps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--check")) o.checkOnly = true;
        else if (!strcmp(argv[i], "--interleave")) o.interleave = true;
        else dims.push_back(atoi(argv[i]));
    }
    if (dims.empty() || dims.size() % 3 || (o.wn != 32 && o.wn != 64) || (o.cpu != 1 && o.cpu != 4 && o.cpu != 8)) {
        fprintf(stderr, "usage: %s [--check] [--interleave] [--wn 32|64] [--cpu 1|4|8] [--blocks-per-sm N] M N K ...\n", argv[0]);
        return 2;
    }
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("GPU: %s (%d SMs)\n", prop.name, prop.multiProcessorCount);
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    cublasHandle_t blas;
    if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) return 1;
    for (size_t i = 0; i < dims.size(); i += 3) run_case(o, dims[i], dims[i + 1], dims[i + 2], prop.multiProcessorCount, blas, st);
    cublasDestroy(blas);
    return 0;
}
