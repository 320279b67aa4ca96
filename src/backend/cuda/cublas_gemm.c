#include "backend/cuda/cublas_gemm.h"

#include <math.h>
#include <string.h>

#include "plan/contraction/types.h"
#include "core/error.h"

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

void cuperm_ctr_gemm_args_of(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const double alpha[2],
                             const double beta[2], cuperm_ctr_gemm_args_t* g)
{
    const int complexType = cuperm_ctr_type_is_complex(p->op[CTR_A].type);
    blas_scalar(p->compute, complexType, alpha, g->alpha);
    blas_scalar(p->compute, complexType, beta, g->beta);
    g->first = &l->in[l->swapped ? CTR_B : CTR_A];
    g->second = &l->in[l->swapped ? CTR_A : CTR_B];
    g->opFirst = blas_op(g->first->cublasOp);
    g->opSecond = blas_op(g->second->cublasOp);
    g->ldFirst = g->first->ld;
    g->ldSecond = g->second->ld;
    g->ab = (cudaDataType_t)p->op[CTR_A].type;
    g->cd = (cudaDataType_t)p->op[CTR_D].type;
    g->compute = blas_compute(p->compute);
    g->scale = p->compute == CUPERM_COMPUTE_16F ? CUDA_R_16F
               : p->compute == CUPERM_COMPUTE_64F ? (complexType ? CUDA_C_64F : CUDA_R_64F)
                                                   : (complexType ? CUDA_C_32F : CUDA_R_32F);
}

static cupermStatus_t gemm_status(cublasStatus_t st, const cuperm_ctr_layout_t* l, int64_t entries)
{
    if (st == CUBLAS_STATUS_SUCCESS) return CUPERM_STATUS_SUCCESS;
    return cuperm_fail(CUPERM_STATUS_LIBRARY_ERROR, "cupermContract: cuBLAS %sGEMM (m=%lld n=%lld k=%lld, %lld "
                       "entries) failed: %s", entries > 1 ? "batched " : "", (long long)l->m, (long long)l->n,
                       (long long)l->k, (long long)entries, cublasGetStatusString(st));
}

cupermStatus_t cuperm_ctr_gemm_run(cublasHandle_t blas, const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l,
                            const void* first, const void* second, void* out, const double alpha[2],
                            const double beta[2])
{
    cuperm_ctr_gemm_args_t g;
    cuperm_ctr_gemm_args_of(p, l, alpha, beta, &g);
    cublasStatus_t st;
    if (l->batch == 1)
        st = cublasGemmEx_64(blas, g.opFirst, g.opSecond, l->m, l->n, l->k, g.alpha, first, g.ab, g.ldFirst,
                             second, g.ab, g.ldSecond, g.beta, out, g.cd, l->ldD, g.compute, CUBLAS_GEMM_DEFAULT);
    else
        st = cublasGemmStridedBatchedEx_64(blas, g.opFirst, g.opSecond, l->m, l->n, l->k, g.alpha, first, g.ab,
                                           g.ldFirst, g.first->batchStride, second, g.ab, g.ldSecond,
                                           g.second->batchStride, g.beta, out, g.cd, l->ldD, l->batchStrideD,
                                           l->batch, g.compute, CUBLAS_GEMM_DEFAULT);
    return gemm_status(st, l, l->batch);
}

cupermStatus_t cuperm_ctr_gemm_run_pointers(cublasHandle_t blas, const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l,
                                     void* const* arrays, int64_t count, const double alpha[2],
                                     const double beta[2])
{
    cuperm_ctr_gemm_args_t g;
    cuperm_ctr_gemm_args_of(p, l, alpha, beta, &g);
    const cublasStatus_t st = cublasGemmBatchedEx_64(
        blas, g.opFirst, g.opSecond, l->m, l->n, l->k, g.alpha, (const void* const*)arrays, g.ab, g.ldFirst,
        (const void* const*)(arrays + count), g.ab, g.ldSecond, g.beta, (void* const*)(arrays + 2 * count), g.cd,
        l->ldD, count, g.compute, CUBLAS_GEMM_DEFAULT);
    return gemm_status(st, l, count);
}
