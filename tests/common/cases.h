/* Random transpose problems shared by the CPU and GPU tests. */
#ifndef CUPERM_TEST_CASES_H
#define CUPERM_TEST_CASES_H

#include <stdio.h>

#include "support/rng.h"

typedef struct {
    int rank;
    int64_t extents[CUPERM_MAX_RANK];
    int perm[CUPERM_MAX_RANK];
    int has_in_strides, has_out_strides;
    int64_t in_strides[CUPERM_MAX_RANK];
    int64_t out_strides[CUPERM_MAX_RANK];
} test_case_t;

/**
 * A random problem of rank in [min_rank, max_rank] and volume at most
 * max_volume; with strides (padded, any memory order) when strided is set.
 */
void case_random(rng_t* r, test_case_t* c, int min_rank, int max_rank, int64_t max_volume,
                 int strided);

/** Random strides for extents ext[0..rank): dimensions laid out in a random
 * memory order, each padded by up to pad elements. */
void case_random_strides(rng_t* r, int rank, const int64_t* ext, int64_t pad, int64_t* strides);

/** A dense problem written out in a test's table: rank, extents, permutation. */
typedef struct {
    int rank;
    int64_t e[6];
    int p[6];
} test_shape_t;

/** The dense test case of a table entry. */
test_case_t case_from_shape(const test_shape_t* s);

int64_t case_volume(const test_case_t* c);
/** Element spans of the input and the output (one past the last offset). */
int64_t case_in_span(const test_case_t* c);
int64_t case_out_span(const test_case_t* c);
void case_print(FILE* f, const test_case_t* c);

#endif
