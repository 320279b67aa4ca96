/* A transpose problem as a set of dimensions, each with an extent, an input
 * stride and an output stride. The permutation only serves to pair input and
 * output strides: once paired, dimension order is free, which is what lets the
 * planner sort, drop and fuse dimensions. */
#ifndef CUPERM_HOST_PROBLEM_H
#define CUPERM_HOST_PROBLEM_H

#include "core/error.h"
#include "core/kernel_params.h"
#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int rank;
    cuperm_dim_t dim[CUPERM_MAX_RANK];
} cuperm_problem_t;

/* CUPERM_INTERNAL_API: libcuperm_dist.so (src/dist) calls these too. */

/** Dense column-major strides of extents[0..rank). */
CUPERM_INTERNAL_API void cuperm_dense_strides(int rank, const int64_t* extents, int64_t* strides);

/* ---- dimensions with strides, in any number of tensors ----------------------------
 * A group of n dimensions is either two arrays (extents[], strides[]: one tensor) or n
 * records of `pitch` int64_t, {extent, stride in view 0, stride in view 1, ...}
 * (cuperm_dim_t, cuperm_dim3_t: core/kernel_params.h), the form cuperm_decode reads. */

/** Largest element offset of a group in one tensor (0 for n = 0). */
CUPERM_INTERNAL_API int64_t cuperm_max_offset(int n, const int64_t* extents, const int64_t* strides);

/** How many leading dimensions fuse with dimension 0 into one: the longest prefix whose
 *  strides each equal the previous stride times the previous extent (n >= 1 gives >= 1). */
int cuperm_fused_prefix(int n, const int64_t* extents, const int64_t* strides);

/** Drops unit extents and fuses record d + 1 into record d wherever, in every view,
 *  stepping off the end of d lands on d + 1; returns the new count (0: all were unit).
 *  Leaves the element-to-offsets map unchanged. */
int cuperm_dims_fuse(int64_t* rec, int pitch, int views, int n);

/** table[i] = offset of linear index i over the group, the first dimension fastest; table has
 *  the group's volume of entries (at least one: 0 for no dimensions). */
void cuperm_offset_table(int n, const int64_t* extents, const int64_t* strides, int64_t* table);

/** Sorts order[0..n) by key[order[i]] ascending, ties by tie[order[i]] (tie may be NULL),
 *  then by order[i] itself: a total order, so the result does not depend on the input's
 *  arrangement of tied entries beyond their values. */
void cuperm_sort_by_key(int* order, int n, const int64_t* key, const int64_t* tie);

/** Pairs strides dimension by dimension (input labels); arguments must be valid. */
CUPERM_INTERNAL_API void cuperm_problem_init(cuperm_problem_t* p, int rank, const int64_t* extents, const int* perm,
                         const int64_t* in_strides, const int64_t* out_strides);

/** Drops unit extents, orders dimensions by input stride (then output stride)
 * and fuses neighbours that are contiguous on both sides. A problem of volume 1
 * becomes one dimension of extent 1. */
CUPERM_INTERNAL_API void cuperm_problem_canonicalize(cuperm_problem_t* p);

/** The same, ordered by output stride (then input stride): the order in which a walk over
 *  linear indices, the first dimension fastest, writes the output as contiguously as it can. */
CUPERM_INTERNAL_API void cuperm_problem_by_output(cuperm_problem_t* p);

int64_t cuperm_problem_volume(const cuperm_problem_t* p);

/**
 * When canonical problem p's fastest dimension is contiguous on both sides,
 * a elements of it can move as one wide element: all of it when it is a few
 * elements long (extent * elem <= 16 bytes, a power of two), else the largest
 * power of two a dividing its extent with a * elem <= 16 (a >= 2) when that is
 * less than 16 bytes (16-byte vectors of a row are the rows kernel's own) and
 * partial is set, when every other stride is a multiple of a. Writes the packed problem (dimension 0 gone
 * or a times shorter, strides in wide elements, canonical) and the wide
 * element's size, and returns 1. The packed problem is only valid for plain
 * moves of pointers aligned to the wide element. Returns 0 otherwise.
 */
int cuperm_problem_pack(const cuperm_problem_t* p, int elem, int partial, cuperm_problem_t* packed, int* packed_elem);

/** Whether vectors of v elements fit dims[0, n): dimension in_first is contiguous in the input and
 *  out_first in the output, each a whole number of vectors long, and every other stride on each
 *  side is a multiple of v. Then every vector a kernel moves along those dimensions is contiguous
 *  and aligned on both sides (given pointers aligned to it). */
int cuperm_dims_vectors_fit(const cuperm_dim_t* dims, int n, int in_first, int out_first, int64_t v);

/** Index of the dimension with the smallest output stride (ties: lowest index). */
int cuperm_problem_out_fastest(const cuperm_problem_t* p);

/** Largest input and output element offsets (valid, overflow-checked problems). */
int64_t cuperm_problem_max_in_offset(const cuperm_problem_t* p);
int64_t cuperm_problem_max_out_offset(const cuperm_problem_t* p);

#ifdef __cplusplus
}
#endif

#endif
