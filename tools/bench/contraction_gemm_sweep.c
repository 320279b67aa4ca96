/*
 * cuperm-ctr-gemm-sweep: times cuBLAS GEMMs of the shapes a contraction planner
 * chooses between (skinny and small, strided-batched with and without a shared
 * operand, pointer-array batched, every pair of transpose flags) in f16 (fp32
 * accumulation) and f32, and writes one CSV row per GEMM. The contraction GEMM
 * model (src/plan/contraction/gemm_fit.h) is fitted to this file by
 * tools/bench/contraction_gemm_fit.py; docs/contractions.md has the method.
 *
 * Usage: cuperm-ctr-gemm-sweep OUT.csv [f16,f32] [all|deep|wide|odd|pad]
 * deep: only the family of deep, narrow GEMMs (k of 2^16 and 2^19, m and n of 4 to 128, batches
 * of 1 to 64: few thread blocks, each streaming a long k) that the first sweep never measured and
 * random contractions planned into (a strided batch of 14 GEMMs m=110 n=7 k=1331000 took 8.6 ms
 * on the H100 where the model said 0.3 ms).
 * wide: only deep GEMMs of wider m and n (256 and 512, k of 2^16 and 2^17, batches of 1 and 8), where the
 * flags matter more than at 128: a TCCG48 plan's NT GEMM of m=312 n=296 k=92352 took 1.69x an NN GEMM of
 * the same shape on the H200 (session 52's tccg48 f16 file), and the deep family had no such shape.
 * odd: only the family of leading dimensions that are not multiples of 8 elements (so not of 16
 * bytes in f16), which the first sweep never had and which contractions of odd extents make
 * (f16 plans' own GEMMs ran up to 9x the model there). No pointer arrays: the planner uses them
 * only when every pointer is 16-byte aligned.
 * pad: odd extents of real plans dense, with leading dimensions rounded up to 8 elements, and with
 * the extents rounded up (sweep_pad).
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contraction_suites.h"
#include "support/dtype.h"
#include "support/timer.h"

typedef struct {
    char opA, opB;
    int64_t m, n, k, batch;
    int shareA, shareB; /* batch stride 0 */
    int pointers;       /* cublasGemmBatchedEx instead of the strided call */
    int padLd;          /* leading dimensions rounded up to 8 elements (the pad family) */
} sweep_gemm;

static int64_t up8(int64_t x) { return (x + 7) / 8 * 8; }

typedef struct {
    cublasHandle_t blas;
    const dtype_info* t; /* f16 or f32; its cuBLAS type has the same value */
    void *a, *b, *c;
    void** arrays; /* device: batch A, batch B, batch C pointers */
    cudaStream_t s;
} sweep_ctx;

static int run(const sweep_ctx* x, const sweep_gemm* g)
{
    const float one = 1, zero = 0;
    const cublasOperation_t oa = g->opA == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T;
    const cublasOperation_t ob = g->opB == 'N' ? CUBLAS_OP_N : CUBLAS_OP_T;
    int64_t lda = g->opA == 'N' ? g->m : g->k, ldb = g->opB == 'N' ? g->k : g->n, ldc = g->m;
    if (g->padLd) lda = up8(lda), ldb = up8(ldb), ldc = up8(ldc);
    const cudaDataType_t T = (cudaDataType_t)x->t->type;
    cublasStatus_t st;
    if (g->pointers)
        st = cublasGemmBatchedEx_64(x->blas, oa, ob, g->m, g->n, g->k, &one, (const void* const*)x->arrays, T, lda,
                                    (const void* const*)(x->arrays + g->batch), T, ldb, &zero,
                                    x->arrays + 2 * g->batch, T, ldc, g->batch, CUBLAS_COMPUTE_32F,
                                    CUBLAS_GEMM_DEFAULT);
    else
        st = cublasGemmStridedBatchedEx_64(x->blas, oa, ob, g->m, g->n, g->k, &one, x->a, T, lda,
                                           g->shareA ? 0 : lda * (g->opA == 'N' ? g->k : g->m), x->b, T, ldb,
                                           g->shareB ? 0 : ldb * (g->opB == 'N' ? g->n : g->k), &zero, x->c, T, ldc,
                                           ldc * g->n, g->batch, CUBLAS_COMPUTE_32F,
                                           CUBLAS_GEMM_DEFAULT);
    return st == CUBLAS_STATUS_SUCCESS ? 0 : -1;
}

typedef struct {
    const sweep_ctx* x;
    const sweep_gemm* g;
} timed_gemm;

static int run_timed(void* ctx, cudaStream_t s)
{
    (void)s; /* x->s, which cuBLAS is bound to */
    const timed_gemm* tg = ctx;
    return run(tg->x, tg->g);
}

