/* The one seeded generator of tests and tools (SplitMix64): every random case,
 * suite and buffer is reproducible from its seed on any platform; the state lives
 * in the caller, never in a global. */
#ifndef CUPERM_SUPPORT_RNG_H
#define CUPERM_SUPPORT_RNG_H

#include <stdint.h>

#include "cuperm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint64_t state;
} rng_t;

uint64_t rng_next(rng_t* r);
/** Uniform in [lo, hi]. */
int64_t rng_range(rng_t* r, int64_t lo, int64_t hi);
/** Uniform in [-1, 1). */
double rng_unit(rng_t* r);
/** Uniform in [0, 1). */
double rng_uniform(rng_t* r);
void rng_permutation(rng_t* r, int n, int* perm);
/** Fills n elements of type with random values in [-1, 1) (integers: random bits). */
void rng_fill(rng_t* r, cupermDataType_t type, int64_t n, void* buf);
/** Writes a random scalar of type's scalar type into s (floats in [-2, 2)). */
void rng_scalar(rng_t* r, cupermDataType_t type, void* s);

#ifdef __cplusplus
}
#endif

#endif
