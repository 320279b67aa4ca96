/*
 * Does a contraction's output transpose pay less when the GEMM writes W in chunks that stay in L2?
 * TCCG 35's shape: D[a,b,c,d,e,f] = sum_g A[d,f,g,b] B[g,e,a,c]; here A is given as the dense
 * m x k matrix (m = d f b) and B as k x n (n = e a c), so only the output side is measured:
 *   plain: one cuBLAS GEMM m x n x k into an m x n buffer (the same-shape GEMM);
 *   full:  the GEMM into W (m x n), then cuperm's transpose W -> D (interleaving the modes);
 *   chunk: for each range of CS indices of c (W's slowest mode): the GEMM of those columns into
 *          one reused W chunk, then its transpose into D's slice (same strides, offset base).
 * D of every variant is checked against full's (same GEMM sums, fp32 accumulation).
 * Build: gcc -O2 -std=c11 chunk_probe.c -I include -I /usr/local/cuda/include -L build/src -lcuperm
 *        -L /usr/local/cuda/lib64 -lcublas -lcudart -lm
 * Run:   chunk_probe f16|f32 D F B E A C K   (extents; TCCG 35: 24 16 16 16 24 16 24)
 */
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuperm.h"

#define CK(x) do { if ((x) != 0) { fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #x); exit(1); } } while (0)

static int cmpf(const void* a, const void* b) { float x = *(const float*)a, y = *(const float*)b; return (x > y) - (x < y); }

typedef struct { cublasHandle_t blas; cupermHandle_t h; int half; long m, n, k; void *A, *B, *W, *D; } ctx;

static void gemm(ctx* c, long n0, long nc, void* out)
{
    const float one = 1, zero = 0;
    const cudaDataType_t t = c->half ? CUDA_R_16F : CUDA_R_32F;
    const size_t e = c->half ? 2 : 4;
    CK(cublasGemmEx(c->blas, CUBLAS_OP_N, CUBLAS_OP_N, (int)c->m, (int)nc, (int)c->k, &one, c->A, t, (int)c->m,
                    (char*)c->B + (size_t)n0 * c->k * e, t, (int)c->k, &zero, out, t, (int)c->m, CUBLAS_COMPUTE_32F,
                    CUBLAS_GEMM_DEFAULT));
}

/* W order d,f,b,e,a,c (extents x[0..5]); D order a,b,c,d,e,f. */
static const int perm[6] = {4, 2, 5, 0, 3, 1};

static double time_ms(void (*run)(ctx*, void*), ctx* c, void* arg)
{
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (int i = 0; i < 3; ++i) run(c, arg);
    float t[25];
    for (int i = 0; i < 25; ++i) {
        cudaEventRecord(e0, 0);
        run(c, arg);
        cudaEventRecord(e1, 0);
        CK(cudaEventSynchronize(e1));
        cudaEventElapsedTime(&t[i], e0, e1);
    }
    qsort(t, 25, sizeof t[0], cmpf);
    return t[12];
}

static void run_plain(ctx* c, void* arg) { (void)arg; gemm(c, 0, c->n, c->D); }

typedef struct { cupermPlan_t plan; long cs, chunks, cstride; int64_t dOff; } chunking;

static void run_chunks(ctx* c, void* arg)
{
    chunking* k = arg;
    const float one = 1, zero = 0;
    const size_t e = c->half ? 2 : 4;
    for (long i = 0; i < k->chunks; ++i) {
        gemm(c, i * k->cstride, k->cstride, c->W);
        CK(cupermExecute(k->plan, &one, c->W, &zero, (char*)c->D + (size_t)(i * k->dOff) * e, 0));
    }
}