/* Median milliseconds over 7 samples, each a run of enough calls to last >= 0.2 ms. */
static double time_gemm(sweep_ctx* x, const sweep_gemm* g)
{
    if (g->pointers) {
        const size_t e = cupermDataTypeSize(x->t->type);
        void** host = malloc(sizeof(void*) * 3 * (size_t)g->batch);
        for (int64_t i = 0; i < g->batch; ++i) {
            host[i] = (char*)x->a + (g->shareA ? 0 : (size_t)(i * g->m * g->k) * e);
            host[g->batch + i] = (char*)x->b + (g->shareB ? 0 : (size_t)(i * g->k * g->n) * e);
            host[2 * g->batch + i] = (char*)x->c + (size_t)(i * g->m * g->n) * e;
        }
        cudaMemcpy(x->arrays, host, sizeof(void*) * 3 * (size_t)g->batch, cudaMemcpyHostToDevice);
        free(host);
    }
    timed_gemm tg = {x, g};
    const timer_options o = {2, 0.2, 0, 7, 7, NULL};
    double ms;
    timer_median_ms(run_timed, &tg, x->s, &o, &ms);
    return ms;
}

/* Elements in each of the three buffers (sweep's allocation). */
#define SWEEP_ELEMS ((int64_t)1 << 27)

static void emit(FILE* f, sweep_ctx* x, const sweep_gemm* g)
{
    const int64_t b = g->batch;
    if (g->m * g->k * (g->shareA ? 1 : b) > SWEEP_ELEMS || g->k * g->n * (g->shareB ? 1 : b) > SWEEP_ELEMS ||
        g->m * g->n * b > SWEEP_ELEMS)
        return;
    const double ms = time_gemm(x, g);
    fprintf(f, "%s,%s,%c,%c,%lld,%lld,%lld,%lld,%d,%d,%.6g\n", x->t->name,
            g->pointers ? "pointers" : g->padLd ? "strided-padded-ld" : "strided",
            g->opA, g->opB, (long long)g->m, (long long)g->n, (long long)g->k, (long long)g->batch, g->shareA,
            g->shareB, ms);
}

/* Every flag pair of one shape; batched shapes also with the small operand shared and
 * as a pointer-array batch (the planner's three ways of batching free modes). */
static void shape_of(FILE* f, sweep_ctx* x, int64_t m, int64_t n, int64_t k, int64_t batch, int smallIsA,
                     int pointers)
{
    static const char ops[4][2] = {{'N', 'N'}, {'N', 'T'}, {'T', 'N'}, {'T', 'T'}};
    for (int o = 0; o < 4; ++o) {
        sweep_gemm g = {ops[o][0], ops[o][1], m, n, k, batch, 0, 0, 0, 0};
        emit(f, x, &g);
        if (batch == 1) continue;
        g.shareA = smallIsA;
        g.shareB = !smallIsA;
        emit(f, x, &g);
        if (!pointers) continue;
        g.pointers = 1;
        emit(f, x, &g);
    }
}

static void shape(FILE* f, sweep_ctx* x, int64_t m, int64_t n, int64_t k, int64_t batch, int smallIsA)
{
    shape_of(f, x, m, n, k, batch, smallIsA, 1);
}

/* Odd leading dimensions: m, n and k each odd or a multiple of 8 but not all of them aligned. */
static void sweep_odd(FILE* f, sweep_ctx* x)
{
    static const int64_t mn[4][2] = {{4095, 255}, {255, 4095}, {1023, 1023}, {97, 25}};
    static const int64_t ks[3] = {23, 311, 2047}, batches[2] = {1, 16};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j)
            for (int b = 0; b < 2; ++b) {
                shape_of(f, x, mn[i][0], mn[i][1], ks[j], batches[b], mn[i][0] < mn[i][1], 0);
                shape_of(f, x, mn[i][0] + 1, mn[i][1] + 1, ks[j], batches[b], mn[i][0] < mn[i][1], 0); /* k odd only */
            }
    fflush(f);
}

/* Odd extents of real plans (random contractions' GEMMs on the H200), every flag pair, three ways:
 * dense (leading dimensions = the extents), leading dimensions rounded up to 8 elements, and m, n, k
 * themselves rounded up to 8 (what padding the GEMM's dimensions in the workspace would run). Which of
 * an odd GEMM's costs come from its leading dimensions and which from its extents. */
static void sweep_pad(FILE* f, sweep_ctx* x)
{
    static const int64_t mnk[6][3] = {{1722, 1681, 68921}, {3600, 2100, 25201}, {12100, 10001, 110},
                                      {531, 200001, 531}, {20216, 532, 6859}, {480, 6123, 24492}};
    static const char ops[4][2] = {{'N', 'N'}, {'N', 'T'}, {'T', 'N'}, {'T', 'T'}};
    for (int i = 0; i < 6; ++i)
        for (int o = 0; o < 4; ++o) {
            sweep_gemm g = {ops[o][0], ops[o][1], mnk[i][0], mnk[i][1], mnk[i][2], 1, 0, 0, 0, 0};
            emit(f, x, &g);
            g.padLd = 1;
            emit(f, x, &g);
            sweep_gemm p = {ops[o][0], ops[o][1], up8(mnk[i][0]), up8(mnk[i][1]), up8(mnk[i][2]), 1, 0, 0, 0, 0};
            emit(f, x, &p);
        }
    fflush(f);
}

