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

/*
 * cuBLAS cannot see the matrix pointers of a pointer-array batch (they live on the
 * device), so its batched kernels may assume the alignment their vector loads and
 * stores need: a 16-bit tensor-op kernel once read 4 bytes at a 2-byte-aligned address
 * and killed the context, an fp32 one wrote 8 bytes before an 8-byte-aligned D. The
 * pointer-array batch is used only when every pointer is aligned to this many bytes;
 * otherwise the plan runs one strided-batched GEMM per looped index, whose pointers
 * cuBLAS checks itself.
 */
#define CTR_PTR_ALIGN 16

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
