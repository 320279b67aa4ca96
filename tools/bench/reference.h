/* The CPU side of correctness: random inputs and the reference transpose that
 * every element of a GPU result is compared against. Multithreaded (pthreads). */
#ifndef CUPERM_BENCH_REFERENCE_H
#define CUPERM_BENCH_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "bench_case.h"
#include "support/dtype.h"

/* Fills count elements with random values: for floating types finite normal
 * numbers of magnitude 2^-8 .. 2^9 with random sign and mantissa (never zero,
 * NaN or Inf, so scaling cannot overflow and a copy is bit-exact); for integers
 * random bits. The result depends on seed only, not on threads. */
void bench_fill_random(void* data, size_t count, const dtype_info* t, uint64_t seed,
                       int threads);

typedef struct {
    int64_t mismatches;
    int64_t first_index; /* output linear index of the first mismatch, or -1 */
    char detail[192];    /* the first mismatch, expected vs got */
} bench_verify_report;

/* 1 if (alpha, beta) can be checked for type t: (1, 0) for every type, any values for the real
 * floating types, whole numbers 0-127 for the integer types. */
int bench_verify_supports(const dtype_info* t, double alpha, double beta);

/* Compares every element of out (dense column-major, extents permuted) with
 * alpha * perm(in) + beta * out_init. (1, 0) and integers are checked bit-exactly (integers
 * wrap); otherwise the tolerance is a few ulps of |alpha*x| + |beta*y|. out_init is read only when
 * beta != 0. Returns the number of mismatches (also in report). */
int64_t bench_verify_transpose(const bench_case* c, const dtype_info* t, const void* in,
                               const void* out, const void* out_init, double alpha, double beta,
                               int threads, bench_verify_report* report);

#endif
