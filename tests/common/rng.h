/* Small deterministic RNG for tests (splitmix64). */
#ifndef CUPERM_TEST_RNG_H
#define CUPERM_TEST_RNG_H

#include <stdint.h>

#include "cuperm.h"

typedef struct {
    uint64_t state;
} test_rng_t;

uint64_t rng_next(test_rng_t* r);
/** Uniform in [lo, hi]. */
int64_t rng_range(test_rng_t* r, int64_t lo, int64_t hi);
/** Uniform in [-1, 1). */
double rng_unit(test_rng_t* r);
void rng_permutation(test_rng_t* r, int n, int* perm);
/** Fills n elements of type with random values in [-1, 1) (integers: random bits). */
void rng_fill(test_rng_t* r, cupermDataType_t type, int64_t n, void* buf);
/** Writes a random scalar of type's scalar type into s (floats in [-2, 2)). */
void rng_scalar(test_rng_t* r, cupermDataType_t type, void* s);

#endif
