/*
 * cuperm's operator kernel for contractions: one pass that gathers a strided
 * tensor, applies elementwise operators and writes another strided tensor:
 *     out[o] = opOut(opIn(in[i]) + beta * opC(c[j]))
 * over an iteration space whose dimension 0 is written fastest. It carries the
 * operators cuBLAS cannot apply (the transpose core has no operator hook): the
 * permute + opA/opB prologue, the W -> D epilogue with opC/opD, and the
 * in-place opD pass.
 */
#ifndef CUPERM_CTR_ELEMENTWISE_H
#define CUPERM_CTR_ELEMENTWISE_H

#include <cuda_runtime_api.h>

#include "core/kernel_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launches on stream. c may be NULL (then beta is ignored); beta is {re, im}. */
cudaError_t cuperm_ctr_ew_launch(const cuperm_ctr_ew_params_t* p, const void* in, const void* c, void* out,
                          const double beta[2], cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