/* Deep, narrow GEMMs: the thread blocks are few (batch x tiles), so each SM streams a long k. */
static void sweep_deep(FILE* f, sweep_ctx* x)
{
    static const int64_t mn[5][2] = {{4, 4}, {16, 128}, {128, 16}, {64, 64}, {128, 128}};
    static const int64_t ks[2] = {(int64_t)1 << 16, (int64_t)1 << 19}, batches[3] = {1, 8, 64};
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 2; ++j)
            for (int b = 0; b < 3; ++b) shape(f, x, mn[i][0], mn[i][1], ks[j], batches[b], 1);
    fflush(f);
}

/* Deep GEMMs of wider m and n: more thread blocks than the deep family's, each still streaming a long k. */
static void sweep_wide(FILE* f, sweep_ctx* x)
{
    static const int64_t mn[3][2] = {{256, 256}, {512, 256}, {512, 512}};
    static const int64_t ks[2] = {(int64_t)1 << 16, (int64_t)1 << 17}, batches[2] = {1, 8};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 2; ++j)
            for (int b = 0; b < 2; ++b) shape(f, x, mn[i][0], mn[i][1], ks[j], batches[b], 1);
    fflush(f);
}

static void sweep(FILE* f, sweep_ctx* x)
{
    static const int64_t smalls[4] = {24, 48, 96, 256};
    static const int64_t batches[4] = {1, 16, 256, 4096};
    /* Total rows of the long side and inner sizes (operands over SWEEP_ELEMS are skipped). */
    static const int64_t rk[7][2] = {{49152, 24},  {49152, 72},   {49152, 312}, {49152, 2048},
                                     {393216, 24}, {393216, 72}, {393216, 312}};
    for (int i = 0; i < 7; ++i)
        for (int si = 0; si < 4; ++si)
            for (int bi = 0; bi < 4; ++bi) {
                const int64_t rows = rk[i][0] / batches[bi], k = rk[i][1], s = smalls[si];
                shape(f, x, rows, s, k, batches[bi], 0);
                shape(f, x, s, rows, k, batches[bi], 1);
            }
    static const int64_t sq[3] = {256, 1024, 4096}, ks[3] = {24, 256, 4096};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            for (int b = 1; b <= 16; b += 15)
                if (sq[i] * sq[i] * b <= (1 << 24)) shape(f, x, sq[i], sq[i], ks[j], b, 0);
    fflush(f);
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUT.csv [f16,f32] [all|deep|wide|odd|pad]\n", argv[0]);
        return 2;
    }
    const dtype_info* types[2] = {dtype_find("f16"), dtype_find("f32")};
    const char* which = argc > 2 ? argv[2] : "f16,f32";
    const char* family = argc > 3 ? argv[3] : "all";
    if (strcmp(family, "all") && strcmp(family, "deep") && strcmp(family, "wide") && strcmp(family, "odd") &&
        strcmp(family, "pad")) {
        fprintf(stderr, "%s: family \"%s\": expected all, deep, wide, odd or pad\n", argv[0], family);
        return 2;
    }
    FILE* f = fopen(argv[1], "w");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", argv[1]);
        return 2;
    }
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
        fprintf(stderr, "no CUDA device\n");
        return 3;
    }
    fprintf(f, "# %s; cuBLAS GEMMs, fp32 accumulation, alpha 1, beta 0, dense leading dimensions (the odd family's are\n"
               "# not multiples of 8)\n", prop.name);
    fprintf(f, "dtype,kind,opA,opB,m,n,k,batch,shareA,shareB,ms\n");
    sweep_ctx x;
    memset(&x, 0, sizeof x);
    if (cublasCreate(&x.blas) != CUBLAS_STATUS_SUCCESS || cudaStreamCreate(&x.s) != cudaSuccess) return 3;
    cublasSetStream(x.blas, x.s);
    const int64_t elems = SWEEP_ELEMS;
    for (int ti = 0; ti < 2; ++ti) {
        if (!strstr(which, types[ti]->name)) continue;
        x.t = types[ti];
        if (cudaMalloc(&x.a, (size_t)elems * x.t->size) || cudaMalloc(&x.b, (size_t)elems * x.t->size) ||
            cudaMalloc(&x.c, (size_t)elems * x.t->size) ||
            cudaMalloc((void**)&x.arrays, sizeof(void*) * 3 * 4096)) {
            fprintf(stderr, "out of device memory\n");
            return 3;
        }
        bench_ctr_fill(x.a, elems, x.t->type, 1, x.s);
        bench_ctr_fill(x.b, elems, x.t->type, 2, x.s);
        if (!strcmp(family, "pad")) {
            sweep_pad(f, &x);
        } else if (!strcmp(family, "wide")) {
            sweep_wide(f, &x);
        } else {
            if (!strcmp(family, "all")) sweep(f, &x);
            if (strcmp(family, "odd")) sweep_deep(f, &x);
            if (strcmp(family, "deep")) sweep_odd(f, &x);
        }
        cudaFree(x.a);
        cudaFree(x.b);
        cudaFree(x.c);
        cudaFree(x.arrays);
    }
    fclose(f);
    cublasDestroy(x.blas);
    return 0;
}