int main(int argc, char** argv)
{
    if (argc < 9) { fprintf(stderr, "usage: chunk_probe f16|f32 D F B E A C K\n"); return 2; }
    ctx c = {0};
    c.half = !strcmp(argv[1], "f16");
    int64_t x[6]; /* d f b e a c */
    for (int i = 0; i < 6; ++i) x[i] = atol(argv[2 + i]);
    c.k = atol(argv[8]);
    c.m = x[0] * x[1] * x[2];
    c.n = x[3] * x[4] * x[5];
    const size_t e = c.half ? 2 : 4, mn = (size_t)c.m * c.n;
    CK(cublasCreate(&c.blas));
    CK(cupermCreate(&c.h));
    CK(cudaMalloc(&c.A, (size_t)c.m * c.k * e));
    CK(cudaMalloc(&c.B, (size_t)c.k * c.n * e));
    CK(cudaMalloc(&c.W, mn * e));
    CK(cudaMalloc(&c.D, mn * e));
    void* ref;
    CK(cudaMalloc(&ref, mn * e));
    { /* random operands */
        size_t na = (size_t)c.m * c.k, nb = (size_t)c.k * c.n;
        unsigned char* h = malloc((na + nb) * e);
        unsigned s = 12345;
        for (size_t i = 0; i < na + nb; ++i) {
            s = s * 1664525u + 1013904223u;
            float v = ((s >> 8) & 0xffff) / 65536.0f - 0.5f;
            if (c.half) { /* fp16 bits of v (|v| < 1, normal or zero is enough here) */
                unsigned u; memcpy(&u, &v, 4);
                unsigned short hb = (unsigned short)(((u >> 16) & 0x8000) | ((((u >> 23) & 0xff) - 112) << 10) | ((u >> 13) & 0x3ff));
                if (fabsf(v) < 6.2e-5f) hb = 0;
                memcpy(h + i * 2, &hb, 2);
            } else memcpy(h + i * 4, &v, 4);
        }
        CK(cudaMemcpy(c.A, h, na * e, cudaMemcpyHostToDevice));
        CK(cudaMemcpy(c.B, h + na * e, nb * e, cudaMemcpyHostToDevice));
        free(h);
    }
    const cupermDataType_t t = c.half ? CUPERM_R_16F : CUPERM_R_32F;
    /* D strides (a,b,c,d,e,f dense) per D dimension. */
    int64_t dExt[6], dStr[6];
    for (int r = 0; r < 6; ++r) dExt[r] = x[perm[r]];
    dStr[0] = 1;
    for (int r = 1; r < 6; ++r) dStr[r] = dStr[r - 1] * dExt[r - 1];
    /* full */
    chunking full = {0, x[5], 1, c.n, 0};
    CK(cupermPlanTranspose(c.h, &full.plan, 6, x, perm, t, NULL, dStr));
    const double tPlain = time_ms(run_plain, &c, NULL);
    const double tFull = time_ms(run_chunks, &c, &full);
    run_chunks(&c, &full);
    CK(cudaMemcpy(ref, c.D, mn * e, cudaMemcpyDeviceToDevice));
    printf("%s m=%ld n=%ld k=%ld (D %.1f MB): plain GEMM %.4f ms; GEMM to W + transpose %.4f ms (ratio %.3f)\n", argv[1],
           c.m, c.n, c.k, mn * e / 1e6, tPlain, tFull, tPlain / tFull);
    unsigned char *h1 = malloc(mn * e), *h2 = malloc(mn * e);
    CK(cudaMemcpy(h1, ref, mn * e, cudaMemcpyDeviceToHost));
    for (long cs = 1; cs <= x[5]; cs *= 2) {
        if (x[5] % cs) continue;
        chunking ch = {0, cs, x[5] / cs, x[3] * x[4] * cs, dStr[2] * cs};
        int64_t wx[6] = {x[0], x[1], x[2], x[3], x[4], cs};
        CK(cupermPlanTranspose(c.h, &ch.plan, 6, wx, perm, t, NULL, dStr));
        CK(cudaMemset(c.D, 0xff, mn * e));
        run_chunks(&c, &ch);
        CK(cudaMemcpy(h2, c.D, mn * e, cudaMemcpyDeviceToHost));
        const int same = !memcmp(h1, h2, mn * e);
        const double tc = time_ms(run_chunks, &c, &ch);
        printf("  chunks of %ld c (%ld chunks, W chunk %.1f MB): %.4f ms, ratio %.3f, D %s\n", cs, ch.chunks,
               (double)c.m * ch.cstride * e / 1e6, tc, tPlain / tc, same ? "identical to full" : "DIFFERS");
        cupermPlanDestroy(ch.plan);
    }
    return 0;
}
