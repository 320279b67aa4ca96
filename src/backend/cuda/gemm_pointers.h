/*
 * Pointer arrays for cublasGemmBatchedEx: when looped modes (CTR_ROLE_O) cannot
 * be one strided batch, every (looped index, batch index) pair becomes one entry
 * of a pointer-array batch, built on the device by one small kernel.
 */
#ifndef CUPERM_CTR_POINTERS_H
#define CUPERM_CTR_POINTERS_H

#include <cuda_runtime_api.h>

#include "core/kernel_params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* arrays[j][i] = base[j] + offset of entry i in operand j, for j = first, second, output. */
cudaError_t cuperm_ctr_ptr_launch(const cuperm_ctr_ptr_params_t* p, const void* first, const void* second, void* out,
                           void** arrays, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
