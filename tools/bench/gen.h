/* Deterministic generation of the transpose suites' cases (plain C, no CUDA):
 * the same parameters and seed give the same cases on every machine. */
#ifndef CUPERM_BENCH_GEN_H
#define CUPERM_BENCH_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "bench_case.h"
#include "support/rng.h"

#define BENCH_MAX_CHOICES 32

/* What the generated suites are parameterized by. Zero/empty fields take the
 * suite's default (see bench_gen_params_defaults). */
typedef struct {
    int ranks[BENCH_MAX_CHOICES]; /* random: ranks to generate */
    int num_ranks;
    double ratios[BENCH_MAX_CHOICES]; /* random: largest/smallest extent ratios */
    int num_ratios;
    int count;          /* random, highrank: cases per (rank, ratio) or per rank */
    int64_t volume;     /* random, highrank: elements per tensor */
    int64_t extent;     /* perm720: every extent; square: the matrix side */
    uint64_t seed;
} bench_gen_params;

/* Fills unset fields: ranks 2..12, ratios 1,5,15, count 2, volume 200M elements,
 * seed 1; extent is left 0 (each suite has its own default). */
void bench_gen_params_defaults(bench_gen_params* p);

/* Appends all rank! permutations (lexicographic order, identity first) of a
 * rank-dimensional tensor whose extents all equal extent. */
int bench_gen_all_perms(int rank, int64_t extent, bench_case_list* out);

/* Chooses rank extents, each >= 2 when the volume allows, whose largest/smallest
 * ratio is round(ratio * min)/min (exactly ratio when ratio is an integer) and whose
 * product is as close to volume as those constraints allow. The smallest and
 * largest sit at random positions. Returns 0, or -1 if rank/volume/ratio are unusable. */
int bench_gen_random_extents(rng_t* rng, int rank, int64_t volume, double ratio,
                             int64_t* extents);

/* A uniformly random permutation of 0..rank-1 other than the identity (rank >= 2). */
void bench_gen_random_perm(rng_t* rng, int rank, int* perm);

/* cuTT set-1 style: for each rank and ratio, count distinct cases of random extents and
 * permutation (fewer where fewer exist: rank 2 at ratio 1 has one). */
int bench_gen_random_suite(const bench_gen_params* p, bench_case_list* out, char* err,
                           size_t err_size);

/* Ranks 8 and 12 with four large dimensions and the rest of extent 2, the volume near
 * p->volume; count cases per rank: the first keeps the large dimensions first and
 * reverses the order, the others place them and permute at random. */
int bench_gen_highrank_suite(const bench_gen_params* p, bench_case_list* out, char* err,
                             size_t err_size);

/* Small tensors of 64 KB, 256 KB, 1 MB, 4 MB and 16 MB at elem_size bytes per
 * element, ranks 2, 3, 4 and 6, extent ratio 2, one random permutation each. */
int bench_gen_small_suite(const bench_gen_params* p, size_t elem_size, bench_case_list* out,
                          char* err, size_t err_size);

/* ---- suites outside the tuned shapes ---------------------------------------
 * Each has a held-out twin (SUITE-heldout in cuperm-bench) drawn with
 * bench_heldout_seed(seed) or, for permn, from bench_permn_heldout_extents:
 * measured only at the end, never tuned on (bench/README.md). */

#define BENCH_PERMN_HELDOUT_COUNT 4
extern const int64_t bench_permn_heldout_extents[BENCH_PERMN_HELDOUT_COUNT];
int bench_permn_extent_is_heldout(int64_t extent);

/* The seed a held-out suite uses in place of seed. */
uint64_t bench_heldout_seed(uint64_t seed);

int bench_is_prime(int64_t n);

/* Ranks 3, 4, 5 and 6, count cases each: every extent prime, the product near
 * p->volume, a random non-identity permutation. */
int bench_gen_primes_suite(const bench_gen_params* p, bench_case_list* out, char* err, size_t err_size);

/* Ranks 8 and 12, count cases each: 2-5 extents of 18-40, the others 2-5, at random
 * positions, volume between 0.1 and 1.25 x p->volume; random permutation. */
int bench_gen_mixed_suite(const bench_gen_params* p, bench_case_list* out, char* err, size_t err_size);

/* Ranks 3, 4 and 5, count cases each, whose input-fastest dimension is short (2-8 elements): rank 3
 * is a batch of small matrices transposed (S x B x M, 1,0,2, S 2-8, B 3-120, the short side in or
 * out at random), ranks 4-5 have extents of 3-40 after the short one and a random permutation that
 * moves it; one dimension past the first stretched to bring the volume to 0.5-1.25 x p->volume. */
int bench_gen_shortgroup_suite(const bench_gen_params* p, bench_case_list* out, char* err, size_t err_size);

/* Rank-6 tensors of about 1, 2, 4, 8 and 16 MiB (+-15%) at elem_size bytes, count
 * per size, extent ratios 1.5-5, random permutation: they live in L2. */
int bench_gen_l2_suite(const bench_gen_params* p, size_t elem_size, bench_case_list* out, char* err,
                       size_t err_size);

#endif
