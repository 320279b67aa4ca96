/*
 * The GETT kernel (gett_mma.cu): D[m,n,l] = alpha sum_k A[m,k,l] B[k,n,l] + beta C[m,n,l]
 * on tensor cores (mma.sync through nvcuda::wmma, fp16/bf16 inputs, fp32 accumulation),
 * every element found through the block-scatter offset tables of plan/contraction/gett.h:
 * A and B are read in place, D is written in place, no workspace.
 */
#ifndef CUPERM_BACKEND_GETT_H
#define CUPERM_BACKEND_GETT_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Block tile of the kernel: CUPERM_GETT_BM x CUPERM_GETT_BN outputs, CUPERM_GETT_BK deep. */
#define CUPERM_GETT_BM 128
#define CUPERM_GETT_BN 128
#define CUPERM_GETT_BK 32

typedef struct {
    /* Device tables, element offsets (A(m,k,l) = A + aM[m] + aK[k] + aL[l], ...). */
    const int64_t *aM, *aK, *aL;
    const int64_t *bK, *bN, *bL;
    const int64_t *cM, *cN, *cL;
    const int64_t *dM, *dN, *dL;
    int m, n, k, batch;      /* group sizes (1 for an empty group) */
    int mTiles, nTiles;      /* ceil(m / BM), ceil(n / BN); mTiles * nTiles < 2^31 */
    int aKFast, bKFast;      /* load mapping: consecutive threads walk k (1) or m / n (0) */
    cupermDataType_t abType; /* R_16F or R_16BF */
    cupermDataType_t cdType; /* R_32F or abType */
} cuperm_gett_params_t;

/* Enqueues the kernel. C is read only when useBeta (it may equal D). */
cudaError_t cuperm_gett_launch(const cuperm_gett_params_t* q, const void* A, const void* B, const void* C, void* D,
                               float alpha, float beta, int useBeta, cudaStream_t stream);

/* 1 if the kernel was compiled for sm_80+ (mma.sync) and can run on the current device. */
int cuperm_gett_available(void);

#ifdef __cplusplus
}
#endif

#endif
