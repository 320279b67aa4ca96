/* A small seeded generator (SplitMix64) so every generated suite is reproducible
 * from its seed on any platform; the state lives in the caller, never in a global. */
#ifndef CUPERM_BENCH_RNG_H
#define CUPERM_BENCH_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t state;
} bench_rng;

static inline bench_rng bench_rng_seed(uint64_t seed)
{
    bench_rng r = {seed};
    return r;
}

static inline uint64_t bench_rng_next(bench_rng* r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double bench_rng_uniform(bench_rng* r)
{
    return (double)(bench_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [0, n), n >= 1 (the modulo bias is below 2^-40 for the n used here). */
static inline uint64_t bench_rng_below(bench_rng* r, uint64_t n)
{
    return bench_rng_next(r) % n;
}

#endif
