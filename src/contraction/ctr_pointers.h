/*
 * Pointer arrays for cublasGemmBatchedEx: when looped modes (CTR_ROLE_O) cannot
 * be one strided batch, every (looped index, batch index) pair becomes one entry
 * of a pointer-array batch, built on the device by one small kernel.
 */
#ifndef CUPERM_CTR_POINTERS_H
#define CUPERM_CTR_POINTERS_H

#include <cuda_runtime_api.h>

#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CTR_PTR_MAX_LOOPED 64

typedef struct {
    int nLooped;
    int64_t extents[CTR_PTR_MAX_LOOPED];
    int64_t strides[3][CTR_PTR_MAX_LOOPED]; /* elements, in first, second, output */
    int64_t batch;                          /* strided batch inside each looped index */
    int64_t batchStride[3];
    int64_t elemBytes[3];
    int64_t count;                          /* entries: batch * product of looped extents */
} ctr_ptr_params;

/* arrays[j][i] = base[j] + offset of entry i in operand j, for j = first, second, output. */
cudaError_t ctr_ptr_launch(const ctr_ptr_params* p, const void* first, const void* second, void* out,
                           void** arrays, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
