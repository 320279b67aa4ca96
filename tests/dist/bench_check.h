/* The benchmark's data and its element-by-element check, on the GPU (bench_check.cu). f32, rank <= 6,
 * dense column-major local blocks. */
#ifndef CUPERM_TEST_DIST_BENCH_CHECK_H
#define CUPERM_TEST_DIST_BENCH_CHECK_H

#include <stdint.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* x = the block (local extents le at global offsets off) of a tensor of global extents ext whose
 * element at global column-major index g is a hash of g. */
cudaError_t dt_fill_hash(float* x, int rank, const int64_t* le, const int64_t* off, const int64_t* ext,
                         cudaStream_t stream);
/* Compares the output block y (local extents le at global output offsets off) of out = perm(in)
 * (output mode i is input mode perm[i]; in filled by dt_fill_hash with global extents ext_in) bit
 * for bit; synchronizes the stream; *mismatches elements differ, the first at local index *first
 * (-1: none). */
cudaError_t dt_check_hash(const float* y, int rank, const int64_t* le, const int64_t* off, const int64_t* ext_in,
                          const int* perm, cudaStream_t stream, unsigned long long* mismatches, long long* first);

#ifdef __cplusplus
}
#endif

#endif
