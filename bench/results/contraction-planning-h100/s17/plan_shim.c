/* LD_PRELOAD shim: where cupermPlanContractionAlgo's host time goes. Times every call of the
 * plan entry point and, only while one runs, the CUDA runtime and cuBLASLt calls it makes
 * (counts and microseconds, printed at exit). A diagnostic for one experiment, not part of
 * the library: gcc -O2 -shared -fPIC -o plan_shim.so plan_shim.c -ldl -I<repo>/include */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

#include <cublasLt.h>
#include <cuda_runtime.h>

#include "cuperm.h"

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

enum { F_PLAN, F_HEUR, F_GETDEV, F_ATTR, F_PROPS, F_MALLOC, F_MEMCPY, F_FUNCATTR, F_OCC, F_N };
static const char* const names[F_N] = {"cupermPlanContractionAlgo", "cublasLtMatmulAlgoGetHeuristic", "cudaGetDevice",
                                       "cudaDeviceGetAttribute", "cudaGetDeviceProperties", "cudaMalloc",
                                       "cudaMemcpy", "cudaFuncGetAttributes",
                                       "cudaOccupancyMaxActiveBlocksPerMultiprocessor"};
static double total[F_N];
static long count[F_N];
static __thread int inside;

#define NEXT(type, name) static type next_##name; if (!next_##name) next_##name = (type)dlsym(RTLD_NEXT, #name)
#define TIMED(id, call)                                                                                          \
    do {                                                                                                         \
        const double t0_ = now_us();                                                                             \
        call;                                                                                                    \
        if (inside || (id) == F_PLAN) total[id] += now_us() - t0_, ++count[id];                                  \
    } while (0)

cupermStatus_t cupermPlanContractionAlgo(cupermHandle_t h, cupermContractionPlan_t* p, const cupermTensorDescriptor_t* a,
                                         const cupermTensorDescriptor_t* b, const cupermTensorDescriptor_t* c,
                                         const cupermTensorDescriptor_t* d, cupermComputeType_t ct,
                                         cupermPlanMode_t mode, cupermContractionAlgo_t algo)
{
    typedef cupermStatus_t (*fn)(cupermHandle_t, cupermContractionPlan_t*, const cupermTensorDescriptor_t*,
                                 const cupermTensorDescriptor_t*, const cupermTensorDescriptor_t*,
                                 const cupermTensorDescriptor_t*, cupermComputeType_t, cupermPlanMode_t,
                                 cupermContractionAlgo_t);
    NEXT(fn, cupermPlanContractionAlgo);
    cupermStatus_t s;
    inside = 1;
    TIMED(F_PLAN, s = next_cupermPlanContractionAlgo(h, p, a, b, c, d, ct, mode, algo));
    inside = 0;
    return s;
}

cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lt, cublasLtMatmulDesc_t op, cublasLtMatrixLayout_t a,
                                              cublasLtMatrixLayout_t b, cublasLtMatrixLayout_t c,
                                              cublasLtMatrixLayout_t d, cublasLtMatmulPreference_t pref, int n,
                                              cublasLtMatmulHeuristicResult_t* r, int* got)
{
    typedef cublasStatus_t (*fn)(cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
                                 cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                                 cublasLtMatmulPreference_t, int, cublasLtMatmulHeuristicResult_t*, int*);
    NEXT(fn, cublasLtMatmulAlgoGetHeuristic);
    cublasStatus_t s;
    TIMED(F_HEUR, s = next_cublasLtMatmulAlgoGetHeuristic(lt, op, a, b, c, d, pref, n, r, got));
    return s;
}

cudaError_t cudaGetDevice(int* d)
{
    typedef cudaError_t (*fn)(int*);
    NEXT(fn, cudaGetDevice);
    cudaError_t s;
    TIMED(F_GETDEV, s = next_cudaGetDevice(d));
    return s;
}

cudaError_t cudaDeviceGetAttribute(int* v, enum cudaDeviceAttr a, int d)
{
    typedef cudaError_t (*fn)(int*, enum cudaDeviceAttr, int);
    NEXT(fn, cudaDeviceGetAttribute);
    cudaError_t s;
    TIMED(F_ATTR, s = next_cudaDeviceGetAttribute(v, a, d));
    return s;
}

cudaError_t cudaMalloc(void** p, size_t n)
{
    typedef cudaError_t (*fn)(void**, size_t);
    NEXT(fn, cudaMalloc);
    cudaError_t s;
    TIMED(F_MALLOC, s = next_cudaMalloc(p, n));
    return s;
}

cudaError_t cudaMemcpy(void* d, const void* s_, size_t n, enum cudaMemcpyKind k)
{
    typedef cudaError_t (*fn)(void*, const void*, size_t, enum cudaMemcpyKind);
    NEXT(fn, cudaMemcpy);
    cudaError_t s;
    TIMED(F_MEMCPY, s = next_cudaMemcpy(d, s_, n, k));
    return s;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* a, const void* f)
{
    typedef cudaError_t (*fn)(struct cudaFuncAttributes*, const void*);
    NEXT(fn, cudaFuncGetAttributes);
    cudaError_t s;
    TIMED(F_FUNCATTR, s = next_cudaFuncGetAttributes(a, f));
    return s;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* n, const void* f, int threads, size_t smem)
{
    typedef cudaError_t (*fn)(int*, const void*, int, size_t);
    NEXT(fn, cudaOccupancyMaxActiveBlocksPerMultiprocessor);
    cudaError_t s;
    TIMED(F_OCC, s = next_cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, f, threads, smem));
    return s;
}

__attribute__((destructor)) static void report(void)
{
    fprintf(stderr, "plan_shim: function, calls inside plans, total us, us per plan\n");
    for (int i = 0; i < F_N; ++i)
        if (count[i])
            fprintf(stderr, "plan_shim: %s, %ld, %.1f, %.2f\n", names[i], count[i], total[i],
                    count[F_PLAN] ? total[i] / count[F_PLAN] : 0.0);
}
