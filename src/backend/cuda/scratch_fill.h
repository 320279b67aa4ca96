/*
 * Scratch operands for timing (contraction measure mode): finite values whose bits vary from
 * element to element. Constant bytes (0x3c everywhere, before session 50) time tensor-core GEMMs
 * as if they drew less power than on real data: an algorithm measured fastest on them ran 1.23x
 * slower than the heuristic's first on random data (H200, TCCG 12 f16,
 * bench/results/contraction/lt-algos-h200/).
 */
#ifndef CUPERM_SCRATCH_FILL_H
#define CUPERM_SCRATCH_FILL_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills bytes of p, an array of reals of real_bytes (2, 4 or 8; a complex element is two), with
 * hashed bits: each real's top byte in 0x38..0x3f
 * (positive, exponent just below the bias: values in [0.5, 2) in fp16, [2^-15, 2) in bf16 and fp32,
 * [2^-127, 2) in fp64), its other bytes anything. Any float type so filled is finite. */
cudaError_t cuperm_scratch_fill(void* p, size_t bytes, int real_bytes, unsigned seed, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
