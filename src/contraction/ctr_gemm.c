#include "ctr_gemm.h"

#include <math.h>
#include <string.h>

#include "ctr_types.h"
#include "host/errors.h"

static cublasOperation_t blas_op(char op)
{
    return op == 'N' ? CUBLAS_OP_N : op == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
}

static cublasComputeType_t blas_compute(cupermComputeType_t c)
{
    switch (c) {
    case CUPERM_COMPUTE_16F: return CUBLAS_COMPUTE_16F;
    case CUPERM_COMPUTE_64F: return CUBLAS_COMPUTE_64F;
    case CUPERM_COMPUTE_32F_FAST_TF32: return CUBLAS_COMPUTE_32F_FAST_TF32;
    case CUPERM_COMPUTE_32F_FAST_16F: return CUBLAS_COMPUTE_32F_FAST_16F;
    case CUPERM_COMPUTE_32F_FAST_16BF: return CUBLAS_COMPUTE_32F_FAST_16BF;
    default: return CUBLAS_COMPUTE_32F;
    }
}

/* IEEE binary16 bits of x, rounded to nearest even (scalars of CUBLAS_COMPUTE_16F). */
static uint16_t float_to_half(float x)
{
    uint32_t f;
    memcpy(&f, &x, 4);
    const uint32_t sign = (f >> 16) & 0x8000u;
    const float a = fabsf(x);
    if (isnan(x)) return (uint16_t)(sign | 0x7e00u);
    if (a >= 65520.0f) return (uint16_t)(sign | 0x7c00u);
    if (a < 6.103515625e-05f) { /* subnormal: multiples of 2^-24 */
        const float q = nearbyintf(a * 16777216.0f);
        return (uint16_t)(sign | (uint32_t)q);
    }
    uint32_t mag = f & 0x7fffffffu;
    const uint32_t round = 0xfffu + ((mag >> 13) & 1u);
    mag += round;
    return (uint16_t)(sign | (((mag >> 23) - 112u) << 10) | ((mag >> 13) & 0x3ffu));
}

/* A scalar in the type cuBLAS expects for the compute type (and complex-ness). */
static void blas_scalar(cupermComputeType_t c, int complexType, const double v[2], unsigned char out[16])
{
    if (c == CUPERM_COMPUTE_64F) {
        memcpy(out, v, complexType ? 16 : 8);
    } else if (c == CUPERM_COMPUTE_16F) {
        const uint16_t h = float_to_half((float)v[0]);
        memcpy(out, &h, 2);
    } else {
        const float f[2] = {(float)v[0], (float)v[1]};
        memcpy(out, f, complexType ? 8 : 4);
    }
}

cupermStatus_t ctr_gemm_run(cublasHandle_t blas, const ctr_problem* p, const ctr_layout* l,
                            const void* first, const void* second, void* out, const double alpha[2],
                            const double beta[2])
{
    const int complexType = ctr_type_is_complex(p->op[CTR_A].type);
    unsigned char a[16], b[16];
    blas_scalar(p->compute, complexType, alpha, a);
    blas_scalar(p->compute, complexType, beta, b);
    const int f = l->swapped ? CTR_B : CTR_A, s = l->swapped ? CTR_A : CTR_B;
    const ctr_input_layout *P = &l->in[f], *Q = &l->in[s];
    const cudaDataType_t ab = (cudaDataType_t)p->op[CTR_A].type, cd = (cudaDataType_t)p->op[CTR_D].type;
    cublasStatus_t st;
    if (l->batch == 1)
        st = cublasGemmEx_64(blas, blas_op(P->cublasOp), blas_op(Q->cublasOp), l->m, l->n, l->k, a, first,
                             ab, P->ld, second, ab, Q->ld, b, out, cd, l->ldD, blas_compute(p->compute),
                             CUBLAS_GEMM_DEFAULT);
    else
        st = cublasGemmStridedBatchedEx_64(blas, blas_op(P->cublasOp), blas_op(Q->cublasOp), l->m, l->n, l->k,
                                           a, first, ab, P->ld, P->batchStride, second, ab, Q->ld,
                                           Q->batchStride, b, out, cd, l->ldD, l->batchStrideD, l->batch,
                                           blas_compute(p->compute), CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS)
        return cuperm_fail(CUPERM_STATUS_LIBRARY_ERROR, "cupermContract: cuBLAS GEMM (m=%lld n=%lld k=%lld "
                           "batch=%lld) failed: %s", (long long)l->m, (long long)l->n, (long long)l->k,
                           (long long)l->batch, cublasGetStatusString(st));
    return CUPERM_STATUS_SUCCESS;
}

cupermStatus_t ctr_gemm_run_pointers(cublasHandle_t blas, const ctr_problem* p, const ctr_layout* l,
                                     void* const* arrays, int64_t count, const double alpha[2],
                                     const double beta[2])
{
    const int complexType = ctr_type_is_complex(p->op[CTR_A].type);
    unsigned char a[16], b[16];
    blas_scalar(p->compute, complexType, alpha, a);
    blas_scalar(p->compute, complexType, beta, b);
    const int f = l->swapped ? CTR_B : CTR_A, s = l->swapped ? CTR_A : CTR_B;
    const ctr_input_layout *P = &l->in[f], *Q = &l->in[s];
    const cudaDataType_t ab = (cudaDataType_t)p->op[CTR_A].type, cd = (cudaDataType_t)p->op[CTR_D].type;
    const cublasStatus_t st = cublasGemmBatchedEx_64(
        blas, blas_op(P->cublasOp), blas_op(Q->cublasOp), l->m, l->n, l->k, a, (const void* const*)arrays, ab,
        P->ld, (const void* const*)(arrays + count), ab, Q->ld, b, (void* const*)(arrays + 2 * count), cd, l->ldD,
        count, blas_compute(p->compute), CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS)
        return cuperm_fail(CUPERM_STATUS_LIBRARY_ERROR, "cupermContract: cuBLAS batched GEMM (m=%lld n=%lld "
                           "k=%lld, %lld entries) failed: %s", (long long)l->m, (long long)l->n, (long long)l->k,
                           (long long)count, cublasGetStatusString(st));
    return CUPERM_STATUS_SUCCESS;
}
