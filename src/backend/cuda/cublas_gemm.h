/* The GEMM step of a contraction on cuBLAS. */
#ifndef CUPERM_CTR_GEMM_H
#define CUPERM_CTR_GEMM_H

#include <cublas_v2.h>

#include "plan/contraction/layout.h"

/* What every GEMM entry point (cuBLAS, cuBLASLt) passes: scalars in the compute type's scale
 * type, flags, types and leading dimensions of the layout's operands. */
typedef struct {
    unsigned char alpha[16], beta[16];
    cublasOperation_t opFirst, opSecond;
    int64_t ldFirst, ldSecond;
    const cuperm_ctr_input_layout_t *first, *second;
    cudaDataType_t ab, cd, scale;
    cublasComputeType_t compute;
} cuperm_ctr_gemm_args_t;

void cuperm_ctr_gemm_args_of(const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l, const double alpha[2],
                             const double beta[2], cuperm_ctr_gemm_args_t* g);

/*
 * out = alpha * op(first) op(second) + beta * out, strided-batched as the layout
 * says; alpha and beta are {re, im}. The caller holds the cuBLAS handle's lock
 * and has set its stream and workspace. Sets the error message on failure.
 */
cupermStatus_t cuperm_ctr_gemm_run(cublasHandle_t blas, const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l,
                            const void* first, const void* second, void* out, const double alpha[2],
                            const double beta[2]);

/* The same over a pointer-array batch: arrays holds count first, count second and
 * count output pointers (device memory). */
cupermStatus_t cuperm_ctr_gemm_run_pointers(cublasHandle_t blas, const cuperm_ctr_problem_t* p, const cuperm_ctr_layout_t* l,
                                     void* const* arrays, int64_t count, const double alpha[2],
                                     const double beta[2]);

#endif
