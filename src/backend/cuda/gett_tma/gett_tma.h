/*
 * The Hopper GETT kernels (CUTLASS sm90 collectives; built with -DCUPERM_GETT_TMA=ON and a
 * CUTLASS checkout, see docs/contractions.md): D[m,n,l] = alpha sum_k A[m,k,l] B[k,n,l] +
 * beta C[m,n,l] with A and B tiles loaded by TMA through their multi-mode strides, wgmma with
 * fp32 accumulation, and D (C) written (read) through its strides by the epilogue. The shape
 * and tile come from the planner's map (plan/contraction/gett_tma.h).
 */
#ifndef CUPERM_BACKEND_GETT_TMA_H
#define CUPERM_BACKEND_GETT_TMA_H

#include <cuda_runtime_api.h>

#include "core/gett_tma_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if the library holds the kernels (CUPERM_GETT_TMA); they run on compute capability 9.0
 * only (sm_90a machine code), which the planner checks on the handle's device. */
int cuperm_gett_tma_built(void);

/* Enqueues the kernel for q (A and B 16-byte aligned: the caller checks). C is read only when
 * beta != 0 (it may equal D). cudaErrorNotSupported: the kernels are not in this build or
 * CUTLASS refused the problem (the planner's map should make that impossible). */
cudaError_t cuperm_gett_tma_launch(const cuperm_gett_tma_params_t* q, const void* A, const void* B, const void* C,
                                   void* D, float alpha, float beta, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
