/* The CPU reference: a transpose straight from the definition (no fusion, no
 * tiling), element arithmetic in double, and a tolerant comparison. */
#ifndef CUPERM_SUPPORT_REFERENCE_H
#define CUPERM_SUPPORT_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "cuperm.h"
#include "support/dtype.h"
#include "support/half.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Element at p as doubles (v[1] is the imaginary part of complex types, else 0). */
void ref_load(cupermDataType_t type, const void* p, double v[2]);
/** Rounds v to the element type (round to nearest even) and stores it at p. */
void ref_store(cupermDataType_t type, void* p, const double v[2]);

/** Offset one past the last element a tensor reaches (dense if strides is NULL). */
int64_t ref_span(int rank, const int64_t* extents, const int64_t* strides);

/**
 * out = alpha * perm(in) + beta * out, by definition. out holds the prior
 * contents (read only when beta != 0). If mag is non-NULL, mag[o] receives
 * |alpha*x| + |beta*y| at each written output offset o (others untouched), the
 * scale for ref_check's tolerance. alpha == 1 with beta == 0 moves bits.
 */
void ref_transpose(cupermDataType_t type, int rank, const int64_t* extents, const int* perm,
                   const int64_t* in_strides, const int64_t* out_strides, const void* alpha,
                   const void* in, const void* beta, void* out, double* mag);

/**
 * out = perm(in) for dense column-major tensors of int extents (cuTT's convention:
 * output dimension r is input dimension perm[r]), elements of elem bytes moved as
 * bits. 0, or -1 for an element size no type has (1, 2, 4, 8 and 16 are).
 */
int ref_permute(int rank, const int* dims, const int* perm, size_t elem, const void* in, void* out);

/**
 * Compares n elements: bit-identical, or (floating types with mag) within a
 * few rounding errors of mag. Returns the number of mismatches and describes
 * the first in msg.
 */
int64_t ref_check(cupermDataType_t type, int64_t n, const void* got, const void* want,
                  const double* mag, char* msg, size_t msglen);

#ifdef __cplusplus
}
#endif

#endif
