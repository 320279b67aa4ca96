/* The benchmark's own device copy (copy_kernel.cu), timed beside cudaMemcpyAsync. */
#ifndef CUPERM_BENCH_COPY_KERNEL_H
#define CUPERM_BENCH_COPY_KERNEL_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Copies bytes from src to dst on stream with one wave of blocks on a device of sms SMs: 16-byte
 * vectors where both pointers are 16-byte aligned, bytes for the rest. */
cudaError_t bench_copy_kernel(void* dst, const void* src, size_t bytes, int sms, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
